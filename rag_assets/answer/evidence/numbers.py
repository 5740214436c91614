"""Numbers as the challenge wants them: parse what a model writes, apply scales, check grounding on pages."""

from __future__ import annotations

import math
import re

NA = "N/A"
SCALES = {"units": 1.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}
WORD_SCALES = [
    (re.compile(r"\b(trillions?|tn)\b", re.I), 1e12),
    (re.compile(r"\b(billions?|bn|bln)\b", re.I), 1e9),
    (re.compile(r"\b(millions?|mn|mln|mio)\b", re.I), 1e6),
    (re.compile(r"\b(thousands?|thous)\b", re.I), 1e3),
]
SUFFIX_SCALE_RE = re.compile(r"^([\d.,]+)\s*([kmb])$", re.I)
NUMBER_IN_TEXT_RE = re.compile(r"\(?[-−–]?\s?\d[\d,]*(?:\.\d+)?\)?")
NA_WORDS = {"n/a", "na", "none", "null", "not available", "not applicable", "not stated", "unknown", "-", ""}


def is_na(value) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower().strip(".'\"") in NA_WORDS)


def parse_number(value) -> float | str:
    """'$406.1 million' -> 406100000.0, '(1,234)' -> -1234.0, '12.5%' -> 12.5, 'N/A' -> 'N/A'."""
    if isinstance(value, bool):
        return NA
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else NA
    if is_na(value):
        return NA
    text = str(value).strip()
    negative = bool(re.search(r"^\s*[\(\-−–]|\)\s*$|\bnegative\b|\bloss of\b", text))
    scale = 1.0
    for pattern, mult in WORD_SCALES:
        if pattern.search(text):
            scale = mult
            break
    cleaned = re.sub(r"[^\d.,kmbKMB]", "", text)
    m = SUFFIX_SCALE_RE.match(cleaned) if scale == 1.0 else None
    if m:
        scale = {"k": 1e3, "m": 1e6, "b": 1e9}[m.group(2).lower()]
        cleaned = m.group(1)
    digits = re.sub(r"[^\d.,]", "", cleaned)
    if not re.search(r"\d", digits):
        return NA
    # "1,234.5" / "1.234,5" / "1,234" / "12.5"
    if "," in digits and "." in digits:
        if digits.rfind(",") > digits.rfind("."):
            digits = digits.replace(".", "").replace(",", ".")
        else:
            digits = digits.replace(",", "")
    elif digits.count(".") > 1:  # 1.234.567
        digits = digits.replace(".", "")
    elif "," in digits:
        parts = digits.split(",")
        digits = digits.replace(",", "") if all(len(p) == 3 for p in parts[1:]) else digits.replace(",", ".")
    try:
        number = float(digits.rstrip("."))
    except ValueError:
        return NA
    number *= scale
    return -abs(number) if negative else number


def resolve_number(final_answer, value_as_written: str | None = None, scale: str | None = None) -> float | str:
    """The answer number: the model's written figure times its stated scale, trusted over the model's own
    arithmetic when the two disagree only by a power of 1,000 (the model forgot or doubled the scale)."""
    final = parse_number(final_answer)
    if value_as_written is None or is_na(value_as_written):
        return final
    written = parse_number(value_as_written)
    if written == NA:
        return final
    has_word_scale = any(p.search(str(value_as_written)) for p, _ in WORD_SCALES)
    computed = written if has_word_scale else written * SCALES.get(scale or "units", 1.0)
    if final == NA:
        return NA  # the model concluded N/A (e.g. another currency) even though it saw a figure
    if close(final, computed):
        return computed
    for k in (1e3, 1e6, 1e9):
        if close(final * k, computed) or close(final, computed * k):
            return computed
    return final


def close(a: float, b: float, rel: float = 0.01) -> bool:
    if a == b:
        return True
    return abs(a - b) <= rel * max(abs(a), abs(b))


def numbers_in_text(text: str) -> list[float]:
    """Every number printed in ``text`` (absolute values)."""
    out = []
    for m in NUMBER_IN_TEXT_RE.finditer(text):
        v = parse_number(m.group(0))
        if v != NA:
            out.append(abs(v))
    return out


def grounded(value: float, page_texts: list[str], rel: float = 0.005) -> bool:
    """True if ``value`` is printed on one of the pages in some unit form (406.1, 406,100, 406100000...)."""
    target = abs(value)
    if target == 0:
        return any(re.search(r"(?<![\d.])0(?:\.0+)?(?![\d.])|[-–—]", t) for t in page_texts)
    for text in page_texts:
        for x in numbers_in_text(text):
            for mult in (1.0, 1e3, 1e6, 1e9):
                if abs(x * mult - target) <= rel * target:
                    return True
    return False
