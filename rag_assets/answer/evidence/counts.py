"""A count printed in a sentence: the number standing just before the counted noun ('we had approximately
73,300 employees', 'Costco operated 815 warehouses', '61.7 million paid members'), dated by the sentence's
years. Python reads it; the model only chooses when sentences of the asked year print different counts."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.evidence.candidates import Candidate, page_blocks
from rag_assets.answer.evidence.clauses import DESIGNATOR_RE, clause_names
from rag_assets.answer.evidence.figures import CHANGE_BEFORE_RE, TEXT_FIGURE_RE, Figure, text_figures
from rag_assets.answer.evidence.units import declared_scale
from rag_assets.answer.question.counts import (COMPOUND_NOUNS, COUNTED_AS, MODEL_RE, NAMED_BEFORE, POSTPOSITIVE,
                                                WHOLE_COUNTS, noun_parts)

BETWEEN = 3  # modifiers a printed count may have before its noun ('full-time', 'registered', 'paid')
# words that never stand between a count and its noun: '31, 2021, we had 73,300 employees' counts no '31'
NUMERIC_RE = re.compile(r"[\d.,]+")  # a figure between count and noun: a table row run into the text ('9 9 Shares');
# a model's name that holds digits ('22 C-130J aircraft') is a modifier like any word
NOT_MODIFIERS = frozenset({"we", "had", "have", "ha", "has", "were", "wa", "was", "is", "are", "approximately", "about",
                           "of", "the", "and", "or", "in", "at", "a", "as", "to", "our", "its", "their", "by", "for",
                           "from", "with", "than", "that", "which", "who", "whom", "whose", "there", "it", "they", "",
                           "compared"})
# a sentence about the future counts nothing the year had: 'we project demand for 41,170 new airplanes over the next
# 20 years', 'we expect to open 25 new warehouses'
FORWARD_RE = re.compile(r"\b(?:project(?:s|ed|ing)?|forecasts?|expects?|expected|anticipates?|anticipated|plans?\s+to|"
                        r"will|intends?\s+to|over\s+the\s+next|in\s+the\s+coming)\b", re.I)
# a count since a start is no year's count: 'Since program inception we have delivered 894 production aircraft',
# '1,200 stores opened to date', 'cumulative deliveries of 7,312'
CUMULATIVE_RE = re.compile(r"\b(?:since\s+(?:(?:the|its|our|their)\s+)?(?:program\s+|company['’]s\s+)?(?:inception|"
                           r"founding|launch|start)|since\s+(?:19|20)\d\d|to\s+date|cumulative(?:ly)?|"
                           r"life[\s-]+to[\s-]+date|in\s+(?:its|our|their)\s+history|"
                           r"the\s+first\s+\d[\d,]*)\b", re.I)  # 'The first 611 aircraft delivered include ...'
# a figure just before another: a flattened table row; a date's year before a comma is none ('At January 31, 2023,
# 4,199,882,937 shares')
FIGURE_BEFORE_RE = re.compile(r"(?<![\d,.])(?!(?:19|20)\d\d,\s+$)\d(?:[\d,.]*\d)?\)?\s+$")  # '815, 795': a list
YEAR_ONLY_RE = re.compile(r"(?:19|20)\d\d")
MONEY_RE = re.compile(r"[$€£¥]")
YEAR_IN_RE = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")


def counts_a_whole(noun: str) -> bool:
    """``noun`` is one bare noun a filing counts as a whole and in parts ('employees', not 'union employees')."""
    return len(noun.split()) == 1 and _singular(noun) in WHOLE_COUNTS


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


# a suspended compound ('full- and part-time employees'): written out, each a modifier of the noun
SUSPENDED_RE = re.compile(r"\b(\w+)-\s+(?:and|or)\s+(\w+)-(\w+)")
# further figures joined to the first before their noun ('61,800 and 100,300 employees, respectively', '815, 795,
# and 782 warehouses'), none a year
PAIRED_RE = re.compile(r"(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?:approximately\s+|about\s+)?(?!(?:19|20)\d\d\b)"
                       r"(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s+(?:thousand|million))?)+(?=\s)")


def counted_in(sentence: str, head: str, after_head: str = "") -> list[str]:
    """The figures (as printed) that stand before ``head`` in ``sentence``, at most ``BETWEEN`` words apart, the
    noun followed by ``after_head`` when given ('shares outstanding', not 'shares issued'); never a figure
    right after another (a table's row flattened into the text: '9 9 Shares outstanding')."""
    out = []
    want = _singular(head.lower())
    verb, others = COUNTED_AS.get(want, ("", ()))
    wants = {want, *COMPOUND_NOUNS.get(want, ()), *(others if verb and re.search(verb, sentence, re.I) else ())}
    sentence = SUSPENDED_RE.sub(r"\1-\3 \2-\3", sentence)  # 'full- and part-time': two modifiers, no 'and'
    for m in [*TEXT_FIGURE_RE.finditer(sentence), *WORD_COUNT_RE.finditer(sentence)]:
        if re.search(r"[$€£¥%]|percent", m.group(0), re.I) or CHANGE_BEFORE_RE.search(sentence[:m.start()]) or \
                YEAR_ONLY_RE.fullmatch(m.group(0).strip()):
            continue
        pair = PAIRED_RE.match(sentence, m.end())  # '61,800 and 100,300 employees, respectively': both count
        end = pair.end() if pair else m.end()
        after = re.split(r"[^\w'-]+", sentence[end: end + 80].strip())
        words = [_singular(w.lower()) for w in after[: BETWEEN + 1]]
        at = next((i for i, w in enumerate(words) if w in wants), None)
        if at is None or any(w in NOT_MODIFIERS or NUMERIC_RE.fullmatch(w) for w in words[:at]):
            continue
        if _modifier(after[at], head):  # '15 Employee Resource Groups' counts groups, not employees
            continue
        if FIGURE_BEFORE_RE.search(sentence[:m.start()]) or after_head and words[at + 1:at + 2] != [after_head]:
            continue
        out.append(m.group(0).strip())
    return out


# a count written in words ('operates in five reportable segments'): read as its number
NUMBER_WORDS = {w: n for n, w in enumerate("one two three four five six seven eight nine ten eleven twelve thirteen "
                                            "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(), 1)}
WORD_COUNT_RE = re.compile(rf"\b(?:{'|'.join(NUMBER_WORDS)})\b", re.I)


def word_figures(written: list[str]) -> tuple[Figure, ...]:
    """The counts ``written`` in words, as figures ('five' -> 5)."""
    return tuple(Figure(w, float(NUMBER_WORDS[w.lower()]), False) for w in written if w.lower() in NUMBER_WORDS)


def _modifier(written: str, head: str) -> bool:
    """The counted noun is written in the singular where a count of many takes the plural: it modifies the noun
    after it ('15 Employee Resource Groups'), which is what the figure counts."""
    head = head.lower()
    return _singular(head) != head and not written.lower().endswith("s") and \
        _singular(written.lower()) == _singular(head)


_ABOUT = r"(?:(?:approximately|about|around|roughly|nearly|some|over|more\s+than)\s+)?"
_COUNT = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?(?:\s+(?:thousand|million))?)(?![\d,]*\s*%)"


def _count_names(want: str) -> tuple[str, ...]:
    """The names a filing counts ``want`` (singular) by: its plural, 'number of' it, and the other nouns of it
    (``NAMED_BEFORE``: 'workforce', 'headcount')."""
    return (f"{want}s", f"number of {want}s", *NAMED_BEFORE.get(want, ()))


def named_before(sentence: str, head: str) -> list[str]:
    """The counts a sentence prints after the counted noun and a verb ('Total workforce level at December 31,
    2018 was approximately 153,000', 'the number of employees totaled 9,800', 'total workforce was approximately
    156,000 and 142,000'): the figures as printed, in order."""
    nouns = (re.escape(n).replace(r"\ ", r"\s+") for n in _count_names(_singular(head.lower())))
    m = re.search(rf"\b(?:{'|'.join(nouns)})\b[^.;]{{0,60}}?\b(?:was|were|totall?ed|numbered|stood\s+at|reached|of)\s+"
                  rf"{_ABOUT}{_COUNT}(?:\s+and\s+{_COUNT})?", sentence, re.I)
    if m is None or YEAR_IN_RE.fullmatch(m.group(1)):
        return []
    return [g for g in m.groups() if g]


def row_count(cand: Candidate, head: str, year: int | None, noun: str = "") -> Candidate | None:
    """A table row that counts ``head`` ('Headcount', 'Number of employees', 'Total warehouses'), or the whole
    ``noun`` asked ('Total paid members'), with its figure of ``year`` at the year's end: its year's column, else
    its latest quarter's column of the year (a balance as of the latest date the report prints for the year);
    None for another row or no such figure. A count is in the scale its table's caption or label declares
    ('Paid memberships' under '(in thousands, ...)'), never one carried from a table of money above it
    ('Deliveries | 806' below '(Dollars in millions)' and a paragraph)."""
    want, noun = _singular(head.lower()), noun.lower()
    names = {*_count_names(want), f"total {want}s", f"total number of {want}s",
             *((noun, f"total {noun}", f"number of {noun}", f"total number of {noun}") if noun else ())}
    label = re.sub(r"\s*\(.*$|[^\w\s]", "", cand.label.lower()).strip()
    if cand.source != "row" or label not in names or year is None:
        return None
    figs = [f for f in cand.figures if f.period == str(year) and not f.percent and f.months in (0, 12, 3)]
    whole = [f for f in figs if not f.quarter]
    fig = whole[0] if whole else max(figs, key=lambda f: f.quarter, default=None)
    if fig is None:
        return None
    own = declared_scale(f"{cand.caption} {cand.label}") is not None  # '(in thousands)' above it: its scale
    return replace(cand, figures=(fig,)) if own else replace(cand, figures=(fig,), scale=1.0, scale_words="")


def _forward(sentence: str, written: str, pattern: re.Pattern = FORWARD_RE) -> bool:
    """The figure ``written`` is of the future: its clause (from the last comma before it to the next one after)
    says so ('we expect to open 25 new warehouses'; not '251 warehouses ..., and we plan to continue'); or, with
    ``CUMULATIVE_RE``, it counts since a start ('Since program inception, we have delivered 894 aircraft': the
    sentence's opening phrase too)."""
    at = sentence.find(written)
    start, end = sentence.rfind(",", 0, max(at, 0)) + 1, sentence.find(",", at + len(written))
    if pattern is CUMULATIVE_RE:  # an opening phrase dates the clause after it ('Since program inception, we ...')
        start = sentence.rfind(";", 0, max(at, 0)) + 1
    return pattern.search(sentence[start: end if end >= 0 else None]) is not None


def _of_year(cand: Candidate, written: list[str], year: int | None) -> Candidate | None:
    """The candidate with the one figure of ``written`` that is ``year``'s: the only one, or the one whose place
    among two or more is the year's among the sentence's years ('As of December 31, 2022 and 2021 ... 156,000
    and 142,000'); None when that cannot be told."""
    figs = [f for w in written for f in cand.figures if f.written.strip("()") == w][:len(written)]
    if len(figs) == 1:
        return replace(cand, figures=tuple(figs))
    years = list(dict.fromkeys(YEAR_IN_RE.findall(cand.label)))
    if year is not None and len(figs) == len(years) and str(year) in years:
        return replace(cand, figures=(figs[years.index(str(year))],))
    return None


def count_candidates(pages, noun: str, year: int | None, since_start: bool = False) -> list[Candidate]:
    """The sentences of ``pages`` (best-ranked first) that print a count of ``noun``, each with that figure
    only, none about the future ('we expect to open 25 warehouses') and, a year asked, none since a start ('since
    program inception we have delivered 894'); of the asked ``year`` when any sentence
    names it (a sentence naming other years only is another year's; one naming none is of the year its
    paragraph named last). Where no sentence counts it, the table rows that do ('Headcount'). ``since_start``:
    the count since a start is asked ('since program inception'): only those, of any year."""
    head, after_head = noun_parts(noun)
    if not head:
        return []
    found, rows = [], []
    for page in pages:
        for kind, block in page_blocks(page.text, page.sha1, page.page_index):
            rows += [one for cand in block if kind == "table" and not after_head and not cand.of_parts
                     and (one := row_count(cand, head, year, noun)) is not None]
            carried: list[str] = []
            for cand in block if kind == "text" else ():
                carried = YEAR_IN_RE.findall(cand.label) or carried
                found += [(one, carried) for one in _sentence_count(cand, noun, head, after_head, year, since_start)]
    if since_start:
        return _of_the_noun([c for c, _ in found], noun, head)
    dated = [c for c, years in found if year is None or str(year) in years]
    undated = [c for c, years in found if not years]
    return _of_the_noun(dated or undated, noun, head) or rows  # a row counts only where no sentence does


def _sentence_count(cand: Candidate, noun: str, head: str, after_head: str, year: int | None,
                    since_start: bool = False) -> list[Candidate]:
    """The sentence as a count of ``noun``: with its one figure of the year asked, else its first; [] if none.
    A year's count is none since a start, and the count since a start (``since_start``) is of no year."""
    if since_start:
        year = None
    written = [w for w in counted_in(cand.label, head, after_head) if not _forward(cand.label, w)
               and (_forward(cand.label, w, CUMULATIVE_RE) if since_start else
                    year is None or not _forward(cand.label, w, CUMULATIVE_RE))]
    written = _modified_first(written, cand.label, noun, head)
    figs = tuple(sorted((f for f in cand.figures if f.written.strip("()") in written),
                        key=lambda f: written.index(f.written.strip("()")))) or word_figures(written)
    if figs:
        return [_of_year(replace(cand, figures=figs), written, year) or replace(cand, figures=figs[:1])]
    if not after_head and (before := named_before(cand.label, head)):
        return [one] if (one := _of_year(cand, before, year)) is not None else []
    return []


def _of_the_noun(counts: list[Candidate], noun: str, head: str) -> list[Candidate]:
    """Of the counts, those whose words between figure and head hold every modifier of the noun asked ('115
    million wireless retail connections', not '8 million total broadband connections', when wireless retail
    connections are counted); when none does, those printing the head alone ('3,100 clinics', never '270 urgent
    care clinics' for managed clinics)."""
    modifiers = _modifiers(noun, head)
    if not modifiers:
        return counts
    held = [c for c in counts if _modified(c.label, c.figures[0].written, head, modifiers)]
    return held or [c for c in counts if _modified(c.label, c.figures[0].written, head, [])]


def _modified(sentence: str, figure: str, head: str, modifiers: list[str]) -> bool:
    """The words between ``figure`` and ``head`` hold every one of ``modifiers``; with none asked, they are no
    words at all ('73,300 employees', not '270 urgent care clinics'). A count printed after its noun ('Executive
    members totaled 25.6 million', ``named_before``) is modified by the words just before that noun, never by a
    noun further on ('... and represented 55% of paid members')."""
    at, lower = sentence.find(figure), sentence.lower()
    if at < 0:
        return False
    near = _up_to_head(lower, at + len(figure), head)
    if near is None:
        start = lower.rfind(head, 0, at)
        if start < 0:
            return False
        before = re.findall(r"[\w'-]+", lower[:start])[-BETWEEN:]
        near = " ".join(w for w in before if w not in NOT_MODIFIERS and w not in ("number", "total"))
    return all(m in near for m in modifiers) if modifiers else not re.search(r"[a-z]{3,}", near)


def _up_to_head(lower: str, start: int, head: str) -> str | None:
    """The words of ``lower`` (a sentence in lower case) from ``start`` (just after a count's figure) to the next
    ``head``, when they are at most ``BETWEEN`` ('22 c-130j aircraft' -> ' c-130j '); None when it is further."""
    end = lower.find(head, start)
    near = lower[start:end] if end >= 0 else ""
    return near if end >= 0 and len(re.findall(r"[\w'-]+", near)) <= BETWEEN else None


def _modifiers(noun: str, head: str) -> list[str]:
    """The words of ``noun`` that modify its head from before it ('wireless retail' of 'wireless retail
    connections'), at most three."""
    return [w for w in noun.split() if w != head and w not in POSTPOSITIVE][:3]


def _modified_first(written: list[str], sentence: str, noun: str, head: str) -> list[str]:
    """The counts of ``head`` a sentence prints, those whose words before the head hold the noun's modifiers
    first ('345 production aircraft' before '141 aircraft' when production aircraft are counted)."""
    modifiers = _modifiers(noun, head)
    if not modifiers or len(written) < 2:
        return written
    return sorted(written, key=lambda w: not _modified(sentence, w, head, modifiers))


def qualified(counts: list[Candidate], qualifiers: tuple[str, ...], noun: str = "") -> list[Candidate]:
    """Of the count sentences, those whose count's own clause (its figure to the next figure or the sentence's
    end) names the most of ``qualifiers``: 'approximately 3,700 employees ... in North America were covered by
    collective bargaining agreements'; or a figure the sentence goes on to give for a part of the count without
    repeating its noun ('92,000 people ..., with approximately 37,000 employed in the United States'), never a
    figure that counts another noun ('564 in the United States located in 46 states': ``noun`` the counted); all
    of them when none names any."""
    if not qualifiers:
        return counts
    wanted = {_singular(q) for q in qualifiers}
    models = {q for q in wanted if DESIGNATOR_RE.fullmatch(q)}  # 'f35' of 'how many F-35 aircraft'
    scored = []
    for cand in counts:
        start = cand.label.find(cand.figures[0].written)
        for fig in [f for f in _from_count(cand) if not f.percent and not MONEY_RE.search(
                f.written)][:4]:  # '4.9 million shares ... for $650 million': an amount counts nothing
            if _counts_another(cand.label[max(start, 0):], fig.written, noun) or \
                    _another_model(cand.label[max(start, 0):], fig.written, noun, models):
                continue
            scored.append((clause_names(cand.label, fig.written, wanted, max(start, 0)), replace(cand, figures=(fig,))))
    best = max((n for n, _ in scored), default=0)
    kept = {(c.page_index, c.label, c.figures[0].written): c for n, c in scored if n == best}
    return list(kept.values()) if best else counts


def _from_count(cand: Candidate) -> list[Figure]:
    """The sentence's figures from its count on, read in the whole sentence (cut at the count, '22 C-130J
    aircraft' would open with a figure before a capital: a list's number)."""
    figs = text_figures(cand.label)
    first = next((i for i, f in enumerate(figs) if f.written == cand.figures[0].written), None)
    return figs[first:] if first is not None else text_figures(cand.label[max(cand.label.find(
        cand.figures[0].written), 0):])


NOT_PLURALS = frozenset({"is", "was", "has", "does", "as", "us", "its", "this", "thus", "plus", "across", "less",
                        "unless", "whereas", "perhaps"})


def _counts_another(text: str, written: str, noun: str) -> bool:
    """The figure ``written`` is followed by a plural noun other than the counted ``noun``'s head ('46 states'
    when warehouses are counted), the head not among the few words after it ('115 million wireless retail
    connections' counts connections): a count of that noun."""
    head = noun_parts(noun)[0] if noun else ""
    after = text[text.find(written) + len(written):] if head and written in text else ""
    m = re.match(r"\s+([a-z]+s)\b", after)
    heads = [_singular(w) for w in re.findall(r"[a-z]+", after.lower())[:BETWEEN + 1]]
    return m is not None and m.group(1) not in NOT_PLURALS and _singular(head) not in heads


def _another_model(text: str, written: str, noun: str, models: set[str]) -> bool:
    """The figure ``written`` counts a model other than those asked (``models``: '22 C-130J aircraft' when F-35
    aircraft are counted): a model's name among the words between it and the counted noun's head, none asked."""
    head = noun_parts(noun)[0] if noun else ""
    if not models or not head or written not in text:
        return False
    near = _up_to_head(text.lower(), text.find(written) + len(written), head) or ""
    named = {d.replace("-", "") for d in MODEL_RE.findall(near)}
    return bool(named) and not named & models
