"""Where the figure the model copied is printed: in the candidate it chose or another, as written or rounded,
in the candidate's own scale or another (``find_figure``)."""

from __future__ import annotations

import math
import re

from rag_assets.answer.evidence.candidates import Candidate
from rag_assets.answer.evidence.figures import Figure


def _digits(text: str) -> str:
    return re.sub(r"[^\d.]", "", text).strip(".")


def _plain(digits: str) -> str:
    """Digits without a decimal part's trailing zeros: a copy '69.0' is the printed '69 percent'."""
    return re.sub(r"(\.\d*?)0+$", r"\1", digits).rstrip(".") if "." in digits else digits


def _rescaled(cand: Candidate, digits: str) -> list[Figure]:
    """The figures of ``cand`` that ``digits`` copies in another scale: the decimal point moved by a multiple of
    three places ('3.877' for '3,877'; never '38.77'), maybe rounded or cut to the copy's decimals ('17.694' for
    '17,694,642' in thousands), when the copy keeps three significant digits or more."""
    try:
        copied = float(digits)
    except ValueError:
        return []
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    if len(digits.replace(".", "").lstrip("0")) < 3:
        return []
    def copies(value: float) -> bool:  # rounded or cut to the copy's decimals
        return math.isclose(round(value, decimals), copied) or math.isclose(math.floor(value * 10 ** decimals + 1e-9) /
                                                                            10 ** decimals, copied)
    return [f for f in cand.figures if not f.percent and
            any(copies(abs(f.value) / 10 ** k) for k in (-9, -6, -3, 3, 6, 9))]


def find_figure(cands: list[Candidate], chosen: Candidate, written: str,
                notes: list[str], year: int | None = None) -> tuple[Candidate, Figure] | None:
    """The figure the model copied: in its chosen candidate, else in the one other candidate that prints it (the
    model misread the number in brackets; the best-ranked one if several print it); the asked ``year``'s figure of
    that row (default: the latest period's) when the copy is another column. None when no candidate prints it."""
    digits = _digits(written)
    if not digits:
        return None
    def holds(c: Candidate) -> list[Figure]:
        return [f for f in c.figures if _plain(_digits(f.written)) == _plain(digits)]
    owner = chosen if holds(chosen) else None
    figs = holds(chosen) or _rescaled(chosen, digits)
    if owner is None and figs:  # '3.877' for the printed '3,877': the model rescaled the figure
        owner = chosen
        notes.append(f"copied figure {written!r} is {figs[0].written!r} of candidate [{chosen.id}] in another "
                     "scale: the printed figure is used")
    if owner is None:
        others = [c for c in cands if holds(c)]
        if not others:
            notes.append(f"copied figure {written!r} is printed in no candidate")
            return None
        owner = others[0]
        figs = holds(owner)
        notes.append(f"copied figure {written!r} is printed in candidate [{owner.id}], not [{chosen.id}]: "
                     f"[{owner.id}] is used")
    fig, latest = figs[0], owner.latest
    asked = next((f for f in owner.figures if year and f.period == str(year)), None)
    if asked is not None or (year and fig.period and fig.period != str(year)):
        if asked is None:
            notes.append(f"the row has no figure for {year}: N/A")
            return None
        if asked is not fig:
            notes.append(f"figure {fig.written!r} is for {fig.period}; the asked year's ({asked.written!r}) is used")
        return owner, asked
    if fig.period and latest.period and fig.period != latest.period:
        notes.append(f"figure {fig.written!r} is for {fig.period}; the latest period {latest.period} "
                     f"({latest.written!r}) is used")
        fig = latest
    elif owner.total_last and not fig.period and fig is not latest:
        notes.append(f"figure {fig.written!r} is a segment's; the total column ({latest.written!r}) is used")
        fig = latest
    return owner, fig
