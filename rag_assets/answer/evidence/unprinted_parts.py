"""A part asked as a segment that the company's filings do not have: the question calls it a segment or a division
("Globex's Wireless segment revenue"), yet no name the filings call a part (``part_sections.report_parts``) shares a
word with it or is its initials, and no page prints its name followed by 'segment' or 'division'. Its figure is
N/A with that reason, never a row that merely names the word ('Wireless service revenue' of the whole company)."""

from __future__ import annotations

from rag_assets.answer.question.filing_parts import called_part_re
from rag_assets.answer.question.metric_library import fold

NOT_NAME_WORDS = frozenset("and of the & segment segments division divisions group".split())


def _words(name: str) -> set[str]:
    return set(fold(name).split()) - NOT_NAME_WORDS


def _initials(name: str) -> str:
    return "".join(w[0] for w in fold(name).split() if w not in NOT_NAME_WORDS)


def unprinted_part(part: str, parts: tuple[str, ...], texts) -> str:
    """Why the segment ``part`` (the plan's folded name) is none of the company's, or '' when it may be one: the
    filings name parts (``parts``) and none shares a word with it or is its initials ('CCB' of 'Consumer &
    Community Banking'), and none of ``texts`` (the filings' pages) prints it followed by a part noun."""
    words, initials = _words(part), _initials(part)
    if not parts or not words or any(_words(p) & words or fold(p).replace(" ", "") == initials for p in parts):
        return ""
    printed = called_part_re(part)
    if any(printed.search(text) for text in texts):
        return ""
    return f"no '{part}' segment or division: its filings name {', '.join(parts[:6])}"
