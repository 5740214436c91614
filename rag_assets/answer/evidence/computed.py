"""Compute a metric from cited figures: each operand of the plan's formula is found by Python
(``operands.find_operand``), the formula is evaluated, the result written in the unit asked. Every operand
keeps its page; a missing operand makes the answer N/A, never a guess."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from rag_assets.answer.question.formulas import (FormulaError, Item, Node, Op, Parser, evaluate, items_of, money,
                                                 of_months, of_part, read_in_percent, show, substitute)
from rag_assets.answer.question.metric_library import Library
from rag_assets.answer.question.period_spans import spans_of
from rag_assets.answer.question.plan import MetricPlan
from rag_assets.answer.evidence.numbers import NA
from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.part_sections import parts_of, side_by_side
from rag_assets.answer.evidence.quarter_columns import ORDINAL_QUARTER
from rag_assets.answer.evidence.operands import Operand, SourcePage, find_operand, label_match
from rag_assets.answer.evidence.rows import year_figure
from rag_assets.answer.question.unit import AskedUnit
from rag_assets.answer.evidence.operand_scales import STATEMENTS, same_scale, statement_scale

OPERAND_PAGES = 8  # pages retrieval adds per operand and report, after the item's statement pages


@dataclass
class Computation:
    value: float | bool | str = NA
    formula: str = ""
    how: str = ""
    operands: list[Operand] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unfound: list[Item] = field(default_factory=list, repr=False)  # the operands missing, as the plan's items

    def to_dict(self) -> dict:
        return {"value": self.value, "formula": self.formula, "how": self.how, "missing": self.missing,
                "operands": [o.to_dict() for o in self.operands]}

    @property
    def references(self) -> list[dict]:
        seen = dict.fromkeys((o.sha1, o.page_index) for o in self.operands)
        return [{"pdf_sha1": s, "page_index": p} for s, p in seen]


def source_pages(retriever, sha1s, statement: str | tuple[str, ...], query: str | tuple[str, ...],
                 lexicon, count: int = OPERAND_PAGES) -> list[SourcePage]:
    """The pages typed as ``statement`` (or any of several types) in each report, then the ``count`` pages
    retrieval ranks first for ``query`` (for each of several queries in turn)."""
    out, seen = [], set()
    kinds = (statement,) if isinstance(statement, str) else statement
    for sha1 in sha1s:
        ix = retriever.index(sha1)
        typed = [p for kind in kinds if kind for p in ix.typed_pages(lexicon).get(kind, []) if (sha1, p) not in seen]
        for p in dict.fromkeys(typed):
            seen.add((sha1, p))
            out.append(SourcePage(sha1, p, ix.pages.get(p, ""), True, parts_of(retriever, sha1)))
    for sha1, one in ((s, q) for q in ((query,) if isinstance(query, str) else query) for s in sha1s):
        ranked, _ = retriever.pages(sha1, one, count)
        for p in ranked:
            if (sha1, p.page_index) not in seen:
                seen.add((sha1, p.page_index))
                out.append(SourcePage(sha1, p.page_index, p.text, False, parts_of(retriever, sha1)))
    return out


def find_all(nodes, comp: Computation, retriever, sha1s, library: Library, lexicon, depth: int = 0,
              by_year: dict[int, tuple[str, ...]] | None = None, quarters: dict[str, int] | None = None,
              given: dict[Item, Operand] | None = None):
    """``nodes`` with every operand found into ``comp`` (or its name into ``comp.missing``): ``given`` (read by
    the number reader), else in ``sha1s``, else in the company's other reports that print its year (``by_year``:
    a span longer than one report's columns), else an item no row prints replaced by the library's formula for
    it (``otherwise``) where all of that formula's operands are found; None when an operand is missing.
    ``quarters``: each report's own quarter (0 an annual report, whose columns are years)."""
    pages: dict[tuple, list[SourcePage]] = {}  # an item's pages of some reports serve all its years
    swaps: dict[Item, Node] = {}
    for item in dict.fromkeys(i for node in nodes for i in items_of(node)):
        spec = library.items.get(item.name)
        found = (given or {}).get(item) or \
            find_operand(item, spec, _item_pages(pages, item, spec, retriever, sha1s, lexicon),
                         library.other_entities, library.item_names, quarters)
        for other in () if found else (by_year or {}).get(item.year, ()):  # the company's other reports of the year
            found = find_operand(item, spec, _item_pages(pages, item, spec, retriever, (other,), lexicon),
                                 library.other_entities, library.item_names, quarters)
            if found is not None:
                break
        if found is not None:
            comp.operands.append(found)
        elif (alt := _otherwise(item, spec, comp, retriever, sha1s, library, lexicon, depth, by_year, quarters)
              or _complement(item, comp, retriever, sha1s, library, lexicon, depth, by_year, quarters)
              or _of_spans(item, comp, retriever, sha1s, library, lexicon, depth, by_year, quarters)) is not None:
            swaps[item] = alt
        else:
            comp.missing.append(show(item))
            comp.unfound.append(item)
    if depth == 0 and comp.missing:
        comp.notes.append(f"no statement row prints {', '.join(comp.missing)}: N/A")
    if comp.missing:
        return None
    if depth == 0:  # an operand of a formula and of its items' formulas is one figure
        firsts = {}
        for o in comp.operands:
            firsts.setdefault(_key(o), o)
        amounts = {i.name for node in nodes for i in items_of(node) if i.amount}  # rows named like ratios
        comp.operands = statement_scale(same_scale(list(firsts.values()), comp.notes), retriever, library,
                                         lexicon, comp.notes, amounts)
    return [substitute(node, swaps) for node in nodes]


QUARTER_WORDS = {q: word for word, q in ORDINAL_QUARTER.items() if word.isalpha()}  # 3 -> 'third'


def _item_pages(cache: dict, item: Item, spec, retriever, sha1s, lexicon) -> list[SourcePage]:
    """Where ``item`` is looked for in the reports ``sha1s``: its statement's pages, then the pages retrieval ranks
    for its name and for its rows; searched once per item and reports (``cache``)."""
    key = (item.name, item.part, item.quarter, tuple(sha1s))
    if key not in cache:
        queries = (item.name, " ".join(spec.labels[:2])) if spec else (item.name,)
        if item.part:  # a part's rows: its segment tables and its own results, then the statements
            queries = tuple(f"{item.part}{noun} {q}" for noun in ("", " segment") for q in queries)
        pages = source_pages(retriever, sha1s, spec.statement if spec else STATEMENTS, queries, lexicon)
        if item.part:  # and the pages that print the parts side by side (a segment note the ranking missed)
            pages += _side_by_side(retriever, sha1s, {(p.sha1, p.page_index) for p in pages})
        if item.quarter:  # a table of quarters, deeper in the ranking: its header names them ('1Q23', 'Q1 2023')
            quarter = f"{item.name} {item.quarter}Q{item.year % 100:02d} Q{item.quarter} {item.year} " \
                      f"{QUARTER_WORDS[item.quarter]} quarter quarterly"  # 'Third Quarter', 'Quarterly Data' too
            seen = {(p.sha1, p.page_index) for p in pages}
            pages += [p for p in source_pages(retriever, sha1s, (), quarter, lexicon, 2 * OPERAND_PAGES)
                      if (p.sha1, p.page_index) not in seen]
        cache[key] = pages
    return cache[key]


def _side_by_side(retriever, sha1s, seen: set) -> list[SourcePage]:
    out = []
    for sha1 in sha1s:
        ix, parts = retriever.index(sha1), parts_of(retriever, sha1)
        out += [SourcePage(sha1, p, ix.pages.get(p, ""), False, parts)
                for p in side_by_side(retriever, sha1) if (sha1, p) not in seen]
    return out


def _otherwise(item: Item, spec, comp: Computation, retriever, sha1s, library: Library, lexicon, depth: int,
               by_year: dict[int, tuple[str, ...]] | None = None, quarters: dict[str, int] | None = None):
    """The library's formula for ``item`` with its operands found into ``comp``, or None (no formula, too deep,
    an operand missing: ``comp`` unchanged)."""
    if spec is None or not spec.otherwise or depth >= 2:
        return None
    try:
        alt = of_part(Parser(library, item.year).parse(spec.otherwise), item.part)  # a part's: of its rows
        alt = of_months(alt, item.months, item.quarter)  # a quarter's: of the quarter's columns
    except FormulaError:
        return None
    return _found_as(alt, comp, retriever, sha1s, library, lexicon, depth, by_year, quarters,
                     f"no statement row prints {item.name} {item.year}")


def _complement(item: Item, comp: Computation, retriever, sha1s, library: Library, lexicon, depth: int,
                by_year: dict[int, tuple[str, ...]] | None = None, quarters: dict[str, int] | None = None):
    """A part no row prints as the whole less the part it complements (``Library.complements``: international
    sales are net sales less United States sales), with both operands found into ``comp``; None otherwise."""
    others = dict(library.complements).get(item.part, ()) if depth < 2 else ()
    for other in others:
        alt = Op("-", replace(item, part=""), replace(item, part=other))
        found = _found_as(alt, comp, retriever, sha1s, library, lexicon, depth, by_year, quarters,
                          f"no row prints {show(item)}")
        if found is not None:
            return found
    return None


def _of_spans(item: Item, comp: Computation, retriever, sha1s, library: Library, lexicon, depth: int,
              by_year: dict[int, tuple[str, ...]] | None = None, quarters: dict[str, int] | None = None):
    """A quarter or six or nine months no column prints, from the spans the filings print (``spans_of``)."""
    for alt in spans_of(item) if depth < 2 else ():
        found = _found_as(alt, comp, retriever, sha1s, library, lexicon, depth, by_year, quarters,
                          f"no column prints {show(item)}")
        if found is not None:
            return found
    return None


def _found_as(alt: Node, comp: Computation, retriever, sha1s, library: Library, lexicon, depth: int,
              by_year: dict[int, tuple[str, ...]] | None, quarters: dict[str, int] | None, why: str):
    """``alt`` (a formula standing for an item no row prints) with its operands found into ``comp`` and ``why``
    noted, or None when one is missing (``comp`` unchanged)."""
    sub = Computation()
    resolved = find_all([alt], sub, retriever, sha1s, library, lexicon, depth + 1, by_year, quarters)
    if resolved is None:
        return None
    comp.operands += sub.operands
    comp.notes.append(f"{why}: computed as {show(resolved[0])}")
    return resolved[0]


def node_value(node, comp: Computation) -> float | None:
    """``node`` evaluated over ``comp``'s operands; None (noted) when it is not a finite number."""
    values = {_key(o): o.value for o in comp.operands}
    try:
        result = evaluate(node, {item: values[(item.name, item.year, item.part, item.months, item.quarter)]
                                 for item in items_of(node)})
    except (ZeroDivisionError, OverflowError, ValueError) as exc:
        comp.notes.append(f"cannot compute {show(node)}: {exc}: N/A")
        return None
    if isinstance(result, complex) or not math.isfinite(result):
        comp.notes.append(f"{show(node)} is not a finite number: N/A")
        return None
    return result


def compute(plan: MetricPlan, unit: AskedUnit, retriever, sha1s, library: Library, lexicon,
            by_year: dict[int, tuple[str, ...]] | None = None, quarters: dict[str, int] | None = None,
            given: dict[Item, Operand] | None = None) -> Computation:
    """Find every operand of ``plan`` in the reports ``sha1s`` (a year they do not print in ``by_year``'s reports
    of it; ``given``: operands already read), evaluate, and write the result as ``unit`` asks."""
    comp = Computation(formula=show(plan.node), how=plan.how)
    resolved = find_all([plan.node], comp, retriever, sha1s, library, lexicon, by_year=by_year, quarters=quarters,
                         given=given)
    if resolved is None:
        return comp
    node = resolved[0]
    comp.formula = show(node)
    result = node_value(node, comp)
    if result is None:
        return comp
    printed = isinstance(node, Item) and read_in_percent(node)  # 'return on common equity 20 %': as printed
    comp.value = unit.amount(result) if money(node) else unit.ratio(result, printed)
    comp.notes.append(f"computed {comp.formula} = {result:.6g} ({plan.how}); answered {comp.value} "
                      f"({unit.words})")
    if plan.printed and isinstance(node, Op):  # the ratio as the filing prints it, when it agrees with its rows
        parts = {i.part for i in items_of(node) if i.part}  # a part's ratio: its own results first
        queries = tuple(f"{part} {plan.printed}" for part in parts) or plan.printed
        pages = _operand_pages(comp, retriever) + source_pages(retriever, sha1s, () if parts else "income_statement",
                                                              queries, lexicon)  # beside its rows first
        metric = library.metric_is(plan.printed)  # its other names print it too ('Gross profit margin')
        names = tuple(dict.fromkeys((plan.printed, *(metric.names if metric else ()))))
        down = _latest(node.right) > _latest(node.left)  # 'by how much did it fall': the earlier less the later
        pair = (node.left, node.right) if down else (node.right, node.left)
        printed = printed_points(plan, unit, pages, tuple(node_value(n, comp) for n in pair), names, down)
        return printed or comp
    return comp


def _operand_pages(comp: Computation, retriever) -> list[SourcePage]:
    """The pages the computation's operands were read on, each once."""
    at = dict.fromkeys((o.sha1, o.page_index) for o in comp.operands)
    return [SourcePage(sha1, p, retriever.index(sha1).pages.get(p, ""), False) for sha1, p in at]


POINTS_CHECK = 0.005  # a printed ratio within half a point of the one computed from the company's rows is the company's


def _latest(node) -> int:
    return max(i.year for i in items_of(node))


def printed_points(plan: MetricPlan, unit: AskedUnit, pages: list[SourcePage],
                   computed: tuple[float | None, float | None], names: tuple[str, ...] = (),
                   down: bool = False) -> Computation | None:
    """A change in points of a ratio the filing prints in percent ('Gross margin 44.7% 43.8%', in each year's
    column or quarter's): the printed figures' difference, as the filing's words state it ('increased 90 basis
    points'); the rows give 83. Only a row whose figures are within half a point of the ratio ``computed`` from
    the company's rows (earlier, later year) is the company's; None when no row of the ratio's name (``names``:
    default the plan's) prints both so. A fall asked (``down``) is the earlier figure less the later one."""
    first, last = min(i.year for i in items_of(plan.node)), max(i.year for i in items_of(plan.node))
    at = {i.year: i for i in items_of(plan.node)}  # each year's months and quarter: its column
    names = tuple(f"{n}{tail}" for n in names or (plan.printed,) for tail in ("", " percentage", " %"))
    for page in pages:
        for cand in page_candidates(page.text, page.sha1, page.page_index):
            if cand.source != "row" or label_match(cand.label, names) < 0.9:  # every word; checked by the rows below
                continue
            figs = [year_figure(cand, y, at[y].months, -1, at[y].quarter, percent=True) for y in (first, last)]
            if None in figs or any(c is None or abs(f.value / 100 - c) > POINTS_CHECK for f, c in zip(figs, computed)):
                continue
            ops = [Operand(plan.printed, y, f.value / 100, f.written, cand.label, cand.sha1, cand.page_index, 1.0, "")
                   for y, f in zip((first, last), figs)]
            (a, b), (fa, fb) = ((first, last), figs) if down else ((last, first), figs[::-1])
            comp = Computation(formula=f"{plan.printed} {a} - {plan.printed} {b} (as printed)", how=plan.how,
                               operands=ops)
            comp.value = unit.ratio((ops[0].value - ops[1].value) * (1 if down else -1))
            comp.notes.append(f"read as printed: {fa.written} in {a} less {fb.written} in {b} "
                              f"({cand.label!r}, page {cand.page_index}); answered {comp.value} ({unit.words})")
            return comp
    return None


def _key(o: Operand) -> tuple[str, int, str, int]:
    return (o.item, o.year, o.part, o.months, o.quarter)


def describe(computation: dict | None, names: dict[str, str] | None = None) -> list[str]:
    """A computation as lines a person follows to the figure that made an answer: the formula, then each
    operand (item, year, the figure as printed, its row and page), then the operands not found."""
    if not computation:
        return []
    lines = [f"computed: {computation['formula']} ({computation['how']}) = {computation['value']}"]
    for o in computation.get("operands", []):
        where = f"page {o['page_index']} of {(names or {}).get(o['sha1'], o['sha1'][:12])}"
        scale = f" x {o['scale']:g}" if o.get("scale", 1.0) != 1.0 else ""
        chosen = ", read by the number reader" if o.get("chosen") else ""
        item = show(Item(o["item"], o["year"], months=o.get("months", 0), quarter=o.get("quarter", 0)))
        lines.append(f"  {item} = {o['written']}{scale} ('{o['label'][:60]}', {where}{chosen})")
    if computation.get("missing"):
        lines.append(f"  not found: {', '.join(computation['missing'])}")
    return lines
