"""A yes/no that a figure's presence decides: something the company did in the year ('did X pay a cash dividend in
2021', 'did X repurchase any of its shares in 2022', 'did X spend on research and development') is the library
amount of it, printed for the year and not zero; a year without the row is left to the model."""

from __future__ import annotations

import re

from rag_assets.answer.question.criteria import Criterion
from rag_assets.answer.question.formulas import Parser, money, of_library
from rag_assets.answer.question.lemmas import word_lemma
from rag_assets.answer.question.phrases import read_metric

# the verb of a payment or a purchase, and what it is of ('pay a cash dividend to its shareholders': a dividend)
DONE_RE = re.compile(r"\b(?:did|does|has|have|had)\s+.+?\s+(?P<verb>pa(?:y|id)|declared?|distributed?|ma(?:k|d)e|"
                     r"repurchased?|b(?:uy|ought)\s+back|sp(?:end|ent)\s+(?:any\s+)?(?:money\s+|cash\s+)?on|"
                     r"invest(?:ed)?\s+in|incur(?:red)?)\s+(?:any\s+)?(?P<what>.+?)"
                     r"(?=\s+(?:to|in|during|for|over|at|as\s+of|between|from|under)\b|[?,.;]|$)", re.I)
# what a verb (by its lemma, any tense) does when its object names no amount ('repurchase shares', 'bought back
# stock'): the amount it spends
VERB_AMOUNTS = {word_lemma("repurchase"): "share repurchases", word_lemma("buy"): "share repurchases"}


def occurred(body: str, parser: Parser) -> Criterion | None:
    """'Did X pay a dividend in 2021': the dividends paid that year are not zero; None when the question asks no
    such thing or its object is no amount of the library."""
    m = DONE_RE.search(body)
    if m is None:
        return None
    node = read_metric(m.group("what"), parser)
    if node is None or not (of_library(node, parser.library) and money(node)):
        verb = word_lemma(m.group("verb").split()[0].lower())
        node = read_metric(VERB_AMOUNTS[verb], parser) if verb in VERB_AMOUNTS else None
    return Criterion("nonzero", node) if node is not None else None
