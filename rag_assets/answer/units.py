"""Units printed in a report: the scale a table declares ('in thousands', '$m', "RMB'000"), the currencies a
page prints, and what a question asks for (a currency, a percentage, a count)."""

from __future__ import annotations

import re
from dataclasses import dataclass

CURRENCY_CODES = "usd|eur|gbp|aud|cad|chf|nok|sek|dkk|jpy|cny|rmb|hkd|sgd|inr|zar|nzd|brl|krw"
_CUR = rf"(?:us\$|a\$|c\$|hk\$|s\$|[$€£¥]|\b(?:{CURRENCY_CODES}))"
# A declaration of a table's scale: it names a scale without a number before it ("$31.4 million" is a value).
SCALE_DECLARATIONS = [
    (re.compile(r"\bin\s+(?:[a-z$€£.]+\s+){0,2}?(thousands|millions|billions)\b", re.I), None),
    (re.compile(r"\b(thousands|millions|billions)\s+of\s+(?:[a-z.]+\s+)?"
                r"(?:dollars|euros|pounds|yen|francs|kroner|kronor|rand|yuan|renminbi)\b", re.I), None),
    (re.compile(r"\(\s*(thousands|millions|billions)\s*\)", re.I), None),
    (re.compile(rf"{_CUR}\s?['’]?000s?\b|\(\s?['’]?000s?\s?\)|['’]000\b", re.I), 1e3),
    (re.compile(rf"{_CUR}\s?['’]?(?:m|mn|mln|million|millions)\b", re.I), 1e6),
    (re.compile(rf"{_CUR}\s?['’]?(?:bn|b|billion|billions)\b", re.I), 1e9),
]
WORD_SCALE = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}

CURRENCIES: dict[str, re.Pattern] = {
    "USD": re.compile(r"US\$|\bUSD\b|\bU\.?S\.? dollars?\b", re.I),
    "EUR": re.compile(r"€|\bEUR\b|\beuros?\b", re.I),
    "GBP": re.compile(r"£|\bGBP\b|\bpounds? sterling\b|\bsterling\b", re.I),
    "AUD": re.compile(r"(?<![A-Z])A\$|\bAUD\b|\bAustralian dollars?\b", re.I),
    "CAD": re.compile(r"(?<![A-Z])C\$|\bCA\$|\bCAD\b|\bCanadian dollars?\b", re.I),
    "JPY": re.compile(r"¥|\bJPY\b|\byen\b", re.I),
    "CHF": re.compile(r"\bCHF\b|\bSwiss francs?\b", re.I),
    "NOK": re.compile(r"\bNOK\b|\bNorwegian kroner\b", re.I),
    "SEK": re.compile(r"\bSEK\b|\bSwedish kronor\b", re.I),
    "DKK": re.compile(r"\bDKK\b|\bDanish kroner\b", re.I),
    "CNY": re.compile(r"\bRMB|\bCNY\b|\brenminbi\b|\byuan\b", re.I),
    "HKD": re.compile(r"HK\$|\bHKD\b", re.I),
    "SGD": re.compile(r"(?<![A-Z])S\$|\bSGD\b", re.I),
    "INR": re.compile(r"₹|\bINR\b|\brupees?\b", re.I),
}
BARE_DOLLAR_RE = re.compile(r"(?<![A-Za-z])\$")
DOLLAR_CURRENCIES = ("USD", "AUD", "CAD", "HKD", "SGD")
ASKED_CURRENCY_RE = re.compile(rf"\b(?:in|of)\s+({'|'.join(CURRENCIES)})\b")
PERCENT_ASKED_RE = re.compile(r"%|\b(percent|percentage|ratio|margin|rate|yield)\b", re.I)
UNSCALED_LABEL_RE = re.compile(
    r"%|\bper\s+(?:share|unit|ads|employee)\b|\bratio\b|\bmargin\b|\brate\b|\bnumber of\b|\bheadcount\b|"
    r"\bemployees\b|\bshares outstanding\b|\bweighted average (?:number|shares)\b|\bdays\b|\byears\b", re.I)


def declared_scale(text: str) -> tuple[float, str] | None:
    """The scale ``text`` declares for a table's figures, with the words that declare it, or None."""
    for pattern, mult in SCALE_DECLARATIONS:
        m = pattern.search(text)
        if m:
            return (mult or WORD_SCALE[m.group(1).lower()]), m.group(0).strip()
    return None


def report_dollar(texts) -> str:
    """What a bare '$' means in a report: the dollar currency it names explicitly most often (US$ if none)."""
    counts = {code: sum(len(CURRENCIES[code].findall(t)) for t in texts) for code in DOLLAR_CURRENCIES}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else "USD"


def currencies_in(text: str, dollar: str = "USD") -> set[str]:
    """The currencies ``text`` prints; a bare '$' is ``dollar`` (see ``report_dollar``)."""
    found = {code for code, pattern in CURRENCIES.items() if pattern.search(text)}
    if BARE_DOLLAR_RE.search(text.replace("US$", "").replace("A$", "").replace("C$", "").replace("HK$", "")
                             .replace("S$", "")):
        found.add(dollar)
    return found


def asked_currency(question: str) -> str | None:
    """The currency a question asks for ('(in USD)'), or None."""
    m = ASKED_CURRENCY_RE.search(question)
    return m.group(1) if m else None


def asks_percent(metric: str) -> bool:
    return bool(PERCENT_ASKED_RE.search(metric))


def unscaled_label(label: str) -> bool:
    """A row of per-share amounts, percentages, ratios or counts: a table's scale never applies to it."""
    return bool(UNSCALED_LABEL_RE.search(label))


ASKED_SCALE_RE = re.compile(
    rf"\b(?:in\s+(?:(?:{CURRENCY_CODES}|us\$|\$|dollars?)\s+)?|(?:{CURRENCY_CODES})\s+)(thousands|millions|billions)\b", re.I)
ASKED_PERCENT_RE = re.compile(r"\bin\s+(?:units\s+of\s+)?percent(?:s|age)?\b|\(\s*%\s*\)|\bas\s+an?\s+(?:%|percent)|%\s*margin\b|"
                              r"\b(?:percent|percentage)\s+(?:margin|change|growth)\b|\bCAGR\b", re.I)
DECIMALS_RE = re.compile(r"\bround(?:ed)?\s+(?:\w+\s+){0,3}?to\s+(?:the\s+)?(one|two|three|four|\d)\s+decimal", re.I)
WORD_DIGITS = {"one": 1, "two": 2, "three": 3, "four": 4}


@dataclass(frozen=True)
class AskedUnit:
    """What the answer's number must be written in: a scale (1e6 for 'in USD millions'; 1 = full units, the
    ERC convention), percent points for a ratio asked 'in units of percents', and decimals to round to."""

    scale: float = 1.0
    percent: bool = False
    decimals: int | None = None

    def amount(self, value: float) -> float:
        """An amount in full units, written in the asked scale and rounding."""
        return self.rounded(value / self.scale)

    def ratio(self, value: float) -> float:
        """A ratio (0.054), in percent points when percent is asked (5.4), rounded as asked."""
        return self.rounded(value * 100 if self.percent else value)

    def rounded(self, value: float) -> float:
        return round(value, self.decimals) if self.decimals is not None else float(f"{value:.12g}")

    @property
    def words(self) -> str:
        parts = [f"scale {self.scale:g}" if self.scale != 1 else "", "percent" if self.percent else "",
                 f"{self.decimals} decimals" if self.decimals is not None else ""]
        return ", ".join(p for p in parts if p) or "full units"


def asked_unit(question: str) -> AskedUnit:
    """The unit a question asks for: 'Answer in USD millions', '(in USD billions)', 'in units of percents and
    round to one decimal place'."""
    scale = ASKED_SCALE_RE.search(question)
    decimals = DECIMALS_RE.search(question)
    d = decimals.group(1).lower() if decimals else None
    return AskedUnit(WORD_SCALE[scale.group(1).lower()] if scale else 1.0, bool(ASKED_PERCENT_RE.search(question)),
                     (WORD_DIGITS.get(d) or int(d)) if d else None)
