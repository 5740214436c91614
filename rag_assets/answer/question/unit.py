"""The unit and rounding a question asks its number in, in the ways analysts write them: 'in USD millions',
'(in USD million)', '$ in millions', 'in millions of US dollars', 'USD bn', 'in units of percents', 'as a
percentage', 'in percent', 'round to two decimal places', 'to 2 decimals', 'to the nearest million'."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

CURRENCY_CODES = "usd|eur|gbp|aud|cad|chf|nok|sek|dkk|jpy|cny|rmb|hkd|sgd|inr|zar|nzd|brl|krw"  # as questions write them

WORD_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "k": 1e3, "m": 1e6, "mn": 1e6,
              "mm": 1e6, "mln": 1e6, "bn": 1e9, "b": 1e9, "cent": 0.01, "cents": 0.01, "000": 1e3}
_MONEY = rf"(?:{CURRENCY_CODES}|us\$|\$|us\s+dollars?|dollars?)"
_SCALE = r"(thousand|million|billion|trillion)s?"
ASKED_SCALE_RES = [
    re.compile(rf"\bin\s+(?:{_MONEY}\s+)?{_SCALE}\b", re.I),                 # in USD millions, in millions
    re.compile(rf"(?:{_MONEY})\s*(?:in\s+)?{_SCALE}\b", re.I),                # $ in millions, USD million, $ millions
    re.compile(rf"\b{_SCALE}\s+of\s+(?:{_MONEY})", re.I),                     # millions of US dollars
    re.compile(rf"(?:{_MONEY})\s?(bn|mn|mln|mm|m|b|k)\b", re.I),              # USD bn, $m, $B
    re.compile(rf"(?:{_MONEY})\s*\(\s*{_SCALE}\s*\)", re.I),                  # in USD (millions)
    re.compile(r"\bin\s+(?:us\s+|u\.s\.\s+)?(cents)\b", re.I),                   # in cents, in US cents
    re.compile(r"(?<=\bhow many )(cents)\s+of\b", re.I),                       # how many cents of EPS
    re.compile(rf"(?:{_MONEY})\s*,\s*{_SCALE}\b", re.I),                        # (USD, thousands)
    re.compile(rf"\bin\s+(bn|mn|mln|mm)\b(?:\s+{_MONEY}(?![\w$]))?", re.I),       # in bn USD, in mn
    re.compile(r"(?:\bin\s+|\$\s?|usd\s?)['’]?(000)s?\b", re.I),                # in $000s, in '000, USD 000
    re.compile(rf"(?<=\bhow many ){_SCALE}\s+(?:of\b|(?=[a-z]))", re.I),  # how many thousands of staff, million shares
    re.compile(rf"\bunits?\s+of\s+(?:one\s+|a\s+|1\s+)?{_SCALE}\b", re.I),     # in units of one million
    re.compile(rf"\bin\s+(k|m|bn|mn)\s+(?:{_MONEY})", re.I),                   # in k USD, in m EUR
    re.compile(r"\(\s*(thousand|million|billion|trillion|bn|mn|mln|mm)s?\s*\)", re.I),  # a count '(millions)', '(mn)'
]
# a scale phrase as written, with what introduces it ('in millions of US dollars', '(USD millions)', ', USD mm')
SCALE_PHRASE_RE = re.compile(r"(?:,\s*)?\(?\s*(?:(?:expressed|answer(?:ed)?|given|stated|reported)\s+)?(?:\bin\s+)?"
                             r"(?:units\s+of\s+)?(?:" + "|".join(p.pattern for p in ASKED_SCALE_RES) + r")\s*\)?",
                             re.I)
# 'bps', 'pp' in lower case only: 'BP' is a company, 'PP&E' an item
BASIS_POINTS_RE = re.compile(r"\b(?i:basis[\s-]+points?)\b|\bbps?\b")
POINTS_RE = re.compile(r"\b(?i:percentage|percent)[\s-]+(?i:points?)\b|\bp\.p\.|\bpp\b(?!\s*&)|"
                       r"\b(?i:how\s+many|in|by\s+\d+(?:\.\d+)?)\s+(?i:points)\b")  # 'by how many points
PERCENT_WORD_RE = re.compile(r"%|\bper\s?cent(?:s|age|ages)?\b|\bpct\b", re.I)
# a figure whose name states a percentage: a margin, a rate, a share of a whole, a growth. Asked with no unit, its
# ratio is answered in percent, as filings and analysts state it ('operating margin 15.5 %', 'an effective tax rate of
# 17.7 %', 'a 34 % share of net sales'); a ratio named as one ('current ratio', 'turnover') stays a ratio.
PERCENT_NAMED_RE = re.compile(r"\b(?:margins?|rates?|yields?|growth|grow[sn]?|grew)\b|"
                              r"\b(?:share|proportion)\s+of\b|\bmarket\s+share\b", re.I)
NOT_PERCENT_NAMED_RE = re.compile(r"\bratios?\b|\bturnover\b|\bexchange\s+rates?\b|\bmultiples?\b|\btimes\b", re.I)
MONEY_ASKED_RE = re.compile(rf"\b(?:in|of)\s+(?:{_MONEY})(?![\w$])", re.I)  # 'gross margin in dollars': an amount
NOT_PERCENT_RE = re.compile(r"\bas\s+an?\s+(?:decimal|fraction)\b|\bnot\s+(?:in|as)\s+(?:an?\s+)?(?:%|per\s?cent(?:age)?)|"
                            r"\bin\s+decimal\s+(?:form|terms|format|notation)\b", re.I)
DECIMALS_RE = re.compile(r"\b(?:round(?:ed)?|to)\s+(?:\w+\s+){0,4}?(?:to\s+)?(?:the\s+)?(one|two|three|four|\d)\s+"
                         r"(?:decimal|d\.?p\.?\b)", re.I)
NEAREST_RE = re.compile(r"\bto\s+the\s+nearest\s+(whole\s+number|integer|unit|thousand|million|billion|tenth|"
                        r"hundredth)", re.I)
NEAREST_DECIMALS = {"tenth": 1, "hundredth": 2}
# how precise the answer is to be, as written, with what introduces it: ', rounded to two decimals', 'and round to
# one decimal place', '(to 2 d.p.)', 'rounded to the nearest million': words of the answer's form, not of the figure
ROUNDING_PHRASE_RE = re.compile(r"(?:,\s*|\s+and\s+|\s+|^)\(?(?:then\s+)?(?:(?:round(?:ed|ing)?|rounding)(?:\s+(?:off|up|down))?"
                                r"\s+(?:(?:it|the\s+(?:answer|result|figure|value|number))\s+)?)?to\s+(?:the\s+nearest\s+"
                                r"\w+(?:\s+number)?|(?:one|two|three|four|\d)\s+(?:decimal(?:\s+places?|s)?|d\.?p\.?|"
                                r"significant\s+(?:figures|digits)))\b\.?\)?", re.I)
WORD_DIGITS = {"one": 1, "two": 2, "three": 3, "four": 4}


@dataclass(frozen=True)
class AskedUnit:
    """What the answer's number must be written in: a scale (1e6 for 'in USD millions'; 1 = full units, the
    ERC convention), percent points for a ratio asked in percent, and decimals to round to."""

    scale: float = 1.0
    percent: bool = False
    decimals: int | None = None
    basis_points: bool = False  # a ratio asked in basis points (0.0125 -> 125)
    named_percent: bool = False  # no unit asked, and the figure's name states a percentage (``PERCENT_NAMED_RE``)
    plain: bool = True  # no unit asked at all: no scale, no currency, no percent, no points, not 'as a decimal'
    money: bool = False  # an amount asked: a scale or a currency ('in USD millions', 'in dollars')

    def amount(self, value: float) -> float:
        """An amount in full units, written in the asked scale and rounding."""
        return self.rounded(value / self.scale)

    def ratio(self, value: float, printed_percent: bool = False) -> float:
        """A ratio (0.054), in percent points when percent is asked (5.4), in basis points when they are (540),
        rounded as asked. Asked in no unit, a ratio whose name states a percentage, or one the filing prints in
        percent (``printed_percent``), is answered in percent as printed."""
        percent = self.percent or self.named_percent or printed_percent and self.plain
        return self.rounded(value * 10_000 if self.basis_points else value * 100 if percent else value)

    def rounded(self, value: float) -> float:
        return round(value, self.decimals) if self.decimals is not None else float(f"{value:.12g}")

    @property
    def words(self) -> str:
        parts = [f"scale {self.scale:g}" if self.scale != 1 else "", "percent" if self.percent else "",
                 "basis points" if self.basis_points else "",
                 "percent, as its name states a percentage" if self.named_percent else "",
                 f"{self.decimals} decimals" if self.decimals is not None and self.decimals >= 0 else
                 f"rounded to {10 ** -self.decimals:,}" if self.decimals is not None else ""]
        return ", ".join(p for p in parts if p) or "full units"


def _scale(question: str) -> float:
    """The scale asked ('in USD millions' -> 1e6); one the question refuses ('in USD, not in millions') is none."""
    for pattern in ASKED_SCALE_RES:
        for m in pattern.finditer(question):
            if not re.search(r"\bnot\s*$", question[: m.start()], re.I):
                return WORD_SCALE[m.group(1).lower()]
    return 1.0


def without_scale(text: str) -> str:
    """``text`` without the scale phrases it asks its number in (``ASKED_SCALE_RES``), so that the words left
    name the figure: "worldwide sales, in millions of US dollars" -> "worldwide sales"."""
    return re.sub(r"\s+", " ", SCALE_PHRASE_RE.sub(" ", text)).strip()


def without_answer_form(text: str) -> str:
    """``text`` without the words that say how the number is to be written, its scale and its rounding, so that
    the words left name the figure: "revenues in billions of dollars, rounded to two decimals" -> "revenues"."""
    return without_scale(ROUNDING_PHRASE_RE.sub(" ", text))


def _decimals(question: str) -> tuple[int | None, float | None]:
    """Decimals asked, and the scale a 'to the nearest million' names (None where it names none)."""
    m = DECIMALS_RE.search(question)
    if m:
        d = m.group(1).lower()
        return (WORD_DIGITS.get(d) if d in WORD_DIGITS else int(d)), None
    m = NEAREST_RE.search(question)
    if m:
        word = m.group(1).lower()
        return NEAREST_DECIMALS.get(word, 0), WORD_SCALE.get(word)
    return None, None


def asked_unit(question: str) -> AskedUnit:
    """The unit a question asks for: 'Answer in USD millions', '(in USD billions)', '$ in millions', 'in units of
    percents and round to one decimal place', 'as a percentage rounded to two decimal places'."""
    scale = _scale(question)
    decimals, nearest_scale = _decimals(question)
    if scale == 1.0 and nearest_scale and MONEY_ASKED_RE.search(question):  # 'in USD, to the nearest billion'
        decimals = -round(math.log10(nearest_scale))  # full units, rounded to billions: 67,000,000,000
    elif scale == 1.0 and nearest_scale:  # 'to the nearest million' alone: in millions
        scale = nearest_scale
    bp = BASIS_POINTS_RE.search(question) is not None
    percent = percent_asked(question) or bool(POINTS_RE.search(question)) and not bp
    money = scale != 1.0 or MONEY_ASKED_RE.search(question) is not None
    plain = not (percent or bp or money or NOT_PERCENT_RE.search(question))
    return AskedUnit(scale, percent, decimals, bp, plain and named_percent(question), plain, money)


def named_percent(question: str) -> bool:
    """The question asks no unit, and names its figure as a percentage: a margin, a rate, a share of a whole, a
    growth ('the operating margin of the Snacks division', 'what share of operating income came from Cloud'),
    not a ratio or a multiple, and not as a decimal or a fraction."""
    return bool(PERCENT_NAMED_RE.search(question)) and not NOT_PERCENT_NAMED_RE.search(question)


def points_asked(question: str) -> bool:
    """A change asked in percentage points or basis points: the difference of two ratios, not their relative
    change ('by how many percentage points did the gross margin change', 'margin expansion in bps')."""
    return bool(POINTS_RE.search(question) or BASIS_POINTS_RE.search(question))


def percent_asked(question: str) -> bool:
    """Whether the answer is asked in percent: the question writes the word ('by what percent', 'gross margin
    percentage', 'capex as a % of revenue', 'in units of percents') as its unit, not as a quantity it prints
    ('above 50%', 'by more than 5 percent'), and does not ask for a decimal or a fraction instead."""
    if NOT_PERCENT_RE.search(question):
        return False
    return any(not re.search(r"\d\s*$", question[:m.start()]) for m in PERCENT_WORD_RE.finditer(question))
