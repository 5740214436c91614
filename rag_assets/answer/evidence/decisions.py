"""A yes/no from figures: the criterion's operands found by Python as a computation's are (``computed``), compared
by the test the question names (up, down, more than a bound, ...), every operand cited; N/A when one is missing
(the model judges then)."""

from __future__ import annotations

from rag_assets.answer.question.criteria import Criterion
from rag_assets.answer.question.formulas import Item, show
from rag_assets.answer.question.metric_library import Library
from rag_assets.answer.evidence.computed import Computation, find_all, node_value
from rag_assets.answer.evidence.numbers import NA
from rag_assets.answer.evidence.operands import Operand


def decide(crit: Criterion, retriever, sha1s, library: Library, lexicon,
           by_year: dict[int, tuple[str, ...]] | None = None, quarters: dict[str, int] | None = None,
           given: dict[Item, Operand] | None = None) -> Computation:
    """A yes/no from figures: True/False when every operand was found (or ``given``), else N/A (the model judges
    then). A criterion asked of every year (``crit.each``) is True when it holds in each."""
    if crit.each:
        return _decide_each(crit, retriever, sha1s, library, lexicon, by_year, quarters, given)
    nodes = [crit.now] + ([crit.before] if crit.before is not None else [])
    comp = Computation(formula=" vs ".join(show(n) for n in nodes), how=crit.how)
    resolved = find_all(nodes, comp, retriever, sha1s, library, lexicon, by_year=by_year, quarters=quarters,
                         given=given)
    if resolved is None:
        return comp
    comp.formula = " vs ".join(show(n) for n in resolved)
    now = node_value(resolved[0], comp)
    before = node_value(resolved[1], comp) if crit.before is not None else 0.0
    if now is None or before is None:
        return comp
    against = before if crit.before is not None else crit.bound
    change = (now - before) / abs(before) if crit.before is not None and before else 0.0
    comp.value = {"positive": now > 0, "negative": now < 0, "nonzero": now != 0, "up": now > before,
                  "down": now < before, "more": now > against, "less": now < against, "at_least": now >= crit.bound,
                  "up_by": change > crit.bound, "down_by": -change > crit.bound, "up_less": change < crit.bound,
                  "down_less": -change < crit.bound}[crit.test]
    rule = f" (yes at {crit.bound:g} or more: {crit.rule})" if crit.test == "at_least" else \
        f" ({crit.test} {crit.bound:g})" if crit.test in ("more", "less", "up_by", "down_by", "up_less", "down_less") \
        and crit.bound else ""
    comp.notes.append(f"decided from figures: {comp.formula} = {now:.6g}"
                      + (f" vs {before:.6g}" if crit.before is not None else "") + f"{rule} -> {comp.value}")
    return comp


def _decide_each(crit: Criterion, retriever, sha1s, library: Library, lexicon,
                 by_year: dict[int, tuple[str, ...]] | None, quarters: dict[str, int] | None = None,
                 given: dict[Item, Operand] | None = None) -> Computation:
    """Every span's criterion decided (each year's, or each quarter's); True when all hold, N/A when a figure is
    missing; ``any_of``: True when one holds, else N/A when a figure is missing."""
    parts = [decide(one, retriever, sha1s, library, lexicon, by_year, quarters, given) for one in crit.each]
    comp = Computation(formula=crit.joined([p.formula for p in parts]), how=crit.how)
    for p in parts:
        comp.operands += [o for o in p.operands if o not in comp.operands]
        comp.missing += p.missing
        comp.unfound += [i for i in p.unfound if i not in comp.unfound]
        comp.notes += p.notes
    values = [p.value for p in parts]
    if crit.any_of:
        comp.value = True if True in values else NA if NA in values else False
    else:
        comp.value = NA if NA in values else all(v is True for v in values)
    return comp
