"""A part within a part: a region of one of the segments the filing names ("J&J's U.S. Pharmaceutical sales",
"international MedTech sales", "the Consumer Health segment's sales outside the U.S."). The question's reader
reads one part from its words ('us pharmaceutical', 'international'); where the question also writes a part its
filing names ('Pharmaceutical') and the rest of what was read is a region, the figure is the region's row in that
part's block of rows ('pharmaceutical > us'), never the company's region nor the segment's total. A filing's
part named by a region's adjective ('Canadian') is that region ('canada'), not a region within it."""

from __future__ import annotations

from dataclasses import replace

from rag_assets.answer.question.criteria import Criterion
from rag_assets.answer.question.formulas import NESTED_SEP, PARTS_SEP, Node, items_of, substitute
from rag_assets.answer.question.metric_library import Library, fold
from rag_assets.answer.question.regions import place_of


def nested_part(read: str, filing_part: str, library: Library) -> str:
    """'outer > region' when the part ``read`` is a region, or a region and the words of ``filing_part`` (the
    filing's part the question writes); '' otherwise (the same part, several parts, or not a region)."""
    outer = fold(filing_part)
    if not read or not outer or read == outer or PARTS_SEP in read or NESTED_SEP in read or \
            place_of(outer, library.regions) == read or _complements(read, outer, library):
        return ""  # 'Canadian' the filing's part, 'canada' read: one part; 'outside the United States': its complement
    words = read.split()
    named = outer.split()
    for at in range(len(words) - len(named) + 1):
        if words[at:at + len(named)] == named:
            words = words[:at] + words[at + len(named):]
            break
    rest = " ".join(words)
    return f"{outer}{NESTED_SEP}{rest}" if rest and is_region(rest, library) else ""


def _complements(read: str, outer: str, library: Library) -> bool:
    """One part is the whole less the other (``complements``: 'international' of 'united states'), never within it."""
    return any(a == read and outer in b or a == outer and read in b for a, b in library.complements)


def is_region(name: str, library: Library) -> bool:
    """A region of the library or one a complement names ('united states', 'u s', 'international')."""
    known = set(library.regions) | {p for p, _ in library.complements} | \
        {r for _, rs in library.complements for r in rs} | {r for _, r in library.region_names}
    return name.replace(" ", "") in {k.replace(" ", "") for k in known}


def with_part(node: Node, read: str, part: str) -> Node:
    """``node`` with each item of the part ``read`` made ``part``'s."""
    return substitute(node, {i: replace(i, part=part) for i in items_of(node) if i.part == read})


def criterion_with_part(c: Criterion, read: str, part: str) -> Criterion:
    """The criterion ``c`` with each of its figures of the part ``read`` made ``part``'s."""
    return replace(c, now=with_part(c.now, read, part),
                   before=with_part(c.before, read, part) if c.before is not None else None,
                   each=tuple(criterion_with_part(one, read, part) for one in c.each))
