"""Where a question says its figure is printed ('per the selected financial data in the FY2019 10-K', 'as printed
in the income statement', 'according to the human capital section of the 10-K'): the figure's source, never a
word of the figure, its line or what a count counts."""

from __future__ import annotations

import re

SOURCE_RE = re.compile(r"[,(]?\s*\b(?:per\s+(?:the|its|their)|according\s+to|as\s+(?:reported|printed|stated|shown|"
                       r"presented|disclosed)\s+(?:in|on|by))\b[^?;),]*\)?", re.I)


def without_source(query: str) -> str:
    """``query`` without the clause naming where the figure is printed (``SOURCE_RE``), to the clause's end
    ('According to the annual report, what is ...': the question after the comma stays)."""
    return SOURCE_RE.sub(" ", query)
