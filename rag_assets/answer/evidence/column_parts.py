"""Which column of a table is a part of the company's, when a table prints its parts as columns: a segment note
'Optical Communications | Display Technologies | ... | Total' over rows 'Segment net sales 5,023 3,306 ... 14,805'.

The names come either as a header row of cells ('| | Activision | | Blizzard | | King | | Total |'), one name a
cell, or as lines of text above the table, which a PDF's text layer often leaves there: one name a line, or
several on a line ('Environmental Technologies Life Sciences'). A line holding several names is split only where
that is sure: at the part's own name, at 'Total', into single words when that gives one name a figure, or by
counting from the end whose names are sure."""

from __future__ import annotations

import re

from rag_assets.answer.question.metric_library import fold
from rag_assets.answer.question.regions import adjective_of

HEADER_LINES = 8  # the names sit among the last lines above the table
NAME_LINE_CHARS = 100
CONNECTORS = frozenset({"and", "of", "&", "the"})
# a line of names: words in capitals (or connectors), footnote marks allowed ('Hemlock and Emerging Growth
# Businesses (1) Total'); no figure, no lower-case sentence
NAME_LINE_RE = re.compile(r"^[A-Z][\w.&'’-]*,?(?:\s+(?:[A-Z][\w.&'’-]*,?|and|of|&|the|\(\d{1,2}\)|\*+))*$")
TOTAL_WORDS = frozenset({"total", "consolidated"})


def name_lines(before: str) -> tuple[str, ...]:
    """The last lines above a table, each a line of names or '' (any other line: a sentence, a heading, a
    figure, a table row), so that runs of name lines stay apart."""
    lines = [YEAR_START_RE.sub("", YEAR_END_RE.sub("", ln.strip())) for ln in before.splitlines() if ln.strip()]
    lines = lines[-HEADER_LINES:]
    return tuple(ln if len(ln) <= NAME_LINE_CHARS and NAME_LINE_RE.match(ln) and not ln.startswith("#") else ""
                 for ln in lines)


# the year of the block of columns, printed after the last column's name ('... Operations Total 2021')
YEAR_END_RE = re.compile(r"(?:(?<=\bTotal)|(?<=\bTOTAL)|(?<=\bConsolidated)|(?<=\bCONSOLIDATED))\s+((?:19|20)\d\d)$")
# or printed before the first name ('2022 Consumer Business' over a block of the year's columns)
YEAR_START_RE = re.compile(r"^((?:19|20)\d\d)\s+(?=[A-Z])")


# the fiscal year a line heading a table of parts ends with ('segment information for the year ended December
# 31, 2016 :As of/Year ended December 31, 2016')
YEAR_ENDED_RE = re.compile(r"\b(?:years?|twelve\s+months)\s+ended\s+[A-Z][a-z]+\.?\s+\d{1,2},?\s+((?:19|20)\d\d)\s*:?$",
                           re.I)
SCALE_LINE_RE = re.compile(r"^\((?:in|dollars\s+in|amounts\s+in)\s+[a-z ,]+\)$", re.I)  # '(in thousands)'


def names_year(before: str) -> str:
    """The year of the columns of parts below: the one the last line of names above a table ends or opens with
    ('Other International Operations Total 2021', '2022 Consumer Business') or that stands on a line of its own
    below it, or else the fiscal year the line above two lines of names or more ends with ('Year ended December
    31, 2016' / 'Domestic Streaming' / 'International Streaming'); '' when neither."""
    lines = [ln.strip() for ln in before.splitlines() if ln.strip()][-HEADER_LINES:]
    for at in range(len(lines) - 1, len(lines) - 3, -1):  # the last line of names or the one above it
        line = lines[at] if at >= 0 else ""
        m = YEAR_END_RE.search(line) or YEAR_START_RE.search(line)
        if m and NAME_LINE_RE.match(YEAR_START_RE.sub("", YEAR_END_RE.sub("", line))):
            return m.group(1)  # opens or ends with the year ('2022 Consumer Business')
        if at > 0 and re.fullmatch(r"(?:19|20)\d\d", line) and NAME_LINE_RE.match(lines[at - 1]):
            return line  # a year's line of its own below the names
    while lines and SCALE_LINE_RE.match(lines[-1]):
        lines.pop()
    names = 0
    while lines and NAME_LINE_RE.match(lines[-1]) and len(lines[-1]) <= NAME_LINE_CHARS:
        lines, names = lines[:-1], names + 1
    m = YEAR_ENDED_RE.search(lines[-1]) if lines and names >= 2 else None
    return m.group(1) if m else ""


def cell_names(cells: list[str]) -> tuple[str, ...]:
    """A header row's column names ('| | Activision | | Blizzard | | King | | Total |'), or () when the row is
    none: two names or more, each a name (capitals, no figure), the first cell a label or empty."""
    named = [c.strip() for c in cells if c.strip()]
    if len(named) < 2 or not all(NAME_LINE_RE.match(c) and len(c) <= 60 for c in named):
        return ()
    return tuple(named)


def part_column(names: tuple[str, ...], lines: tuple[str, ...], part: str, count: int) -> int | None:
    """The index among a row's ``count`` figures of the column of ``part`` (folded, as the question names it),
    from the header row's ``names`` (one a figure) or else the name ``lines`` above the table; None when neither
    names the part or the columns cannot be told apart surely."""
    wanted = part.split()
    if names:
        folded = [fold(n).split() for n in names]
        if len(folded) == count + 1:
            folded = folded[1:]  # the row label's column heading ('(in millions)', 'Segment')
        hits = [i for i, n in enumerate(folded) if _is_part(n, wanted)]
        return hits[0] if hits and len(folded) == count else None
    wanted = _as_printed(lines, wanted)
    runs = _runs(lines, wanted)
    for run in sorted(runs, key=len):  # one name a figure, the part's own line first
        at = _exact([fold(ln).split() for ln in run], wanted, count)
        if at is not None:
            return at
    for read in (_a_name_a_line, _counted):  # fewer names than columns: a name a line, else counted
        at = next((at for run in runs if (at := read([fold(ln).split() for ln in run], wanted, count)) is not None),
                  None)
        if at is not None:
            return at
    return None


def _a_name_a_line(lines: list[list[str]], wanted: list[str], count: int) -> int | None:
    """Names a line each, then the rest on one last line ending with the total ('Europe, Middle East & Africa' /
    'Latin America' / 'North America' / 'Asia Pacific' / 'Bottling Investments Corporate Eliminations
    Consolidated': a header whose wrapped names the text layer printed a line each, its one-line names
    together): the part's own line is its column, when the last line has words enough for the columns left."""
    last = [t for t in lines[-1] if t not in CONNECTORS] if lines else []
    left = count - (len(lines) - 1)  # the names the last line must hold
    if len(lines) < 3 or not last or last[-1] not in TOTAL_WORDS or len(last) < left or left < 2:
        return None
    at = next((i for i, ln in enumerate(lines[:-1]) if _is_part(ln, wanted)), None)
    own = [t for t in wanted if t not in CONNECTORS]
    where = _find(last, own)
    if at is None and where is not None and len(last) - len(own) + 1 == left:  # the others a word each
        at = len(lines) - 1 + where
    return at


def _is_part(tokens: list[str], wanted: list[str]) -> bool:
    tokens = [t for t in tokens if t not in {"segment", "segments", "operations"}]  # 'Canadian Operations'
    wanted = [t for t in wanted if t != "operations"]
    return tokens == wanted or tokens[-len(wanted):] == wanted and tokens[0] in TOTAL_WORDS or \
        adjective_of(" ".join(tokens), " ".join(wanted))


def _runs(lines: tuple[str, ...], wanted: list[str]) -> list[tuple[str, ...]]:
    """The run of consecutive name lines holding the part's name, then the part's line alone; or, where the name
    is broken across lines, the run as one line."""
    out = []
    start = 0
    for end in range(len(lines) + 1):
        if end == len(lines) or not lines[end]:
            run = lines[start:end]
            hit = [ln for ln in run if _find(fold(ln).split(), wanted) is not None]
            if hit:
                out += [run] + ([(hit[0],)] if len(run) > 1 else [])
            elif _find(fold(" ".join(run)).split(), wanted) is not None:
                out.append((" ".join(run),))  # a name broken across lines ('Display' / 'Technologies ...')
            start = end + 1
    return out


def _as_printed(lines: tuple[str, ...], wanted: list[str]) -> list[str]:
    """The part's name as the name lines print it: ``wanted`` (with the 'operations' after it), or where only its
    adjective is printed, that adjective with the 'operations' after it ('canada' -> 'canadian operations')."""
    for line in lines:
        tokens = fold(line).split()
        if (at := _find(tokens, wanted)) is not None:  # 'Other International Operations': with its noun
            after = tokens[at + len(wanted):at + len(wanted) + 1]
            return wanted + after if after == ["operations"] else wanted
    for line in lines:
        tokens = fold(line).split()
        n = len(wanted)
        for i in range(len(tokens) - n + 1):
            if tokens[i:i + n - 1] == wanted[:-1] and adjective_of(tokens[i + n - 1], wanted[-1]):
                return tokens[i:i + n + (tokens[i + n:i + n + 1] == ["operations"])]
    return wanted


def _find(tokens: list[str], wanted: list[str]) -> int | None:
    n = len(wanted)
    return next((i for i in range(len(tokens) - n + 1) if tokens[i:i + n] == wanted), None)


def _pieces(tokens: list[str], wanted: list[str]) -> list[tuple[list[str], bool]]:
    """A line's tokens cut at the part's name and at a total's word: (tokens, is the part) in order."""
    out, piece, i = [], [], 0
    while i < len(tokens):
        if tokens[i:i + len(wanted)] == wanted or tokens[i] in TOTAL_WORDS:
            size = len(wanted) if tokens[i:i + len(wanted)] == wanted else 1
            if piece:
                out.append((piece, False))
            out.append((tokens[i:i + size], size == len(wanted) and tokens[i:i + size] == wanted))
            piece, i = [], i + size
        else:
            piece.append(tokens[i])
            i += 1
    return out + ([(piece, False)] if piece else [])


def _exact(lines: list[list[str]], wanted: list[str], count: int) -> int | None:
    """The part's column when the names are ``count``: the pieces of the lines (cut at the part and 'Total'), or
    else every word a name."""
    pieces = [p for ln in lines for p in _pieces(ln, wanted)]
    words = [w for p, is_part in pieces for w in ([" ".join(p)] if is_part else [t for t in p if t not in CONNECTORS])]
    for flags in ([is_part for _, is_part in pieces], [w == " ".join(wanted) for w in words],
                  [is_part for _, is_part in _totals_named(pieces)]):
        if len(flags) == count and any(flags):
            return flags.index(True)
    return None


def _totals_named(pieces: list[tuple[list[str], bool]]) -> list[tuple[list[str], bool]]:
    """``pieces`` with the words after a total's word on its line read as that total's name ('Total Reportable
    Segments': one column): tried only when the pieces as cut do not count the columns."""
    out: list[tuple[list[str], bool]] = []
    for piece, is_part in pieces:
        if out and not is_part and len(out[-1][0]) == 1 and out[-1][0][0] in TOTAL_WORDS:
            out[-1] = (out[-1][0] + piece, False)
        else:
            out.append((piece, is_part))
    return out


def _counted(lines: list[list[str]], wanted: list[str], count: int) -> int | None:
    """Fewer pieces than columns: the part's column counted from the start, when every piece before it is one
    name (two words or fewer) and a piece after it may hold two (three words or more), or from the end the
    other way round; else None."""
    pieces = [p for ln in lines for p in _pieces(ln, wanted)]
    flags = [is_part for _, is_part in pieces]
    if not any(flags) or len(pieces) >= count:
        return None
    first = flags.index(True)
    before, after = [p for p, _ in pieces[:first]], [p for p, _ in pieces[first + 1:]]
    if all(map(_one_name, before)) and not all(map(_one_name, after)):
        return first
    if all(map(_one_name, after)) and not all(map(_one_name, before)):
        return count - (len(pieces) - first)
    return None


def _one_name(tokens: list[str]) -> bool:
    return len([t for t in tokens if t not in CONNECTORS]) <= 2
