"""Sentences of a page's text: where one ends (never after dotted initials before a name: 'the U.S. Government')
and where a blank line the PDF put inside one does not end it."""

from __future__ import annotations

import re

# a sentence's end before a capital, after dotted initials or a company's abbreviated form ('NIKE, Inc.') only
# where a word that opens sentences follows ('the U.S. Government' / 'outside of the U.S. Our workforce', 'NIKE,
# Inc. Revenues grew' / 'acquired by Globex, Inc. The price'); a check box's
SENTENCE_OPENERS = r"(?:Our|We|The|This|These|That|Those|It|Its|In|As|At|On|For|During|Since|Of|Each|All)\b"
ABBREVIATIONS = ("Inc", "Corp", "Co", "Ltd", "Cos", "Bros", "Plc")
_NOT_AFTER = "".join(rf"(?<!\b{a}\.)" for a in ABBREVIATIONS)
_AFTER = "|".join(rf"(?<=\b{a}\.)" for a in ABBREVIATIONS)
SENTENCE_SPLIT_RE = re.compile(rf"(?<=[.!?;])(?<!\b[A-Z]\.[A-Z]\.){_NOT_AFTER}\s+(?=[A-Z(“\"•])|"
                               rf"(?:(?<=\b[A-Z]\.[A-Z]\.)|{_AFTER})\s+(?={SENTENCE_OPENERS})|\s+•\s+|\s*[☐☒]\s*")


def sentence_goes_on(para: list[str], after: list[str]) -> bool:
    """A blank line the PDF put inside a sentence: the paragraph so far (``para``, its lines) ends without a
    sentence's last mark and the next line of text (of ``after``) opens in lower case ('... in 2022, 2021 and
    2020,' / 'respectively.')."""
    following = next((ln.strip() for ln in after if ln.strip()), "")
    return bool(para and following) and following[0].islower() and \
        not para[-1].rstrip().endswith((".", "!", "?", ":", ";"))
