"""What part of the company a phrase names: a segment, division or business by the name the filing prints ('the
Aeronautics segment', "Globex's Cloud division", 'its snacks business'), or a region of the library
('international sales', 'revenue in Europe'). A figure of a part is read from the rows the filing prints for it
(``evidence.operands``), never from the company's totals; a part word with no name ('by segment', 'which
segment') names none, and such a question is still refused."""

from __future__ import annotations

import re

from rag_assets.answer.question.formulas import PARTS_SEP
from rag_assets.answer.question.metric_library import SEGMENT_WORD_RE, Library, fold
from rag_assets.answer.question.regions import place_after_in, place_of, us_initials

NAME_WORD = r"(?:(?<![\w'’])(?!(?:FY|CY|Q[1-4]|H[12])['’]?\d)[A-Z][\w.&'’-]*|&)"  # a name's word; 'FY2022' and 'Q4' date, not name
LOWER_WORD = r"(?:[a-z][\w&-]*|[A-Z]{2,5}(?![\w'’]))"  # a word of a part named in lower case, or an acronym ('DVD')
# words that open a question or qualify a part without naming it ('What segment', 'each segment', 'its largest')
NOT_NAME_WORDS = frozenset({"what", "which", "how", "why", "each", "every", "all", "any", "total", "our", "its",
                            "their", "the", "a", "an", "in", "for", "of", "and", "company", "companys", "consolidated",
                            "other", "reportable", "operating", "business", "that", "this", "these", "largest",
                            "smallest", "biggest", "main", "primary", "core", "new", "one", "two", "three", "per",
                            "did", "does", "was", "were", "is", "are", "by", "s", "pretax", "net", "gross",
                            "combined", "aggregate", "cumulative"})
# of ``NOT_NAME_WORDS``, those that open or qualify a question even capitalized; another one capitalized alone
# before the part noun is the part's name ('Business segment', 'Operating segment' as a filing prints them)
OPENING_WORDS = frozenset({"what", "which", "how", "why", "each", "every", "all", "any", "total", "our", "its",
                           "their", "the", "a", "an", "this", "that", "these", "did", "does", "was", "were", "is",
                           "are", "in", "for", "of", "by", "per", "s"})
LEAD_RE = re.compile(r"(?:\b(?:of|for|from|in|at|by|within|across)\s+)?(?:\b(?:the|its|their)\s+)?$", re.I)
OWNER_BEFORE_RE = re.compile(r"(?<!\S)\S*\w['’]s?\s+$")  # a possessive word right before a part's name: its owner


def alternation(names: tuple[str, ...]) -> str:
    """The names as one pattern, longest first; 'europe middle east and africa' as 'Europe, Middle East & Africa'."""
    return "|".join(re.escape(n).replace(r"\ and\ ", r"[\s,]+(?:and|&)\s+").replace(r"\ ", r"[\s,]+")
                    for n in sorted(names, key=len, reverse=True))


def read_part(text: str, library: Library) -> tuple[str, str]:
    """(the part ``text`` names, ``text`` without the words that name it), or ('', ``text``). A capitalized name
    before a part noun first ('Lockheed Martin's Aeronautics segment' -> 'Aeronautics'), then lower-case words
    between a determiner and the noun ('the snacks division'), then a region of the library ('international
    sales', 'in Greater China'). A region named by its adjective is the region ('its Canadian operations')."""
    name, rest = _read_part(text, library)
    for noun in library.place_nouns:  # 'Canadian Operations', 'Canadian operations': the part 'canada'
        name = re.sub(rf"(?<=\w)\s+{re.escape(noun)}$", "", name)
    return PARTS_SEP.join(place_of(n, library.regions) for n in name.split(PARTS_SEP)) if name else name, rest


def _read_part(text: str, library: Library) -> tuple[str, str]:
    if not library.part_nouns:
        return "", text
    noun = rf"(?:{alternation(library.part_nouns)})s?(?:['’]s?)?(?!\w)"
    named_noun = rf"(?:{alternation(library.part_nouns + library.place_nouns)})s?(?:['’]s?)?(?!\w)"
    patterns = (rf"(?:\b(?:the|its|their)|['’]s)\s+(?P<name>{LOWER_WORD}(?:\s+{LOWER_WORD}){{0,2}})\s+{noun}",
                rf"(?P<name>{NAME_WORD}(?:,?\s+(?:{NAME_WORD}|and|of))*)\s+{named_noun}")
    for pattern in patterns:
        for m in re.finditer(pattern, text):
            name = _names(m.group("name"), m.group(0)[m.end("name") - m.start():])
            if name and not _noun_goes_on(text[m.end():], library) and not _no_part(text[:m.end()], library):
                return name, _without(text, _owner_start(text, m), m.end())
    named = _owned_name(text, library)
    if named:
        return named
    named = region_named_otherwise(text, library) or _in_the_us(text)
    if named:
        return named
    if library.regions:
        m = re.search(rf"(?<![\w-])(?P<name>{alternation(library.regions)})(?![\w-])(?!\s+dollars?\b)", text, re.I)
        if m:
            start, end = _capital_run(text, m.start(), m.end(), library)
            end = _noun_run(text, end, library)
            name = _run_name(text[start:end]) or fold(m.group("name"))
            if library.place_nouns and (after := re.match(rf"\s+(?:{alternation(library.place_nouns)})\b",
                                                          text[end:], re.I)):
                end += after.end()  # 'its international operations'
            return name, _without(text, start, end)
    place = place_after_in(text)  # 'revenue in Brazil': a part whether or not the filing prints it
    return (place[2], _without(text, place[0], place[1])) if place else ("", text)


def region_named_otherwise(text: str, library: Library) -> tuple[str, str] | None:
    """A region written in other words ('revenue outside the US': the international part), with ``text`` without
    them; None when none is."""
    names = dict(library.region_names)
    if not names:
        return None
    loose = "|".join(re.escape(n).replace(r"\ ", r"[\s-]+") for n in sorted(names, key=len, reverse=True))
    m = re.search(rf"(?<![\w-])(?:{loose})(?![\w-])", text, re.I)
    return (names[fold(m.group(0))], _without(text, m.start(), m.end())) if m else None


def _in_the_us(text: str) -> tuple[str, str] | None:
    span = us_initials(text)
    return ("us", _without(text, *span)) if span else None


def _noun_run(text: str, end: int, library: Library) -> int:
    """Where a region's part name ends when lower-case words between it and the item name the part with it
    ('domestic streaming revenues' -> 'domestic streaming', 'international DVD revenues'): the words (two at
    most, none an item, a metric or a question's word) when an item or metric of the library follows them, or
    the clause ends there ('what share of revenue came from international streaming')."""
    for k in (1, 2):
        m = re.match(rf"(?:\s+(?![A-Z][a-z])[\w&-]+){{{k}}}", text[end:])
        if m is None:
            return end
        words = fold(m.group(0)).split()
        if any(w in NOT_NAME_WORDS or w in NOT_PART_WORDS or library.item_in(w) or library.metric_in(w) or
               re.search(r"\d", w) for w in words):
            return end
        if starts_named(text[end + m.end():], library) or CLAUSE_END_RE.match(text[end + m.end():]):
            return end + m.end()
    return end


# where the words after a region end what is asked: 'what share of revenue came from international streaming?'
CLAUSE_END_RE = re.compile(r"\s*(?:[?.;]|,\s+in\b|$|(?:in|during|for)\s+(?:fiscal\s+|FY\s?)?(?:19|20)\d\d\b)", re.I)


def named_part(words: str, library: Library) -> str:
    """The part ``words`` name when they are a name alone, capitalized ('Space', 'the Cloud Services', 'its
    Snacks'), not an item, a metric or a period; '' otherwise ('interest income', 'Q2 sales', 'Revenue')."""
    words = re.sub(r"^\s*(?:the|its|their)\s+", "", words.strip(), flags=re.I)
    named = re.fullmatch(rf"{NAME_WORD}(?:\s+(?:{NAME_WORD}|and|of))*", words) and _may_name(words, library)
    return _name(words) if named else ""


def _may_name(run: str, library: Library) -> bool:
    """A capitalized run may name a part: no figure, possessive, period word, item or metric in it."""
    return not (re.search(r"\d|['\u2019]", run) or library.item_in(run) or library.metric_in(run) or
                any(w in NOT_PART_WORDS for w in fold(run).split())) and bool(_name(run))


def leading_part(words: str, library: Library) -> tuple[str, str]:
    """('cloud services', 'revenue') for 'Cloud Services revenue': a capitalized part's name before the name of an
    item or metric of the library, and the words after it; ('', ``words``) when they do not begin so."""
    for run, rest in name_runs(re.sub(r"^\s*(?:the|its|their)\s+", "", words, flags=re.I), library):
        if starts_named(rest, library):
            return _name(run), rest
    return "", words


def name_runs(after: str, library: Library):
    """Each capitalized run that ``after`` begins with (one word, two, ...) that may name a part, with the words
    after it; none once a run holds a figure, a period word, an item or a metric."""
    m = re.match(rf"(?P<run>{NAME_WORD})\s+(?P<rest>\S.*)$", after, re.S)
    while m:
        run, rest = m.group("run"), m.group("rest")
        if not _may_name(run, library):
            return
        if not re.fullmatch(r"and|of", run.split()[-1]):
            yield run, rest
        m = re.match(rf"(?P<run>{re.escape(run)}\s+(?:{NAME_WORD}|and|of))\s+(?P<rest>\S.*)$", after, re.S)


def _capital_run(text: str, start: int, end: int, library: Library) -> tuple[int, int]:
    """The run of capitalized words around a region's name in ``text`` (the printed name the region is part of:
    'Other International Operations', 'United States Operations'), not past a company's possessive, a figure
    ('Q2') or an item's or metric's name ('EBIT')."""
    def name_word(word: str) -> bool:
        return not re.search(r"\d|['’]s?$", word) and not library.item_in(word) and not library.metric_in(word)

    while (m := re.search(r"(?:^|\s)([A-Z][\w.&-]*)\s+$", text[:start])) and name_word(m.group(1)):
        start = m.start(1)
    while (m := re.match(r"\s+([A-Z][\w.&-]*s)['’](?!\w)|\s+([A-Z][\w.&-]*)(?![\w'’])", text[end:])) and \
            name_word(m.group(1) or m.group(2)):
        end += m.end()  # 'the Canadian Operations' total revenue': the part's own possessive ends it
    return start, end


def _run_name(words: str) -> str:
    """A capitalized run folded as a part's name, without the question's words that open it ('What'); 'Other'
    stays, as the filing prints it ('Other International Operations')."""
    kept = fold(words).split()
    while kept and kept[0] in NOT_NAME_WORDS - {"other"}:
        kept.pop(0)
    return " ".join(kept)


# a period written between the owner and its part's name ("J&J's Q2-2023 Consumer Health", "its fiscal 2022 Snacks")
WHEN_WORD = r"(?:[\w-]*\d[\w'’-]*|(?:first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal[\s-]+)?quarter|fiscal)"
OWNED_RE = re.compile(rf"(?:['’]s|\b(?:its|their))\s+(?:(?P<when>{WHEN_WORD}(?:\s+{WHEN_WORD})*)\s+)?"
                      rf"(?P<name>{NAME_WORD}(?:,?\s+(?:{NAME_WORD}|and|of))*)(?P<after>.*)$", re.S)
PERIOD_OR_END_RE = re.compile(r"^\s*(?:$|[?.,;)]|(?:in|for|during|at|as\s+of|over|from|between)\s+(?:the\s+)?(?:fiscal\s+|fy\s?|"
                              r"q[1-4]\b|first|second|third|fourth|\d{4}|(?:quarter|three|six|nine|twelve|half|year|"
                              r"period|\d{1,2}\s+(?:weeks|months))\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                              r"\w*\.?\s+\d))", re.I)  # 'in the quarter ended June 30, 2023', 'as of June 30'


def _owned_name(text: str, library: Library) -> tuple[str, str] | None:
    """A capitalized name after the company's possessive (or 'its') that is not itself an item, a metric or a period: a
    part of the company ("Globex's Cloud Services revenue": before an item or metric of the library; "the margin
    of Globex's Cloud Services in 2021": after a preposition, before the period or the end)."""
    for m in OWNED_RE.finditer(text):
        words = m.group("name")
        name = _name(words)
        if not name or re.search(r"\d", words) or library.item_in(words) or library.metric_in(words) or \
                any(w in fold(words).split() for w in NOT_PART_WORDS):
            continue
        after = m.group("after")
        starts_item = re.match(r"\s+\S", after) and starts_named(after, library)
        owned_after_preposition = re.search(r"\b(?:of|for|from|at|in|by)(?:\s+[\w&.-]+)*\s*$",
                                            text[:m.start()]) is not None
        bare = not re.sub(r"(?:[A-Z][\w.&-]*\s*)*$", "", text[:m.start()]).strip()  # 'its Cloud Services' alone
        if starts_item or (owned_after_preposition or bare) and PERIOD_OR_END_RE.match(after):
            owner = re.search(r"(?:[A-Z][\w.&-]*\s+(?:&\s+)?)*[A-Z][\w.&-]*$", text[:m.start()])
            end = m.end("name")  # the period stays, after the name: 'What was Q2-2023 worldwide sales growth'
            kept = f"{text[:end]} {m.group('when')}{text[end:]}" if m.group("when") else text
            return name, _without(kept, owner.start() if owner else m.start("name"), end)
    return None


# words of a period or of the whole company: a capitalized run holding one is no part ("3M's Fiscal 2019", "Total")
NOT_PART_WORDS = ("fiscal", "fy", "quarter", "year", "annual", "total", "consolidated", "adjusted", "gaap", "net")


def _noun_goes_on(after: str, library: Library) -> bool:
    """The part noun is a word of a longer noun ("worldwide unit case volume"): two words continue it, the first
    opening no name of an item or metric ('the Cloud unit operating income' is the part's; 'segment post a loss'
    goes on with a verb)."""
    nxt = re.match(r"\s+([a-z][\w-]*)\s+([a-z][\w-]*)", after)  # two nouns go on: a verb after it is no noun
    return bool(nxt) and all(CONTINUES_RE.match(w) and w not in NOT_NAME_WORDS for w in nxt.groups()) and \
        not _opens_a_name(nxt.group(1), library) and not _ends_a_name(after, library)


def _ends_a_name(after: str, library: Library) -> bool:
    """The nouns after a part noun run to the first or last word of an item's or metric's name ('the Consumer
    segment wireless service revenue', 'the Pet segment pet food net sales'): the part's figure, not a longer
    noun."""
    run = re.match(r"(?:\s+[a-z][\w-]*){1,4}", after)
    words = run.group(0).split() if run else []
    heads = {n.split()[-1] for spec in library.items.values() for n in spec.names} | \
        {n.split()[-1] for m in library.metrics for n in m.names}
    for word in words:
        if not CONTINUES_RE.match(word):
            return False
        if word in heads or _opens_a_name(word, library):
            return True
    return False


def _no_part(text: str, library: Library) -> bool:
    """``text`` ends in a noun that ends in a part noun and names no part ('restricted share units')."""
    return bool(library.not_parts) and re.search(rf"\b(?:{alternation(library.not_parts)})s?(?:['’]s?)?$",
                                                  fold(text)) is not None


def _opens_a_name(word: str, library: Library) -> bool:
    """``word`` is the first word of a name of an item or metric of the library ('operating', 'net', 'revenue')."""
    names = [n for spec in library.items.values() for n in spec.names] + [n for m in library.metrics for n in m.names]
    return any(n.split()[0] == word for n in names)


def starts_named(after: str, library: Library) -> bool:
    """The words after a name begin with the name of an item or metric of the library ('net sales', 'revenues',
    'operating profit margin') or with a margin or profit of any name ('contribution profit'), whole: 'fee
    revenue' does not ('Membership fee revenue' is one printed item), nor does a name that more nouns continue
    ('Common equity Tier 1 capital ratio' is one printed ratio, not the 'equity' of a part named 'Common')."""
    words = fold(SEGMENT_WORD_RE.sub("", after)).split()  # 'pretax segment income': the part's pretax income
    while words[1:] and words[0] in WHOLE_OF_PART_WORDS:
        words.pop(0)  # 'total net revenue', 'worldwide sales': all of the part's
    for k in range(min(7, len(words)), 0, -1):
        run = " ".join(words[:k])
        named = library.metric_is(run) or any(run in spec.names or run in spec.labels
                                              for spec in library.items.values())
        if named or k >= 2 and re.fullmatch(r"(?:operating\s+)?(?:profit\s+)?margin|\w+\s+(?:margin|profit)", run):
            return k == len(words) or CONTINUES_RE.match(words[k]) is None
    return False


WHOLE_OF_PART_WORDS = ("total", "worldwide", "global")
# a word after an item's name that continues the name (a longer printed item), not a period, a clause or a verb
CONTINUES_RE = re.compile(r"(?!(?:in|for|during|at|as|of|over|from|between|to|and|or|than|per|on|by|with|was|were|is|"
                          r"are|did|does|has|have|had|margin|margins|growth|change|increase|decrease|rate|share|"
                          r"percentage|percent|compared|versus|vs|ratio)$)[a-z]+$")


def _owner_start(text: str, m: re.Match) -> int:
    """Where the words naming a part matched by ``m`` begin with their owner's possessive ("Netflix's domestic DVD
    segment", "EBIT of Nike's Greater China", "the margin of 3M's Health Care segment"), else where they start."""
    if re.match(r"['’]s\b", text[m.start():]):
        owner = re.search(rf"{NAME_WORD}(?:\s+{NAME_WORD})*$", text[:m.start()])
        return owner.start() if owner else m.start()
    owner = OWNER_BEFORE_RE.search(text[:m.start()])
    return owner.start() if owner else m.start() + _owner_at(m.group("name"))


def _owner_at(words: str) -> int:
    """Where the words naming a part begin in a capitalized run that holds the company's possessive after other
    words: at the company's name ('EBIT of Nike's Greater China' -> "Nike's Greater China"; 'Lockheed Martin's
    Aeronautics' -> all of it). 0 when the run holds no possessive."""
    tokens = list(re.finditer(r"\S+", words))
    owned = [i for i, t in enumerate(tokens) if re.search(r"['’]s?$", t.group())]
    if not owned:
        return 0
    k = owned[-1]
    while k > 0 and tokens[k - 1].group() not in ("of", "and") and \
            (tokens[k - 1].group()[:1].isupper() or tokens[k - 1].group() == "&"):
        k -= 1
    return tokens[k].start()


def _names(words: str, noun: str) -> str:
    """The part ``words`` name before ``noun``; several, joined by ``PARTS_SEP``, where a plural noun follows
    names joined by 'and' ('Aeronautics and Space segments'; 'Safety and Industrial segment' is one, and so is
    "the Consumer & Community Banking segment's")."""
    if re.search(r"\w['’]s?$", words.strip()):  # "Globex's unit case volume": the owner, before a noun of its own
        return ""
    words = re.split(r"['’]s?\s+", words.strip())[-1]  # after the owner's possessive ('Johnson & Johnson's')
    if re.search(r"(?<!['’])s['’]?\s*$", noun.strip()) and re.search(r"\s(?:and|&)\s", words) and "," not in words:
        names = [_name(w) for w in re.split(r"\s+(?:and|&)\s+", words)]
        if all(names) and len(names) > 1:
            return PARTS_SEP.join(names)
    return _name(words)


def _name(words: str) -> str:
    """A part's name as folded for comparison with row labels: the words after the company's possessive, without
    the question's words around it ('What', 'its largest'); '' when nothing names it."""
    words = re.sub(r"['’]s?$", "", re.split(r"['’]s?\s+", words.strip())[-1])  # "Operations's": its possessive
    if re.match(r"Other\s+[A-Z]", words):  # 'Other International Operations': a name the filing prints
        return _run_name(words)
    if re.fullmatch(r"[A-Z][a-z]+", words) and fold(words) not in OPENING_WORDS:  # "Verizon's Business segment"
        return fold(words)
    kept = fold(words).split()
    while kept and kept[0] in NOT_NAME_WORDS:
        kept.pop(0)
    while kept and kept[-1] in ("and", "of"):
        kept.pop()
    return " ".join(kept)


def _without(text: str, start: int, end: int) -> str:
    """``text`` without [start, end) and the preposition and determiner just before it ('net sales of the')."""
    head = LEAD_RE.sub("", text[:start]).rstrip()
    return re.sub(r"\s+", " ", f"{head} {text[end:].lstrip()}").strip()
