"""How a table row names a line item (its label against the library's labels, the heading or caption above it)
and which of its figures is the asked year's: what every operand finder reads a row by."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.candidates import Candidate
from rag_assets.answer.question.lemmas import lemmas
from rag_assets.answer.question.metric_library import ItemSpec, fold
from rag_assets.answer.question.period import TO_DATE

QUALIFIER_RE = re.compile(r",?\s*(?:\(|\bnet\s+of\b|\bless\s+allowances?\b|,\s*(?:less|net\s+of|"
                          r"including|excluding|at\s|as\s+of)\b|"  # when, not what: 'Backlog at year-end'
                          r"\s+at\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?(?:period|year|quarter)|"
                          r"(?:year|period)[\s-]end)\b)", re.I)


def label_match(label: str, labels: tuple[str, ...]) -> float:
    """3 when the row's label is one of ``labels``; 2 when it starts with one and adds at most three words
    ('Net income attributable to X'); 1 when it holds every word of one; 0 otherwise. A label's trailing
    qualifier ('Accounts receivable, net of allowances of $132 at December 31, 2019', 'Backlog at year-end') is
    left out."""
    head = label_head(label)
    return max(words_match(label, labels), words_match(head, labels) if head.strip() and head != label else 0.0)


def label_head(label: str) -> str:
    """A row label without its trailing qualifier (', net of allowances of $132 ...')."""
    return QUALIFIER_RE.split(label, maxsplit=1)[0]


def folded_label(label: str) -> str:
    """A row label folded for comparison with the library's labels, its note reference ('(Note 8)') and whose
    shareholders it is ('attributable to 3M common shareholders') and the loss it may be ('Earnings (loss) per
    share') and an aside in brackets that prints figures ('Dividends (per share - $1.48, $1.40 and $1.32 in 2017,
    2016 and 2015, respectively)' is the dividends' row, not a per-share one) left out."""
    plain = re.sub(r"\(\s*note\s*\d+\s*\)|\((?:loss|losses|deficit)\)|\([^()]*\d[^()]*\)|\([a-z]\)", " ", label,
                   flags=re.I)  # a footnote's letter too: 'Return on assets(b)'
    return ATTRIBUTABLE_RE.sub(" ", fold(plain)).strip()


ATTRIBUTABLE_RE = re.compile(r"\s\battributable to (?:\w+ ){0,4}?(?:common |ordinary )?(?:share|stock)holders\b")


def words_match(label: str, labels: tuple[str, ...]) -> float:
    folded = folded_label(label)
    best = 0.0
    for want in labels:
        if folded == want:
            return 3.0
        if lemmas(folded) == lemmas(want) or _untotalled(folded) == _untotalled(want):  # 'Cash dividend payments'
            best = max(best, 2.5)  # is 'cash dividends paid'; 'Total noninterest expense' is the item's total, and
            continue  # 'Noninterest revenue' the total asked ('total noninterest revenue')
        if folded.startswith(want + " ") and len(folded.split()) - len(want.split()) <= 3:
            best = max(best, 2.0)
        elif folded.startswith(want + " "):  # 'Earnings before income taxes and after-tax earnings from ...'
            best = max(best, 1.0)
        elif set(want.split()) <= set(folded.split()):
            best = max(best, 1.0 - 0.05 * (len(folded.split()) - len(want.split())))
    return best


def preference(label: str, labels: tuple[str, ...], written: str = "") -> tuple[int, int]:
    """How a row's label is preferred among rows of equal match (higher first): the label the question wrote
    (``written``), then that label with or without a leading 'total', then one of the library's labels exactly,
    the earlier listed the better ('Total revenue' over 'Net sales'; the order is the preference); else the
    longest label the row starts with ('Net income attributable to X' over 'Net income', which a row 'Net income
    before ...' only starts with); a row of noncontrolling (minority) interests last."""
    folded = folded_label(label_head(label))
    if written and written_row(label, written):
        return (len(labels) + 1, 0)  # the label the question itself wrote ('net sales')
    if written and _untotalled(folded) == _untotalled(written):
        return (len(labels) + 1, -1)  # it, with or without 'total' ('total net sales' asked, 'Net sales' printed)
    exact = next((n for n, want in enumerate(labels) if folded == want), None)
    if exact is not None:
        return (len(labels) - exact, 0)
    if MINORITY_RE.search(folded) and not any(MINORITY_RE.search(want) for want in labels):
        return (-1, 0)  # the minority holders' share, or a figure including it: the company's own row comes first
    return (0, max((len(want.split()) for want in labels if folded.startswith(want + " ")), default=0))


def _untotalled(label: str) -> str:
    return label[6:] if label.startswith("total ") else label


def written_row(label: str, written: str) -> bool:
    """The row prints the label the question wrote: as it is ('net sales'), or one that ends open ('net income
    attributable to' the company, whatever name the row gives it; never the noncontrolling interests')."""
    folded = folded_label(label_head(label))
    return folded == written or written.endswith(" to") and folded.startswith(written + " ") and \
        not MINORITY_RE.search(folded)


MINORITY_RE = re.compile(r"\b(?:non ?controlling|minority)\s+interests?\b")


INFLOW_NOUNS = frozenset({"revenue", "revenues", "sales", "income"})
OUTFLOW_NOUNS = frozenset({"expense", "expenses", "cost", "costs"})
HEAD_NOUNS = INFLOW_NOUNS | OUTFLOW_NOUNS | {"amount", "figure"}  # a generic head noun a printed row may leave out


def opposed_head(label: str, name: str) -> bool:
    """The row names the opposite side of what ``name`` asks: the name's head noun is an inflow ('noninterest
    revenue') and the row prints only an outflow ('Total noninterest expense'), or the other way round. What
    ``printed_labels`` shortens ('noninterest') no longer says which side it is; the row's own noun does."""
    head, words = (name.split() or [""])[-1], set(label.split())
    for side, other in ((INFLOW_NOUNS, OUTFLOW_NOUNS), (OUTFLOW_NOUNS, INFLOW_NOUNS)):
        if head in side:
            return bool(words & other) and not words & side
    return False


def printed_labels(name: str) -> tuple[str, ...]:
    """How a statement may print a line item the question names as written ('membership fee revenue'): the words
    themselves, and without a generic head noun the row leaves out ('Membership fees')."""
    words = name.split()
    out = [name]
    if len(words) >= 2 and words[-1] in HEAD_NOUNS:
        out.append(" ".join(words[:-1]))
    return tuple(out)


def stem(text: str) -> str:
    """Plural and singular alike ('fees' as 'fee'): how a row printed in the plural matches a singular name."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in text.split())


def year_figure(cand: Candidate, year: int, months: int = 0, own_quarter: int = -1, quarter: int = 0,
                percent: bool = False):
    """The figure of ``cand`` in ``year``'s column (a percentage only with ``percent``: a ratio as printed), or
    None. With ``months`` (a part of the year), the column of that many months: the one its header names ('Six
    months ended June 30'; the longest interim one for the year to date, -1), else, with no header naming any,
    the year's first column for a quarter in an interim filing (it prints the quarter's columns first), none in
    an annual report (its columns are years: ``own_quarter`` 0) and none for more months. A ``quarter`` asked is
    read in the column naming it where the header names quarters ('2Q23 1Q23'), else only in a filing of that
    quarter (``own_quarter``, -1 unknown). A fiscal year is never read in a column of fewer months."""
    figs = [f for f in cand.figures if f.period == str(year) and f.percent == percent]
    if not months:
        return next((f for f in figs if not f.quarter and f.months in (0, 12)), None)
    if months == 3 and any(f.quarter for f in figs):
        return next((f for f in figs if f.quarter == (quarter or f.quarter)), None)
    if quarter and own_quarter > 0 and quarter != own_quarter:
        return None  # the first quarter is not in the second quarter's three-month columns
    timed = [f for f in figs if f.months]
    if timed:
        if months == TO_DATE:
            return max((f for f in timed if f.months < 12), key=lambda f: f.months, default=None)
        return next((f for f in timed if f.months == months), None)
    return figs[0] if figs and months == 3 and own_quarter != 0 else None


def names_any(text: str, phrases: tuple[str, ...]) -> bool:
    """``text`` names one of ``phrases`` (folded), whole words, its dotted initials joined or not ('the U.S.
    Government' names 'us government' and 'u s government'), or spells one out (``spells_out``)."""
    joined = INITIALS_RE.sub(r"\1", text)
    folded = f"{folded_label(text)} | {folded_label(joined)}"
    return any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", folded) or spells_out(text, p) for p in phrases)


INITIALS_RE = re.compile(r"(?<![\w.])([A-Za-z])\.(?=[A-Za-z]\.)")  # 'U.S.' -> 'US.', 'U.K.' -> 'UK.'


def spells_out(text: str, acronym: str, whole: bool = False) -> bool:
    """``text`` writes out ``acronym`` (three to five letters): a run of capitalized words, 'and' and '&' aside,
    whose initials are its letters ('EUROPE, MIDDLE EAST & AFRICA' for 'emea', 'Asia Pacific & Latin America'
    for 'apla'); ``whole``: its words are that run and no more."""
    if not (3 <= len(acronym) <= 5 and acronym.isalpha()):
        return False
    words = [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() != "and"]
    initials = "".join(w[0] if w[0].isupper() else " " for w in words).lower()
    return initials == acronym.lower() if whole else acronym.lower() in initials


# words that may stand before an item's one-word name in a caption without making it another item: 'The
# following table summarizes Revenues' names revenue; 'Fios revenues', 'Other revenue' name other items
BEFORE_NAME = frozenset("the total net and of by our its their summarize summarizes provide provides show shows "
                        "present presents following segment segments reportable consolidated regional geographic "
                        "geographical in for as from to with "
                        "on include includes table were was are is operating company".split())


def names_item(text: str, spec: ItemSpec | None, labels: tuple[str, ...], library_names=()) -> bool:
    """``text`` (a table's heading row or caption) names the item: one of its names or labels, whole words; a
    one-word name neither after another noun ('Fios revenues' is not revenue) nor inside another item's name
    (``library_names``: 'cost of sales' is not sales)."""
    folded = stem(folded_label(text))
    wanted = (spec.names + spec.labels) if spec else labels
    inside = [m.span() for name, words in library_names if not spec or name != spec.name
              for m in re.finditer(rf"(?<!\w){re.escape(stem(words))}(?!\w)", folded)]
    for w in wanted:
        for m in re.finditer(rf"(?<!\w){re.escape(stem(w))}(?!\w)", folded):
            before = folded[: m.start()].split()[-1:]
            if " " in w:
                return True
            if any(a <= m.start() and m.end() <= b for a, b in inside):
                continue
            if not before or before[0] in BEFORE_NAME or re.search(r"\d", before[0]):
                return True
    return False
