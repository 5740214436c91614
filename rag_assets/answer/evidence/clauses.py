"""The clause of a figure in a sentence: the words that say what the figure is of ('we repurchased 20 million
common shares', '66% are represented by a union'), scored by the words a question asks of it."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.figures import TEXT_FIGURE_RE
from rag_assets.index.bm25 import tokenize

# words naming what a figure is not, to the next comma: '17,500 located outside of the U.S.' is no count 'in the U.S.'
COMPLEMENT_RE = re.compile(r"\b(?:outside|other\s+than|excluding|except)\b([^,;]*)", re.I)


# a model's or product's name of letters and digits ('C-130J', 'F-35', 'A350'), one word without its hyphen
DESIGNATOR_RE = re.compile(r"\b[a-z]{1,4}-?\d+[a-z]*\b")


def _stems(text: str) -> set[str]:
    """The stems of ``text``'s words, a designator one word ('F-35' is 'f35', never a word 'f' too: one name
    asked is one word named)."""
    low = text.lower()
    words = re.findall(r"[a-z]+", DESIGNATOR_RE.sub(" ", low))
    return set(tokenize(" ".join(words))) | {d.replace("-", "") for d in DESIGNATOR_RE.findall(low)}


def clause_of(sentence: str, written: str, start: int = 0, to_comma: bool = False) -> tuple[str, str]:
    """(the words leading to the figure ``written`` from the last comma, 'and' or figure before it; the words from
    it to the next figure, or to the next comma too with ``to_comma``, short of the last 'and' before a next figure:
    'and adjusted EPS of' leads to the figure after it, never the one before); ('', '') when it is not printed."""
    at = sentence.find(written, start)
    if at < 0:
        return "", ""
    after = TEXT_FIGURE_RE.search(sentence, at + len(written))
    clause = sentence[at: after.start() if after else None]
    tail = clause[len(written):]
    if after:  # the last 'and' before the next figure opens that figure's clause ('... and adjusted EPS of $2.35')
        tail = re.split(r"\band\b(?!.*\band\b)", tail, flags=re.S)[0]
    return re.split(r"[,;\d]|\band\b", sentence[max(0, at - 60): at])[-1], \
        re.split(r"[,;]", tail)[0] if to_comma else written + tail


def clause_names(sentence: str, written: str, wanted: set[str], start: int = 0) -> int:
    """How many of ``wanted`` the clause of the figure ``written`` names, by their stems: twice each word leading
    to it (its verb: 'we repurchased 20 million'), once each from it to the next figure ('... remaining under the
    repurchase program'), less those named after 'outside', 'other than' or 'excluding' to the next comma (their
    complement: '17,500 located outside of the U.S.') unless that word is asked too ('how many warehouses outside
    of the U.S.')."""
    lead, clause = clause_of(sentence, written, start)
    asked = _stems(" ".join(wanted))
    if asked & _stems(" ".join(m.group(0).split()[0] for m in COMPLEMENT_RE.finditer(f"{lead} {clause}"))):
        return 2 * len(asked & _stems(lead)) + len(asked & _stems(clause))  # 'outside' asked: its words are wanted
    other = " ".join(m.group(1) for m in COMPLEMENT_RE.finditer(f"{lead} {clause}"))
    named = lambda text: len(asked & _stems(COMPLEMENT_RE.sub(" ", text)))  # noqa: E731
    return 2 * named(lead) + named(clause) - len(asked & _stems(other))


def words_named(sentence: str, written: str, wanted: set[str]) -> int:
    """How many of ``wanted`` (by their stems) the figure's own clause names, from the words leading to it to the
    next comma or figure after it ('an estimated 66% are represented by a union or works council')."""
    return len(_stems(" ".join(wanted)) & _stems(" ".join(clause_of(sentence, written, to_comma=True))))


def distinct_names(sentence: str, figures: list[str], wanted: set[str]) -> list[int]:
    """For each figure of a sentence that lists several in parallel ('91% in the U.S. and Canada and 89%
    worldwide'), how many of ``wanted`` its own words after it name (to the next figure) that no other's do: what
    sets it apart from the others the sentence lists."""
    asked = _stems(" ".join(wanted))
    after, start = [], 0
    for written in figures:
        at = sentence.find(written, start)
        after.append(asked & _stems(clause_of(sentence, written, start)[1][len(written):]) if at >= 0 else set())
        start = at + len(written) if at >= 0 else start
    return [len(own - set().union(*(o for o in after if o is not own))) for own in after]
