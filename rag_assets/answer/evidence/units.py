"""Units printed in a report: the scale a table declares ('in thousands', '$m', "RMB'000"), the currencies a
page prints, and what a question asks for (a currency, a percentage, a count)."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.question.unit import CURRENCY_CODES
_CUR = rf"(?:us\$|a\$|c\$|hk\$|s\$|[$€£¥]|\b(?:{CURRENCY_CODES}))"
# A declaration of a table's scale: it names a scale without a number before it ("$31.4 million" is a value).
SCALE_DECLARATIONS = [
    (re.compile(r"\bin\s+(?:[a-z$€£.]+\s+){0,2}?(thousands|millions|billions)\b", re.I), None),
    (re.compile(r"\b(thousands|millions|billions)\s+of\s+(?:[a-z.]+\s+)?"
                r"(?:dollars|euros|pounds|yen|francs|kroner|kronor|rand|yuan|renminbi)\b", re.I), None),
    (re.compile(r"\(\s*(thousands|millions|billions)\b(?:\s*[,;]\s*except\b[^()]{0,60})?\s*\)", re.I), None),
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
PERCENT_ASKED_RE = re.compile(r"%|\b(percent|percentage|ratio|margin|rate|yield|return\s+on|roe|roa|roic|rotce|roce)\b",
                              re.I)  # a return on capital is printed in percent ('Return on common equity 20 %')
UNSCALED_LABEL_RE = re.compile(
    r"%|\bper\s+(?:(?:common|ordinary|diluted|basic)\s+)?(?:share|unit|ads|employee)\b|\beps\b|\bratio\b|"
    r"\bmargin\b|\brate\b|\breturn\s+on\b|\bnumber of\b|\bheadcount\b|"
    r"\bemployees\b|\bshares outstanding\b|\bweighted average (?:number|shares)\b|\bdays\b|\byears\b", re.I)


def declared_scale(text: str) -> tuple[float, str] | None:
    """The scale ``text`` declares for a table's figures, with the words that declare it, or None."""
    for pattern, mult in SCALE_DECLARATIONS:
        m = pattern.search(text)
        if m:
            return (mult or WORD_SCALE[m.group(1).lower()]), m.group(0).strip()
    return None


def last_declared_scale(text: str) -> tuple[float, str] | None:
    """The scale ``text`` above a table declares, the text after the last row of a table before it first
    ('Deliveries (in thousands)' below a table under '(Dollars in millions)'): a caption between two tables is the
    second's."""
    rows = [m.end() for m in re.finditer(r"^\s*\|.*$", text, re.M)]
    return (declared_scale(text[rows[-1]:]) if rows else None) or declared_scale(text)


OTHER_DOLLAR_NAMED = 3  # times a report names another dollar before its bare '$' may be that dollar


def report_dollar(texts) -> str:
    """What a bare '$' means in a report: the other dollar currency it names explicitly most often, when it
    names it at least three times and more than twice as often as the US dollar; else the US dollar (a US
    filing discussing its exposure to the 'Australian dollar' twice still prints its figures in US$)."""
    counts = {code: sum(len(CURRENCIES[code].findall(t)) for t in texts) for code in DOLLAR_CURRENCIES}
    best = max((c for c in counts if c != "USD"), key=counts.get)
    return best if counts[best] >= OTHER_DOLLAR_NAMED and counts[best] > 2 * counts["USD"] else "USD"


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


SHARES_SCALE_RE = re.compile(r"\bshares\s+(?:are\s+)?in\s+(?:(thousands|millions)\b|['’]?(000)['’]?s?)", re.I)


def shares_scale(label: str, caption: str) -> tuple[float, str] | None:
    """The scale a caption declares for its share counts ('shares in 000's', 'shares in millions') when ``label``
    is a count of shares ('Weighted average diluted shares', not 'Net income per diluted share'), or None."""
    m = SHARES_SCALE_RE.search(caption) if re.search(r"\bshares\b", label, re.I) and \
        not re.search(r"\bper\b", label, re.I) else None
    return ({"thousands": 1e3, "millions": 1e6}.get((m.group(1) or "").lower(), 1e3), m.group(0)) if m else None


SHARE_COUNT_RE = re.compile(r"\bweighted[\s-]+average\s+(?:number|shares)\b|\bshares\s+outstanding\b", re.I)
FEWEST_SHARES = 1e5  # no listed company has fewer shares: a smaller count of shares is printed in its table's scale


def unscaled_label(label: str, figures: tuple[float, ...] = ()) -> bool:
    """A row of per-share amounts, percentages, ratios or counts: a table's scale never applies to it. A margin
    row whose figures pass 100 is an amount ('Gross margin 5,063' in a table in millions), not a percentage; a
    count of shares below ``FEWEST_SHARES`` is in the table's scale ('Diluted weighted average common shares
    outstanding 1,618.4' in a table in millions)."""
    m = UNSCALED_LABEL_RE.search(label)
    if m is None:
        return False
    if figures and SHARE_COUNT_RE.search(label) and max(abs(v) for v in figures) < FEWEST_SHARES and \
            not UNSCALED_LABEL_RE.search(SHARE_COUNT_RE.sub(" ", label)):
        return False
    if m.group(0).lower() == "margin" and not UNSCALED_LABEL_RE.search(label[:m.start()] + label[m.end():]):
        return not any(abs(v) > 100 for v in figures)
    return True


# 'net operating revenues by operating segment as a percentage of Company net operating revenues': every figure
PERCENT_TABLE_RE = re.compile(r"(?<!\band\s)\bas\s+an?\s+(?:percent(?:age)?|%)\s+of\b(?![^.]*\b(?:dollars|amounts?)\b)|"
                              r"\bon\s+a\s+percent(?:age)?\s+basis\b", re.I)  # '... contribution on a percentage basis


def in_percent(rows: list, caption: str) -> list:
    """The rows of a table its caption says is in percent of a whole, whose first row prints its '%' (the others
    bare) and no figure of which passes 100 or prints a currency: every figure a percent."""
    figures = [f for c in rows for f in c.figures]
    if not rows or not PERCENT_TABLE_RE.search(caption[-200:]) or not all(f.percent for f in rows[0].figures) or \
            any(abs(f.value) > 100 or MONEY_SIGN_RE.search(f.written) for f in figures):
        return rows
    return [_as_percent(c) for c in rows]


MONEY_SIGN_RE = re.compile(r"[$€£¥]")


def _as_percent(cand):
    """``cand`` with every figure a percentage."""
    return replace(cand, figures=tuple(replace(f, percent=True) for f in cand.figures))


# a row's label naming a measure printed as a percentage ('Overhead ratio', 'Return on assets', 'Net charge-off rate')
RATIO_LABEL_RE = re.compile(r"\b(?:ratios?|rates?|returns?\s+on|margins?|yields?)\b", re.I)


def block_percent(rows: list) -> list:
    """The rows of a block (under one heading row) whose first row prints '%' on every figure: a ratio's row
    below it that prints its figures bare ('Return on common equity | 20 %' / 'Overhead ratio | 50') is in
    percent too, as a '$' printed only on a block's first row holds for the rows below it."""
    out, first = [], None
    for cand in rows:
        if first is None or cand.section != first.section:
            first = cand if cand.section and cand.figures and all(f.percent for f in cand.figures) else None
        bare = cand.figures and not any(f.percent or MONEY_SIGN_RE.search(f.written) for f in cand.figures)
        if first is not None and cand is not first and bare and RATIO_LABEL_RE.search(cand.label):
            cand = _as_percent(cand)
        out.append(cand)
    return out
