"""A part of the company named as the filing names it, without a part noun the question's words would read
('How much revenue did Zephyr contribute to Globex', 'revenues from Zephyr', "Globex's ZX business"): a name the
company's filing calls one of its segments or divisions (``evidence.part_sections.report_parts``), written in the
question as the filing prints it, is that part. The question is read again with the name followed by the part
noun the reader knows ('Zephyr segment'); the filing, not a list of words, says which names are parts."""

from __future__ import annotations

import re

# a generic noun after the part's name that stands for the part ('the ZX business', 'its Zephyr brand')
PART_STAND_IN_RE = re.compile(r"[ \t]+(?:business(?:es)?|brand|unit|operations?)\b")


def _written_at(question: str, name: str, written: tuple[str, ...]) -> re.Match | None:
    """Where ``question`` first writes ``name`` as printed (whole words, same case) outside the company's name
    as ``written``, or None."""
    company = [m.span() for own in written if own
               for m in re.finditer(rf"(?<![\w&]){re.escape(own)}(?![\w&])", question)]
    return next((m for m in re.finditer(rf"(?<![\w&.]){re.escape(name)}(?![\w&]|\.\w)", question)
                 if not any(s <= m.start() < e or s < m.end() <= e for s, e in company)), None)


def named_part(question: str, parts: tuple[str, ...], written: tuple[str, ...] = ()) -> str:
    """The longest of the filing's ``parts`` that ``question`` writes as printed (whole words, same case), outside
    the company's name as ``written``; '' when none is."""
    return next((name for name in sorted(parts, key=len, reverse=True) if _written_at(question, name, written)), "")


def marked_part(question: str, name: str, written: tuple[str, ...] = ()) -> str:
    """``question`` with the part ``name`` (where it is written outside the company's name) followed by the part
    noun 'segment' (standing for the generic noun after it, if any: 'ZX business' -> 'ZX segment'), so that the
    question's reader reads it as the part."""
    m = _written_at(question, name, written)
    if m is None:
        return question
    rest = question[m.end():]
    rest = PART_STAND_IN_RE.sub(" segment", rest, count=1) if PART_STAND_IN_RE.match(rest) else " segment" + rest
    return question[:m.end()] + rest


SEGMENT_NOUN = r"(?:(?:business|reportable|operating)\s+)?(?:segment|division)s?\b"


def called_part_re(part: str) -> re.Pattern:
    """The part ``part`` (as a plan folds it: 'wireless') written as a text writes it, followed by a part noun
    ('Wireless segment', 'Wireless business segment')."""
    name = r"\W+".join(map(re.escape, part.split()))
    return re.compile(rf"(?<!\w){name}\W+{SEGMENT_NOUN}", re.I)


def called_segment(question: str, part: str) -> bool:
    """``question`` calls the one part it asks (``part``, as its plan folds it: 'wireless') a segment or a division
    ("Globex's Wireless segment revenue"): its name is followed by that noun."""
    words = part.split()
    if not words or any(not w.isalnum() for w in words):  # no nested or listed parts ('a > b', 'a|b')
        return False
    return called_part_re(part).search(question) is not None
