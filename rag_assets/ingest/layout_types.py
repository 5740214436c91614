"""What the weight-free layout reads off a page: segments of text with their boxes, lines of segments, blocks
(paragraphs, headings, tables) and the page's layout."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# A segment is "numeric" when it is a table value: 1,234 (1,234) -12.5% $406.1 - n/a ...
NUMERIC_RE = re.compile(
    r"^[\(\[]?[-–—+]?\s?[$€£¥₹]?\s?[-–—]?\(?\d[\d,.' ]*\)?\s?(%|x|pp|bps|m|bn|k)?\)?[\]\)]?$"
    r"|^[-–—]+$|^n/?a$|^nil$",
    re.IGNORECASE,
)


@dataclass
class Segment:
    text: str
    x0: float
    x1: float
    y0: float  # bottom (PDF user space, origin bottom-left)
    y1: float  # top

    @property
    def numeric(self) -> bool:
        return bool(NUMERIC_RE.match(self.text.strip()))


@dataclass
class Line:
    segments: list[Segment]
    height: float
    rot: int = 0  # quarter turns of the text direction (0: normal); boxes are in the text's own frame

    @property
    def x0(self) -> float:
        return min(s.x0 for s in self.segments)

    @property
    def x1(self) -> float:
        return max(s.x1 for s in self.segments)

    @property
    def y0(self) -> float:
        return min(s.y0 for s in self.segments)

    @property
    def y1(self) -> float:
        return max(s.y1 for s in self.segments)

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.segments)

    @property
    def n_numeric(self) -> int:
        return sum(1 for s in self.segments if s.numeric)

    @property
    def tabular(self) -> bool:
        n = len(self.segments)
        if n >= 2 and self.n_numeric >= 1:
            return True
        return n >= 3 and all(len(s.text) < 40 for s in self.segments)


@dataclass
class Block:
    """A layout block on one page: a paragraph, a heading or a table (rows of cells)."""

    kind: str  # "text" | "heading" | "table"
    bbox: tuple[float, float, float, float]  # l, b, r, t
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)
    header_rows: int = 0
    rot: int = 0


@dataclass
class PageLayout:
    page_index: int
    width: float
    height: float
    blocks: list[Block]
    n_chars: int
    rotation: int = 0
