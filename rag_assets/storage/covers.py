"""The fiscal year a report's cover names, read when the report is registered (before it is parsed), so that its
partition key shows the year: 'FORM 10-K ... for the fiscal year ended December 31, 2022', 'for the quarterly
period ended June 30, 2023', 'Annual Report 2022', 'Annual Report and Accounts 2022/23'. answer.routing.filings
reads the same covers from the parsed pages with these patterns."""

from __future__ import annotations

import logging
import re
from pathlib import Path

log = logging.getLogger(__name__)

YEAR = r"(?:19[89]|20[0-4])\d"  # a fiscal year as printed (also how answer.question.period reads questions)
ANNUAL_RE = re.compile(rf"\b(?:for\s+the\s+)?(?:fiscal\s+)?year\s+ended\s+[A-Z][a-z]+\s+\d{{1,2}},?\s+({YEAR})", re.I)
QUARTER_RE = re.compile(rf"\bquarterly\s+period\s+ended\s+([A-Z][a-z]+)\s+\d{{1,2}},?\s+({YEAR})", re.I)
REPORT_TITLE_RE = re.compile(rf"\b(?:Annual|Integrated)\s+Report(?:\s+and\s+(?:Accounts|Financial\s+Statements))?"
                             rf"\s+(?:FY\s?)?({YEAR})(?:\s*[/–-]\s*(\d{{2}}|{YEAR}))?\b", re.I)
COVER_PAGES = 2  # the pages read at registration


def titled_year(m: re.Match) -> int:
    """The year a report's title names; of a split year ('2022/23') the later, when its fiscal year ends."""
    first, later = int(m.group(1)), m.group(2)
    if not later:
        return first
    return int(later) if len(later) == 4 else first // 100 * 100 + int(later)


def year_of_cover(text: str) -> int | None:
    """The fiscal year a cover's text states (the year ended, the quarterly period ended, or the report's
    title), or None: another year a cover prints (a founding year, a date) is not taken."""
    for pattern in (ANNUAL_RE, QUARTER_RE):
        m = pattern.search(text)
        if m:
            return int(m.group(m.lastindex))
    m = REPORT_TITLE_RE.search(text)
    return titled_year(m) if m else None


def printed_year(pdf: Path) -> int | None:
    """The fiscal year the PDF's title or its first pages state; None when they state none or the file cannot be
    read (its parse says why, not its registration)."""
    try:
        import pypdfium2 as pdfium

        doc = pdfium.PdfDocument(str(pdf))
        try:
            parts = [str(doc.get_metadata_dict().get("Title") or "")]
            for i in range(min(COVER_PAGES, len(doc))):
                page = doc[i]
                parts.append(page.get_textpage().get_text_range())
        finally:
            doc.close()
    except Exception as exc:  # a damaged or encrypted PDF: no year in its key
        log.debug("no cover year read from %s: %s", pdf, exc)
        return None
    return year_of_cover("\n".join(parts))
