"""Words as one form each: a content word's stem, whatever its inflection, and the noun made of a verb as the
verb ('payment' as 'pay'). How a row label or a question's phrase is compared with a name in any wording."""

from __future__ import annotations

from functools import lru_cache

import Stemmer

LINK_WORDS = frozenset({"of", "for", "to", "on", "the", "and", "in", "from"})
IRREGULAR = {"paid": "pay", "sold": "sell", "held": "hold", "bought": "buy", "spent": "spend", "made": "make",
             "lent": "lend", "incurred": "incur", "borne": "bear", "paying": "pay"}
_STEMMER = Stemmer.Stemmer("english")


@lru_cache(maxsize=4096)
def lemmas(label: str) -> frozenset[str]:
    """A label's content words as one form each, whatever their order, inflection or the noun made of a verb:
    'payment of dividends', 'dividend payments' and 'dividends paid' are alike ({dividend, pay})."""
    out = set()
    for word in label.split():
        if word in LINK_WORDS:
            continue
        out.add(word_lemma(word))
    return frozenset(out)


def word_lemma(word: str) -> str:
    """One word's lemma (see ``lemmas``)."""
    stem = _STEMMER.stemWord(IRREGULAR.get(word, word))
    return stem[:-4] if stem.endswith("ment") and len(stem) >= 7 else stem
