"""Rows and captions named as a part of the company: a row's label that is the part's name ('Aeronautics', 'U.S.'
for 'us', 'Europe, Middle East & Africa' for 'emea'), a caption that is the part's ('Marine Systems' operating
results'), and the library's items a caption names (its blocks of columns)."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.rows import INITIALS_RE, folded_label, label_head, spells_out
from rag_assets.answer.question.regions import adjective_of


def names_part(label: str, part: str) -> bool:
    """A row's label is the part's name ('Aeronautics', 'Greater China'), with at most the part noun after it
    ('Aeronautics segment'), 'total' before it ('Total Optical Communications'), or the company's name before it
    in the question ('Lockheed Martin Aeronautics'); dotted initials joined or not ('U.S. Government' is 'us
    government')."""
    if (joined := INITIALS_RE.sub(r"\1", label)) != label and names_part(joined, part):
        return True
    folded = re.sub(r"\s+(?:segment|division|business|reportable segment|operation)s?$", "",
                    folded_label(label_head(label)))
    folded = re.sub(r"^total\s+", "", folded)
    if 0 < len(tight := folded.replace(" ", "")) <= 4 and tight in (part.replace(" ", ""), _initials(part)):
        return True  # an abbreviation written with or without its dots: 'U.S.' is 'US' and 'United States'
    if spells_out(re.sub(r"^\s*total\s+", "", label_head(label), flags=re.I), part, whole=True):
        return True  # the part's acronym written out: 'Europe, Middle East & Africa' is 'EMEA'
    before = part[:-len(folded)].rstrip() if folded and part.endswith(" " + folded) else ""
    return bool(folded) and (folded == part or len(folded) >= 4 and before and not re.search(r"(?:\band|&|,)$", before)
                             or adjective_of(re.sub(r"\s+operations$", "", folded), part))


def _initials(name: str) -> str:
    """The initials of a name of two words or more ('united states' -> 'us'); '' for one word."""
    words = name.split()
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


# in a part's own results, the item's row may say whose it is: 'Business segment operating income', 'Segment sales'
SEGMENT_WORDS_RE = re.compile(r"(?:^\s*|(?<=\bpretax\s))(?:business\s+|reportable\s+|operating\s+)?segments?\s+(?=\w)",
                              re.I)  # 'Pretax segment income': the part's pretax income


LEGAL_RE = r"(?:inc|incorporated|corp|corporation|company|co|plc|ltd|limited|llc|ag|sa|nv|se)\b"


def heads(caption: str, part: str) -> bool:
    """The caption is the part's: it opens with the part's name, or names it as the owner of what follows ('Marine
    Systems' operating results', 'the Marine Systems segment'), not merely among others; dotted initials joined or
    not ('U.S. CONSUMER SERVICES' is 'us consumer services')."""
    if (joined := INITIALS_RE.sub(r"\1", caption)) != caption and heads(joined, part):
        return True
    folded = re.sub(r"[’']", "'", caption.lower())
    name = re.escape(part).replace(r"\ ", r"[\s,]+")
    if re.match(rf"\W*{name}(?:[\s,]+\w+){{0,3}}[\s,]+{LEGAL_RE}", folded_label(caption)):
        return False  # 'ACTIVISION BLIZZARD, INC. AND SUBSIDIARIES': a company's name, not its part's
    if spells_out(" ".join(caption.split()[:len(part) + 2]), part):
        return True  # it opens with the part's acronym written out: 'EUROPE, MIDDLE EAST & AFRICA' for 'emea'
    return re.match(rf"\W*{name}\b", folded_label(caption)) is not None or \
        re.search(rf"(?<!\w){name}(?:'s?|\s+(?:business\s+|reportable\s+|operating\s+)?segment)(?!\w)", folded) is not None


def nearest_items(text: str, library_names) -> list[str]:
    """The library's items the last sentence of ``text`` that names any names (the sentence nearest a table, in
    its caption: 'Segment net income may not be consistent ... The following table presents segment net sales'
    is of sales; 'Net Sales ... Operating Income' names both blocks); [] when no sentence names one."""
    for sentence in reversed(re.split(r"(?<=[.:;])\s+", text)):
        named = items_named(sentence, library_names)
        if named:
            return named
    return []


def items_named(text: str, library_names) -> list[str]:
    """The library's items ``text`` names, in the order it names them (each once): its column blocks."""
    folded = folded_label(text)
    first: dict[str, int] = {}
    for name, words in library_names:
        m = re.search(rf"(?<!\w){re.escape(words)}(?!\w)", folded)
        if m and (name not in first or m.start() < first[name]):
            first[name] = m.start()
    return sorted(first, key=first.get)


def same_part(a: str, b: str) -> bool:
    """Two names of one part of the company ('MedTech' and 'medtech', 'RMS' and 'rotary and mission systems')."""
    return names_part(a, folded_label(b)) or names_part(b, folded_label(a))
