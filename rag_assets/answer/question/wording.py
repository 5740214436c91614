"""How a question is written, read into parts Python can use: the canonical text (fiscal years written out,
'a fifth' as 20 %), the definitions it gives in any of the forms analysts write ('X is defined as F', 'define X
as F', 'X = F', 'compute X as F', 'where X is F', 'X (F)', ', defined as F', 'i.e. F'), and the clauses that
ask for something ('what was ...', 'compute ...'), the question's own sentence first."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rag_assets.answer.question.formulas import SHARE_DIVIDES, strip_period
from rag_assets.answer.question.frames import SENTENCE_END_RE, framed_text
from rag_assets.answer.question.metric_library import fold, owner_inside
from rag_assets.answer.question.period import normalize
from rag_assets.index.bm25 import tokenize
from rag_assets.retrieval.query import Lexicon, contains

FRACTIONS = {"half": "50%", "a third": "33.3%", "one third": "33.3%", "a quarter": "25%", "one quarter": "25%",
             "a fifth": "20%", "one fifth": "20%", "a tenth": "10%", "one tenth": "10%", "two thirds": "66.7%"}
FRACTION_RE = re.compile(rf"(?:(?<=\bthan\s)|(?<=\bby\s))({'|'.join(FRACTIONS)})\b|"
                         rf"(?<!first\s)(?<!second\s)(?<!1st\s)(?<!2nd\s)\b({'|'.join(FRACTIONS)})(?=\s+of\b)",
                         re.I)  # 'the first half of 2022' is a period, not 50 %
_END = (r"(?=\.\s|\.?\s*$|\?|;|,\s*(?:where|with)\b|"
        r",\s*(?:in|as)\s+(?:usd|us\$|\$|millions|billions|thousands|percent|units|a\s+percentage|a\s+decimal)\b|"
        r"(?:,\s*|\s+and\s+)(?:then\s+)?(?:round|answer|give|express|report|using|use|based|in\s+percent)\b|"
        r"\s+(?:round(?:ed)?\s+to|to\s+(?:one|two|three|\d)\s+dec))")
_F = rf"(?P<f>[^?;]+?){_END}"
_NAME = r"(?P<name>(?:[^.?!:;=(),]|\([^()]*\)|,\s*(?=\d{4}))+?)"
_NOT_A_UNIT = r"(?!an?\s+(?:%|(?:percent|percentage|ratio|decimal|fraction|share|multiple|number)\b))"  # '%' ends no word
_NOT_A_DATE = r"(?!(?:of|at|reported|printed|stated|shown|disclosed|presented|per)\b)"  # 'compute X as of <date>'
NAMED_RES = [
    re.compile(rf"{_NAME}\s+(?:here\s+)?(?:is|are)\s+(?:defined|calculated|computed|measured)\s+as:?\s+{_F}", re.I),
    re.compile(rf"\bdefine\s+{_NAME}\s+as:?\s+{_F}", re.I),
    re.compile(rf"\b(?:with|where)\s+{_NAME}\s+(?:defined|calculated|computed|measured)\s+as:?\s+{_F}", re.I),
    re.compile(rf"\b(?:compute|calculate|calculating|computing)\s+{_NAME}\s+as:?\s+{_NOT_A_UNIT}{_NOT_A_DATE}{_F}",
               re.I),
    re.compile(rf"\b(?:where|with)\s+(?P<name>[^.?!:;=,()]{{1,60}}?)\s+(?:is|equals|being)\s+{_NOT_A_UNIT}{_F}",
               re.I),
    re.compile(r"(?P<name>[A-Za-z][^.?!:;=,()]{0,60}?)\s*=\s*(?P<f>[^=?;]+?)"
               r"(?=,\s*(?:and\s+|with\s+)?[A-Za-z][\w\s&'-]{0,40}=|;|\.\s|\.?\s*$|\?)", re.I),
]
ANONYMOUS_RES = [
    re.compile(rf"(?:,|\b(?:and|then))\s*(?:defined|calculated|computed|measured)\s+as:?\s+{_F}", re.I),
    re.compile(rf"\bi\.e\.,?\s+{_F}", re.I),
]
# Instructions that write the formula out: 'divide A by B', 'subtract B from A'.
INSTRUCTION_RES = [
    (re.compile(rf"\bdivide\s+(?P<a>[^?;]+?)\s+by\s+(?P<b>[^?;]+?){_END}", re.I), "({a}) / ({b})"),
    (re.compile(rf"\bsubtract\s+(?P<b>[^?;]+?)\s+from\s+(?P<a>[^?;]+?){_END}", re.I), "({a}) - ({b})"),
]
OPERATOR_WORDS = rf"\bminus\b|\bdivided\s+by\b|\bless\b|\bplus\b|\btimes\b|\s[-+/*]\s|{SHARE_DIVIDES}"
PAREN_DEF_RE = re.compile(rf"(?P<name>[\w&'’-]+(?:\s+[\w&'’-]+){{0,5}})\s+\((?P<f>[^()]*?(?:{OPERATOR_WORDS})[^()]*)\)", re.I)
PRONOUNS = ("it", "this", "that", "this ratio", "this metric", "the ratio", "the metric")
ASK_RE = re.compile(r"\b(?:what\s+(?:is|was|are|were)|how\s+(?:much|many)|(?:tell|show|give|send|get)\s+me|"
                    r"let\s+me\s+know|i\s+(?:need|want)(?:\s+to\s+know)?|compute|calculate|report|give|find|"
                    r"determine|provide|estimate|state|quote|look\s+up|"
                    r"what(?=\s+(?:share|proportion|percentage|portion|fraction|part)\s+of\b))\b\s*(?:the\s+)?",
                    re.I)  # 'what share of X came from Y': the clause keeps 'share of'
POSSESSIVE_RE = re.compile(r"^.*?\b[\w&.-]+(?:'s|’s|s'|s’)\s+", re.I)
LEAD_RE = re.compile(r"^(?:(?:with|where|and|then|what|how|is|was|were|are|did|does|do|has|have|the|a|an|its|their|this|that|"
                     r"much|many|compute|calculate|report|give|find|tell|show|me|please|state|quote)\s+)+", re.I)


MULTIPLES = {"double": ("grow", "100%"), "triple": ("grow", "200%"), "quadruple": ("grow", "300%"),
             "halve": ("fall", "50%")}
# a change written as a multiple: 'more than doubled', 'at least tripled', 'halved' (a verb; 'double-digit' is not)
MULTIPLE_RE = re.compile(r"\b(?:(?:more\s+than|at\s+least|over)\s+(double|triple|quadruple|halve)[sd]?|"
                         r"(doubl|tripl|quadrupl|halv)ed)\b(?![\s-]*digit)", re.I)


INITIALS_RE = re.compile(r"\b(?:[A-Z]\.){2,3}(?=\s|$|[,;:?)])")  # 'U.S.', 'U.K.', 'U.S.A.'


def canonical(question: str) -> str:
    """The question with fiscal years and quarters written out ('FY19' -> 'FY2019', '2Q23' -> 'Q2 2023'),
    common fractions as percentages ('more than a fifth of' -> 'more than 20% of'), multiples as changes in
    percent ('more than doubled' -> 'grew by more than 100%') and its asking frame as the readers read it ('How
    much Y did X report' -> "What was X's Y", ``frames``); initials are written without their stops ('U.S.' ->
    'US')."""
    text = INITIALS_RE.sub(lambda m: m.group(0).replace(".", ""), question)  # 'U.S.' ends no sentence
    text = FRACTION_RE.sub(lambda m: FRACTIONS[(m.group(1) or m.group(2)).lower()], normalize(framed_text(text)))
    return MULTIPLE_RE.sub(_multiple, text)


def _multiple(m: re.Match) -> str:
    verb, percent = MULTIPLES[(m.group(1) or m.group(2) + "e").lower()]
    return f"{verb} by more than {percent}"


def name_key(name: str) -> str:
    """What a defined name is looked up by: without the asking words, the company's possessive and the period
    ('What was Netflix's unadjusted EBITDA margin for fiscal 2015' -> 'unadjusted ebitda margin')."""
    name = LEAD_RE.sub("", owner_inside(name.strip()) or POSSESSIVE_RE.sub("", name.strip()))
    return " ".join(strip_period(fold(name).split()))


@dataclass
class Definitions:
    """The names a question defines -> their formula text, and a formula it gives for the asked quantity without
    naming it; ``spans`` is where they are written (the asked clause is read without them)."""

    named: dict[str, str] = field(default_factory=dict)
    anonymous: str = ""
    spans: list[tuple[int, int]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.named or self.anonymous)

    def first(self) -> str:
        return self.anonymous or next(iter(self.named.values()), "")


def definitions(question: str) -> Definitions:
    """Every definition ``question`` writes (see the module's docstring), the first of a name winning."""
    out = Definitions()
    for pattern in NAMED_RES + [PAREN_DEF_RE]:
        for m in pattern.finditer(question):
            key = name_key(m.group("name"))
            if key in PRONOUNS and not _overlaps(m.span(), out.spans):  # 'define it as ...': the asked quantity
                out.anonymous = out.anonymous or m.group("f").strip()
                out.spans.append(m.span())
            elif key and not _overlaps(m.span(), out.spans):
                out.named.setdefault(key, m.group("f").strip())
                for abbr in re.findall(r"\(([A-Za-z&]{2,8})\)", m.group("name")):  # 'days payable outstanding (DPO)'
                    out.named.setdefault(fold(abbr), m.group("f").strip())
                out.spans.append((m.start("f") - 1, m.end("f") + 1) if pattern is PAREN_DEF_RE else m.span())
    for pattern in ANONYMOUS_RES:
        for m in pattern.finditer(question):
            if not _overlaps(m.span(), out.spans):
                out.anonymous = out.anonymous or m.group("f").strip()
                out.spans.append(m.span())
    for pattern, template in INSTRUCTION_RES:
        for m in pattern.finditer(question):
            if not _overlaps(m.span(), out.spans):
                out.anonymous = out.anonymous or template.format(a=m.group("a").strip(), b=m.group("b").strip())
                out.spans.append(m.span())
    return out


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(span[0] < b and a < span[1] for a, b in spans)


def without(question: str, spans: list[tuple[int, int]]) -> str:
    """``question`` with ``spans`` cut out."""
    for a, b in sorted(spans, reverse=True):
        question = question[:a] + " " + question[b:]
    return re.sub(r"\s+", " ", question)


def asked_clauses(question: str) -> list[str]:
    """The clauses that ask for something, sentence by sentence, the questions ('...?') first, then the others
    as written ('Compute ...') where none is a question (beside one, 'Please give a precise figure.' is not
    read): of each sentence, what follows a colon that
    introduces it ('Answer using the 10-K: Globex backlog at year-end 2021'), then each clause from its asking
    words to the sentence's end, then the sentence as written. A sentence of boilerplate after the question is
    read only when the question's own words read nothing."""
    sentences = [s.strip() for s in re.split(rf"(?<=[?!;])\s+|{SENTENCE_END_RE.pattern}", question) if s.strip()]
    asked = [s for s in sentences if s.endswith("?")] or sentences  # beside a question, the rest is boilerplate
    out = []
    for sentence in asked:
        introduced = re.split(r":\s+", sentence, maxsplit=1)[1:] if re.search(r"\w:\s+\S", sentence) else []
        for part in introduced + [sentence]:
            out += [part[m.end():] for m in ASK_RE.finditer(part)] + [part]
    return list(dict.fromkeys(c.strip(" ?.") for c in out if c.strip(" ?.")))


INTRODUCED_RE = re.compile(r"\w:\s+(?=(?:did|does|do|is|are|was|were|has|have|had|can|will|would|should|what|how)\b)"
                           r"(?!\w+\s+(?:it|they)\b)", re.I)  # 'Globex's net income: was it higher': it is what precedes


def introduced(question: str) -> str:
    """The question a colon introduces ('Using the company's filings, answer: Did X ...' -> 'Did X ...'), else
    ``question``."""
    m = INTRODUCED_RE.search(question)
    return question[m.end():] if m else question


def asks_expectation(question: str, lexicon: Lexicon | None) -> bool:
    """The question asks what is expected (guidance, an outlook, a forecast: the lexicon's
    ``events.expectation_asked_by``), not a result already reported."""
    tokens = tokenize(question)
    return bool(lexicon) and any(contains(tokens, t) for t in lexicon.events.get("expectation_asked_by", ()))


AUXILIARY_RE = re.compile(r"\b(is|are|does|do|did|has|have|had|was|were|will|can|could|would|should)\b", re.I)
PAST_AUXILIARIES = frozenset({"did", "has", "have", "had", "was", "were"})


def asks_past(question: str) -> bool:
    """A yes/no question whose first auxiliary verb is past or perfect ("Did ...", "In 2022, was ... able",
    "Has ... reported"): it asks whether something happened or was the case in a period, not what is so
    ("Is ... cyclical", "Does ... have")."""
    first = AUXILIARY_RE.search(question)
    return bool(first) and first.group(1).lower() in PAST_AUXILIARIES
