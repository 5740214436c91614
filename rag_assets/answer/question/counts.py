"""What a question counts: 'how many full-time employees', 'the number of warehouses', 'the headcount' name a
noun whose number a filing prints beside it in a sentence ('approximately 73,300 employees'), which Python reads
(``evidence.counts``)."""

from __future__ import annotations

import re

from rag_assets.answer.question.formulas import printed_ratio
from rag_assets.answer.question.metric_library import fold
from rag_assets.answer.question.sources import without_source

# (the number of stores Globex operated, the number of members Globex had: the noun ends before the company)
COUNT_RES = (re.compile(r"\bhow\s+many\s+(?P<noun>[\w&-]+(?:\s+[\w&-]+){0,3}?)\s+(?:did|does|do|were|was|are|is|had|has|"
                        r"have|in|at|as|of|for|worked|work|operated|served|on)\b", re.I),
             re.compile(r"\b(?:total\s+)?number\s+of\s+(?P<noun>[\w&-]+(?:\s+[\w&-]+){0,3}?)(?:\s+(?:did|does|do|were|"
                        r"was|are|is|had|has|have|in|at|as|of|for|that|which|employed|operated|on)\b|"
                        r"(?=\s+(?-i:[A-Z])[\w&.'’-]*(?:\s+(?-i:[A-Z])[\w&.'’-]*)*\s+(?-i:[a-z]+ed|had|has|have)\b))", re.I),
             re.compile(r"\b(?P<noun>headcount|workforce)\b", re.I),
             re.compile(r"\b(?P<noun>(?!total\b|share\b|the\b)[a-z][\w-]*)\s+count\b"))  # 'warehouse count': warehouses
NOUN_OF = {"headcount": "employees", "workforce": "employees"}
# a list of nouns counted together ('how many engineers, scientists and IT professionals did X employ'): a filing
# prints the count before the list's first noun, which is the noun counted; the others stay qualifiers
NOUN_LIST_RE = re.compile(r"(\b(?:how\s+many|number\s+of)\s+[\w&-]+(?:\s+[\w&-]+){0,2}?),(?:\s+[\w&-]+){1,4}?"
                          r"(?:,(?:\s+[\w&-]+){1,4}?)*,?\s+(?:and|or)\s+(?:[\w&-]+\s+){0,3}?[\w&-]+"
                          r"(?=\s+(?:did|does|do|were|was|are|is|had|has|have)\b)", re.I)
# 'how many of Globex's employees', 'how many of its stores': a part of the things counted, the noun after the owner
PARTITIVE_RE = re.compile(r"\bhow\s+many\s+of\s+(?:(?:the|its|their|our)\s+|(?:(?-i:[A-Z])[\w&.-]*\s+){0,3}"
                          r"(?-i:[A-Z])[\w&.-]*['’]s?\s+)?", re.I)
SCALED_COUNT_RE = re.compile(r"\bhow\s+many\s+(?:thousand|million|billion)s?\s+(?:of\s+)?", re.I)  # '... million shares'
# other nouns a filing counts the same thing by, in a sentence holding the verb: 'the Group employed 812 people'
COUNTED_AS = {"employee": (r"\bemploy(?:s|ed|ing)?\b", ("people", "person", "staff", "individual", "worker"))}
# what a question counts by another noun when its verb says what: 'how many people did X employ' counts employees
PEOPLE_NOUNS = frozenset({"people", "persons", "staff", "workers", "individuals"})
# things a filing counts as a whole and in parts (by region, segment, union, contract): of a year's differing
# counts of one of them, the largest is the whole ('156,000 employees', '50,000 employees ... union represented');
# never shares (authorized, issued and outstanding are different counts, none the whole of the others)
WHOLE_COUNTS = frozenset({"employee", "store", "warehouse", "location", "restaurant", "branch", "office", "member",
                          "customer", "subscriber", "holder"})
# the nouns a filing prints for a counted noun: 'holders of record' are its '62,488 shareholders of record', and
# 'stockholders of record' its '1,574 holders of record'
_HOLDERS = ("holder", "shareholder", "stockholder")
COMPOUND_NOUNS = {noun: tuple(other for other in _HOLDERS if other != noun) for noun in _HOLDERS}
# nouns a filing names a count by before it ('total workforce was approximately 156,000'), beside the noun itself
NAMED_BEFORE = {"employee": ("workforce", "headcount")}
NOT_COUNTED = re.compile(r"\b(?:dollars?|usd|cents?|millions?|billions?|thousands?|percent(?:age)?|points?|bps|times|"
                         r"days|years?)\b", re.I)  # units of an amount, a ratio or a change of one
# nouns of amounts, never counted: 'membership fees', 'net sales', 'total assets' are money
AMOUNT_NOUN_RE = re.compile(r"\b(?:sales|revenues?|fees|assets|liabilities|expenses|costs|earnings|proceeds|payments|"
                            r"receivables|payables|borrowings|deposits|loans|securities|investments|reserves|taxes|"
                            r"dividends|profits|losses|income|charges|benefits|obligations|inventories|equity|"
                            r"expenditures?|flows?|debts?|leases|commitments|amounts?|balances?)$", re.I)


def countable(noun: str) -> bool:
    """A noun phrase that names things a filing counts ('employees', 'retail stores', 'paid memberships'), not
    an amount ('membership fees', 'net sales') nor a ratio: a plural of at most three words."""
    return re.fullmatch(r"(?:[\w-]+\s+){0,2}[a-z]*[^s\W]s", noun) is not None and not AMOUNT_NOUN_RE.search(noun) \
        and not NOT_COUNTED.search(noun) and not printed_ratio(noun)


# words after a counted noun saying it is counted everywhere the company is, which no printed count needs
WHOLE_SCOPE_RE = re.compile(r"(?<=\w)\s+(?:worldwide|globally|overall|altogether|in\s+total)$")


def counted_noun(question: str) -> str:
    """The noun a question counts, folded, its head last ('full time employees', 'holders of record' -> 'holders
    of record'); '' when it counts nothing or asks an amount ('how many dollars')."""
    question = SCALED_COUNT_RE.sub("how many ", PARTITIVE_RE.sub("how many ", question))  # 'how many thousands of
    question = NOUN_LIST_RE.sub(r"\1", question)  # 'how many engineers, scientists and ...': engineers
    for pattern in COUNT_RES:
        m = pattern.search(question)
        if m:
            written = re.sub(r"^(?:[A-Z][\w&.'’-]*\s+)+(?=[a-z])", "", m.group("noun"))  # 'Costco warehouses'
            noun = fold(written) + ("s" if m.re is COUNT_RES[-1] and not written.endswith("s") else "")
            noun = WHOLE_SCOPE_RE.sub("", noun)  # 'retail stores worldwide': the stores
            noun = NOUN_OF.get(noun, noun)
            if noun in PEOPLE_NOUNS and re.search(r"\bemploy", question, re.I):
                noun = "employees"
            return "" if NOT_COUNTED.search(noun) else noun
    return ""


# words that qualify a noun from after it ('shares outstanding', 'stores operated'): never the counted noun itself
POSTPOSITIVE = frozenset({"outstanding", "issued", "held", "remaining", "owned", "leased", "operated", "employed",
                          "authorized", "repurchased", "sold", "delivered", "served", "open", "opened", "closed"})


def head_noun(noun: str) -> str:
    """The word a printed count stands before: the noun's first word that is no modifier ('full time employees'
    -> 'employees', 'holders of record' -> 'holders', 'paid members' -> 'members', 'diluted shares
    outstanding' -> 'shares')."""
    return noun_parts(noun)[0]


def noun_parts(noun: str) -> tuple[str, str]:
    """(the head noun, the word qualifying it from after it or ''): 'shares outstanding' -> ('shares',
    'outstanding')."""
    words = noun.split(" of ")[0].split() if " of " in f" {noun} " else noun.split()
    after = words.pop() if len(words) >= 2 and words[-1] in POSTPOSITIVE else ""
    return (words[-1] if words else "", after)


# words of a count question that say neither what is counted nor where: asking words, verbs of having and
# employing, the period, the filing ('How many employees did X have at the end of fiscal 2021 per its 10-K')
NOT_QUALIFIERS = frozenset("""how many what which number total did does do were was are is be been had has have
employ employs employed employing operate operates operated operating the a an of in at on as by to for from
its their our end close year years fiscal fy calendar quarter month months december january february march april
may june july august september october november according per filing report reports annual 10 k q form
approximately about around roughly overall altogether there with people persons person staff individuals size
workers employee employees worldwide globally total company companys s headcount workforce count operation
state give tell show provide list find quote name identify compute calculate please me
thousand thousands million millions billion billions""".split())  # an instruction's verb; the scale asked


def _count_clause(question: str) -> str:
    """The sentence or clause of ``question`` that asks the count ('how many ...', 'the number of ...'), without
    the others ('Assume that you are an analyst.', 'Answer using the 10-K:'); all of it when none asks one."""
    for pattern in COUNT_RES:
        m = pattern.search(question)
        if m:
            start = max(question.rfind(c, 0, m.start()) for c in ".:;?!") + 1
            ends = [i for i in (question.find(c, m.end()) for c in ".:;?!") if i >= 0]
            return question[start: min(ends) if ends else None]
    return question


# a model's name in a question: letters, a hyphen, digits ('C-130J', 'F-35'); never a period ('FY22', 'Q4')
MODEL_RE = re.compile(r"\b[A-Za-z]{1,4}-\d+[A-Za-z]*\b")


def count_qualifiers(query: str, counted: str) -> tuple[str, ...]:
    """What a count question says of its counted things beyond their noun, the company and the period: where
    or which of them ('in the United States', 'were union represented', 'covered by collective bargaining
    agreements'), as folded words; () when it says nothing more ('how many employees did X have')."""
    counted_words = set(fold(counted).split())
    clause = without_source(_count_clause(query))  # 'according to the human capital section': where, not which
    words = [w for w in fold(clause).split() if w not in NOT_QUALIFIERS and w not in counted_words
             and not re.search(r"\d", w)]  # a period ('2q23', 'fy22', '31st'), never what is counted
    models = [m.lower().replace("-", "") for m in MODEL_RE.findall(clause)]  # 'C-130J' is which of them
    return tuple(dict.fromkeys(models + [w for w in words if not any(m.startswith(w) for m in models)]))


# a count asked since a start, not of one year: 'since program inception', 'to date', 'cumulative deliveries'
SINCE_START_RE = re.compile(r"\b(?:since\s+(?:\w+\s+){0,2}(?:inception|founding|launch|start)|to\s+date|"
                            r"cumulative(?:ly)?|in\s+total\s+since)\b", re.I)


def asks_since_start(question: str) -> bool:
    """The count is asked since a start ('How many aircraft has X delivered since program inception?')."""
    return SINCE_START_RE.search(question) is not None
