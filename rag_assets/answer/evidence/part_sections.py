"""The parts of a company its report names (the names it calls segments or divisions: 'We operate in four business
segments: Aeronautics, Missiles and Fire Control (MFC), Rotary and Mission Systems (RMS) and Space', 'Our Space
business segment'), and whether a row or a sentence sits in one part's section of the report: the caption above
its table or its heading row is that part's name, opens with it as the owner ('RMS’ operating results') or ends
with it (a part's heading just above the table). Such a figure is the part's, never the whole company's."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.candidates import Candidate
from rag_assets.answer.evidence.rows import names_any, spells_out
from rag_assets.answer.evidence.table_blocks import without_note_mark

PART_NOUN = r"(?:business[ \t]+|reportable[ \t]+|operating[ \t]+)?(?:segment|division)s?\b"
WORD = r"(?:[A-Z](?:\.[A-Z])+\.?|[A-Z][\w&-]*)"  # 'Aeronautics', 'U.S.', 'MedTech', 'Asset & Wealth'
NAME = rf"{WORD}(?:,?[ \t]+(?:(?:and|&|of)[ \t]+)?{WORD}){{0,4}}"
NAMED_RE = re.compile(rf"\b({NAME})(?:['’]s?)?[ \t]+{PART_NOUN}")  # 'Our Space business segment', 'the MFC segment'
# 'four business segments: Aeronautics, Missiles and Fire Control (MFC), Rotary and Mission Systems (RMS) and Space'
LISTED_RE = re.compile(rf"\b{PART_NOUN}[ \t]*(?::|,|are|include)[ \t]+((?:{NAME}(?:[ \t]+\([A-Z]{{2,6}}\))?"
                       rf"(?:,[ \t]+|,?[ \t]+and[ \t]+))+(?:{NAME})(?:[ \t]+\([A-Z]{{2,6}}\))?)")
# the same list when its names hold commas, so semicolons part them, after a noun said of what ('The reportable
# operating segments for the Widget Brand are: North America; Europe, Middle East & Africa (EMEA); and Asia Pacific')
QUALIFIER = rf"(?:[ \t]+(?:for|of)[ \t]+(?:the[ \t]+)?{NAME})?"
ITEM = r"[A-Z][^;:.\n()]{1,60}?(?:[ \t]+\([A-Z]{2,6}\))?"
SEMICOLON_LISTED_RE = re.compile(rf"\b{PART_NOUN}{QUALIFIER}[ \t]*(?::|are:?|include:?)[ \t]+((?:{ITEM};[ \t]+)+"
                                 rf"(?:and[ \t]+)?{ITEM})(?=[.,;]|[ \t]+and\b|\s*$)")
NOT_NAMES = frozenset("our the its their each every all other reportable operating business company four three two "
                      "five six this these those we in of for total consolidated when pretax geographic affected "
                      "firm and segment segments adjusted lower higher a an such certain both non-reportable".split())


def report_parts(texts) -> tuple[str, ...]:
    """The names ``texts`` (a report's pages) call its segments or divisions, and the acronyms it writes for
    them ('Missiles and Fire Control (MFC)'), each once, in the order first named."""
    found: list[str] = []
    for text in texts:
        for m in LISTED_RE.finditer(text):
            found += re.split(r",[ \t]+(?:and[ \t]+)?|[ \t]+\(|\)(?:,?[ \t]+and)?", m.group(1))
        for m in SEMICOLON_LISTED_RE.finditer(text):
            found += re.split(r";[ \t]+(?:and[ \t]+)?|[ \t]+\(|\)", m.group(1))
        found += [m.group(1) for m in NAMED_RE.finditer(text)]
    names = [n.strip(" ,()") for n in found]
    names = [n for n in dict.fromkeys(names) if n and n.split()[0].lower() not in NOT_NAMES]
    return tuple(n for n in names if not _two_named(n, names))


def _two_named(name: str, names: list[str]) -> bool:
    """``name`` joins two names the report also names alone ('Pharmaceutical and MedTech', of 'our
    Pharmaceutical and MedTech segments'): two parts, not one ('Rotary and Mission Systems' is one)."""
    halves = re.split(r"\s+and\s+", name)
    return len(halves) == 2 and all(h in names for h in halves)


TAIL_SCALE_RE = re.compile(r"\s*\(?(?:(?:dollars|amounts)\s+)?(?:in\s+)?(?:thousands|millions|billions)\)?:?\s*$", re.I)


def parts_of(retriever, sha1: str) -> tuple[str, ...]:
    """The parts report ``sha1`` names (``report_parts``), read once per loaded report."""
    return retriever.index(sha1).derived("parts", lambda pages: report_parts(pages.values()))


SIDE_BY_SIDE_PAGES = 12  # the most pages printing the parts side by side that a part's figure is also looked for in
SIDE_BY_SIDE_NAMES = 3  # a page naming this many of the parts, with a table: a table of the parts
SHORT_LINE = 100  # a line this short is a heading or a line of names, not prose


def side_by_side(retriever, sha1: str) -> tuple[int, ...]:
    """The pages of report ``sha1`` that print its parts side by side (a segment note): a table on a page naming
    three of its parts or more, those naming the most first; read once per loaded report."""
    parts = parts_of(retriever, sha1)
    return retriever.index(sha1).derived("side_by_side", lambda pages: parts_pages(pages, parts))


def parts_pages(pages: dict[int, str], parts: tuple[str, ...]) -> tuple[int, ...]:
    """Of ``pages`` (index -> text), those holding a table and naming ``SIDE_BY_SIDE_NAMES`` of ``parts`` or
    more in its tables and short lines (each name once, whole words), the most named first (then in page order), at most
    ``SIDE_BY_SIDE_PAGES``."""
    named = {}
    for index, text in pages.items():
        if "\n|" in text:  # the names in its tables' cells and short lines, not in its prose
            short = "\n".join(ln for ln in text.splitlines() if ln.startswith("|") or len(ln) <= SHORT_LINE)
            count = sum(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", short) is not None for n in parts)
            if count >= SIDE_BY_SIDE_NAMES:
                named[index] = count
    return tuple(sorted(named, key=lambda i: (-named[i], i))[:SIDE_BY_SIDE_PAGES])


def part_section(caption: str, section: str, parts: tuple[str, ...]) -> str:
    """The part (of ``parts``) whose section a candidate with this ``caption`` and heading row (``section``) is in:
    the heading row or caption is its name (or the acronym of it); the caption, or its last sentence, opens with
    it as an owner ('RMS’ operating results'); the last sentence ends with it ('... net income for the Display
    segment (in millions):'); the caption opens with it as its first line ('Space Our Space
    business segment ...') or ends with it ('... Trends Space'); else the caption opens with a part's name in
    capitals ('NORTH AMERICA'); '' when none."""
    if not parts:
        return ""
    caption = without_note_mark(TAIL_SCALE_RE.sub("", caption))  # '... Rotary and Mission Systems millions):'
    section = without_note_mark(section)  # 'MedTech (2)'
    last = re.split(r"(?<=[.:])\s+(?=[A-Z])", caption)[-1]  # the sentence nearest the table
    for name in parts:
        pattern = re.escape(name).replace(r"\ ", r"\s+")
        if re.fullmatch(rf"{pattern}(?:\s+{PART_NOUN})?", section.strip(" :"), re.I) or \
                re.match(rf"{pattern}(?:['’]s?\s|\s+{PART_NOUN}|\s+[A-Z]|\s*$)", caption) or \
                re.match(rf"{pattern}['’]s?\s", last) or \
                re.search(rf"\b(?:for|of)\s+(?:the\s+|our\s+)?{pattern}(?:\s+{PART_NOUN})?\s*:?$", last) or \
                re.search(rf"(?<!\w){pattern}\s*:?$", caption) and _own_line(caption, name) or \
                name.isupper() and (spells_out(caption, name, whole=True) or _capitals_heading(caption, name)):
            return name
    return next((name for name in parts if _capitals_name(caption, name)), "")  # 'NORTH AMERICA (in millions)'


def _capitals_name(caption: str, name: str) -> bool:
    """``caption`` opens with ``name`` in capitals as the page's heading ('NORTH AMERICA (Dollars in millions)'
    for 'North America'), no further word in capitals joined to it ('NORTH AMERICA RETAIL' is another heading)."""
    pattern = re.escape(name.upper()).replace(r"\ ", r"\s+")
    return not name.isupper() and re.match(rf"{pattern}(?!\w)(?![ \t]+[A-Z]{{2,}}\b)", caption) is not None


def _capitals_heading(caption: str, acronym: str) -> bool:
    """``caption`` opens with ``acronym`` written out as a heading in capitals ('ASSET & WEALTH MANAGEMENT Refer
    to ...' for 'AWM', 'COMMERCIAL BANKING' for 'CB'): its first words, 'and' and '&' aside, are in capitals and
    their initials are the acronym's letters, and no capitalized word follows them in capitals."""
    words = [w for w in re.findall(r"[A-Za-z]+", caption) if w.lower() != "and"]
    head = words[:len(acronym)]
    follows = words[len(acronym):len(acronym) + 1]
    return (len(acronym) >= 2 and len(head) == len(acronym) and all(len(w) > 1 and w.isupper() for w in head)
            and "".join(w[0] for w in head) == acronym.upper() and not (follows and follows[0].isupper()))


def _own_line(caption: str, name: str) -> bool:
    """``name`` ends ``caption`` as a heading of its own (a caption's lines are joined): the caption is the name,
    or a sentence or a heading ends before it ('... programs. Trends Space'), not a phrase ('Aeronautics and
    Space', 'sales of Space')."""
    head = caption[: len(caption.rstrip(" :")) - len(name)].rstrip()
    return not head or head.endswith((".", ":", ")")) or head.split()[-1][:1].isupper()


def names_the_part(cand: Candidate, part: str) -> bool:
    """The candidate's row or its heading row, or its sentence or the page's heading above it ('GREATER CHINA'),
    names the part of the company asked (a caption listing every segment does not make each of its rows the
    part's)."""
    return names_any(f"{cand.label} {cand.section}" + (f" {cand.caption}" if cand.source == "text" else ""), (part,))
