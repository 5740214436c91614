"""The words around a figure that never name it: what it is compared with ('... in Q2 2023 compared to Q2 2022',
'... vs. FY2021', 'differ from 2021', 'above its 2016 level') and the words that ask ('How did', 'Was'). What is
left when they are cut is the figure's name, which the library or a printed row reads."""

from __future__ import annotations

import re

# what the figure is compared with, to the clause's end
COMPARED_RE = re.compile(r",?\s+(?:as\s+)?(?:versus|vs\.?|compare[sd]?\s+(?:to|with)|relative\s+to|in\s+comparison\s+"
                         r"(?:to|with)|differ(?:ed|s)?\s+from)(?:\s|$).*$", re.I)
# the figure's own level in another period ('above its FY2021 level', 'below their 2016 figure')
LEVEL_RE = re.compile(r"\b(?:its|their|the)\s+(?:[\w,]+\s+){0,4}?(?:fy\s?)?(?:19|20)\d\d\s+(?:level|figure|amount|value|"
                      r"total|mark)s?\b.*$", re.I)  # 'its FY2021 level', 'its December 31, 2022 level', 'its Q4 2021 figure'
# the words that ask, before the figure's: 'How did', 'How much did', 'What was the', 'Was', 'Is it true that'
ASKING_RE = re.compile(r"^(?:(?:is\s+it\s+true|can\s+you\s+confirm)\s+that\s+|how\s+(?:much\s+)?(?:did|does|do|has|have)\s+|"
                       r"(?:what|which)\s+(?:was|were|is|are)\s+|(?:did|does|do|has|have|had|was|were|is|are)\s+)"
                       r"(?:the\s+)?", re.I)


def figure_words(words: str) -> str:
    """``words`` without what the figure is compared with and without the words that ask."""
    return ASKING_RE.sub("", LEVEL_RE.sub("", COMPARED_RE.sub("", words.strip()))).strip(" ,")
