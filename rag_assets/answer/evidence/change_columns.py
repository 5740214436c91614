"""The columns a header line prints beside its years: a change column after them ('2023 2022 Change'), a block
of years and named changes printed twice or more ('2023 2022 Total Operations Currency 2023 2022 ...'), and
whether a row's figures after the years' are changes of them."""

from __future__ import annotations

import re
from dataclasses import replace

VERSUS_RE = re.compile(r"\b(?:19|20)\d\d\s*(?:v|vs|versus)\.?\s*(?:19|20)\d\d\b", re.I)  # '2019 v 2018': a change
PATTERN_RE = re.compile(r"(?<![\d.,])((?:19[89]|20[0-4])\d)(?![\d,]|\.\d)|\b(change|variance)\b", re.I)


def column_pattern(line: str) -> list[str]:
    """Each column's year as a header line prints them, '' a change column ('(in millions) 2023 2022 Change 2023
    2022 Change' -> ['2023', '2022', '', '2023', '2022', '']); [] when the line neither repeats a year nor
    prints a change after its years."""
    if named := named_blocks(line):
        return named
    found = [m.group(1) or "" for m in PATTERN_RE.finditer(VERSUS_RE.sub(" change ", line))]
    while found and not found[0]:
        found.pop(0)  # 'Change' words before the first year are no column of it
    years = [y for y in found if y]
    return found if len(years) >= 2 and (len(set(years)) < len(years) or "" in found) else []


def changes_after(figs: list, pattern: list[str]) -> list | None:
    """A row's figures under a header line printing change columns after its years, each year once ('2017 2016
    2015 2017 vs. 2016 2016 vs. 2015'): its first figures are the years', when the rest fit the changes (an
    amount and a percent each at most) and one of them is a change of two adjacent years' figures; None
    otherwise (two figures a year, 'Income before tax | Net income', are no change of each other)."""
    years = [p for p in pattern if p]
    n, changes = len(years), len(pattern) - len(years)
    if not (len(set(years)) == n >= 2 and pattern[:n] == years and changes):
        return None
    if not n < len(figs) <= n + 2 * changes or any(f.percent for f in figs[:n]):
        return None
    adjacent = [(a.value, b.value) for a, b in zip(figs[:n], figs[1:n])]
    if not any(_is_change(f.value, a, b) for f in figs[n:] for a, b in adjacent):
        return None
    return [replace(f, period=y) for f, y in zip(figs, years)] + figs[n:]


def _is_change(x: float, a: float, b: float) -> bool:
    """``x`` is ``a`` less ``b`` as printed, in amount or in percent of ``b`` (to its rounding)."""
    return abs(x - (a - b)) <= max(1.0, 0.01 * abs(a - b)) or (b != 0 and abs(x - 100 * (a - b) / abs(b)) <= 1.0)


def named_blocks(line: str) -> list[str]:
    """The columns of a header line printing the same block twice or more, years and named change columns
    ('2023 2022 Total Operations Currency 2023 2022 Total Operations Currency' -> ['2023', '2022', '', '', '',
    '2023', ...]); [] when the line is no such repeat, or a word of its block is no column's name (lower case)."""
    tokens = re.findall(r"(?<![\d.,])(?:19[89]|20[0-4])\d(?![\d,]|\.\d)|[A-Za-z][\w%-]*", line)
    start = next((i for i, t in enumerate(tokens) if t[0].isdigit()), None)
    if start is None:
        return []
    tokens = tokens[start:]
    width = next((i for i in range(1, len(tokens)) if tokens[i] == tokens[0]), 0)
    block = tokens[:width]
    repeats = next((k for k in range(1, len(tokens) // max(width, 1) + 1)
                    if tokens[k * width:(k + 1) * width] != block), 0) if width else 0
    words = [t for t in block if not t[0].isdigit()]
    if repeats < 2 or not words or not all(w[0].isupper() for w in words):
        return []
    return [t if t[0].isdigit() else "" for t in block] * repeats
