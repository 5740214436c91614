"""The plan of a question as one record: the period and unit read, the formula or figure criterion, where it came
from (Python's reader, or the model's plan checked by Python when the reader finds none and the configuration
asks for it), and the checks it passed or failed. It goes into the answer record, the lineage table, ``ask`` and
``rag-assets plan``."""

from __future__ import annotations

import re

from dataclasses import asdict, dataclass, field, replace

from rag_assets.answer.question.bases import asked_basis, without_basis
from rag_assets.answer.question.formulas import Item, items_of, money, of_library, show
from rag_assets.answer.question.metric_library import Library, fold
from rag_assets.answer.question.counts import asks_since_start, count_qualifiers, counted_noun
from rag_assets.answer.question.criteria import Criterion
from rag_assets.answer.question.criterion import criterion
from rag_assets.answer.question.filing_parts import called_segment, marked_part, named_part
from rag_assets.answer.question.nested_parts import criterion_with_part, is_region, nested_part, with_part
from rag_assets.answer.question.period import asked_period
from rag_assets.answer.question.owners import owned_parts, possessive, written_in_full
from rag_assets.answer.question.plan import MetricPlan, asks_down, asks_part, plan
from rag_assets.answer.question.text import as_read
from rag_assets.answer.question.unit import asked_unit, points_asked
from rag_assets.answer.question.wording import canonical, introduced


@dataclass
class QuestionPlan:
    kind: str
    years: tuple[int, ...] = ()
    quarter: int | None = None
    months: int = 0  # the columns asked: 3 a quarter, 6 or 9 months, -1 a year to date; 0 the fiscal year
    unit: str = ""
    percent: bool = False  # a percentage asked, in percent or points, or named ('growth', 'margin'): read as one
    points: int = 0  # a change asked in points: 1, or -1 asked as a fall ('how many bps did it contract'); 0 none
    part: str = ""  # the part of the company (a segment, a region) whose figure is asked; '' for the whole
    counted: str = ""  # what a count question counts ('full time employees'), printed beside its number
    qualifiers: tuple[str, ...] = ()  # what it says of them beyond their noun ('united', 'states'), as folded words
    basis: str = ""  # the stated basis of a non-GAAP figure asked ('currency', 'organic': ``bases``); '' reported
    since_start: bool = False  # a count asked since a start ('since program inception'), not one year's
    segment: bool = False  # the question calls its part a segment or a division ('its Wireless segment')
    source: str = ""  # rules, model, or '' (no plan: the readers answer as printed)
    formula: str = ""
    how: str = ""
    checks: list[str] = field(default_factory=list)
    model_written: list[dict] = field(default_factory=list)
    model_calls: list = field(default_factory=list, repr=False)
    metric: MetricPlan | None = field(default=None, repr=False)
    criterion: Criterion | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        out = asdict(self)
        out.pop("metric"), out.pop("criterion"), out.pop("model_calls")
        return out

    def lines(self) -> list[str]:
        months = {0: "", 3: "", -1: ", the year to date"}.get(self.months, f", {self.months} months")
        period = ", ".join(map(str, self.years)) + (f" (Q{self.quarter}{months})" if self.quarter else "") \
            or "none named"
        out = [f"kind: {self.kind}", f"period: {period}", f"unit: {self.unit}"] + \
            ([f"part of the company: {self.part}"] if self.part else []) + \
            ([f"counts: {self.counted}" + (f" ({' '.join(self.qualifiers)})" if self.qualifiers else "") +
              (", since a start (no one year's)" if self.since_start else "")]
             if self.counted else []) + \
            ([f"basis: {self.basis} (read as printed: no statement prints it, no reported figure gives it)"]
             if self.basis else [])
        out.append(f"plan ({self.source}): {self.formula} [{self.how}]" if self.source else
                   "plan: none (read as printed by the number, yes/no or names reader)")
        out += [f"check: {c}" for c in self.checks]
        return out


def plan_question(question: str, kind: str, library: Library, llm=None) -> QuestionPlan:
    """``question``'s plan: Python's reader, then (number questions naming a year and the whole company, ``llm``
    given) the model's plan checked by Python. A part of the company (a segment, a region, per share, adjusted)
    is never planned by the model either: the company's statements would give its total."""
    question = as_read(question)
    text = canonical(question)
    period = asked_period(text)
    unit = asked_unit(question)
    out = QuestionPlan(kind, period.years, period.quarter, period.months, unit.words,
                       unit.percent or unit.basis_points or unit.named_percent,
                       (-1 if asks_down(text) else 1) if points_asked(question) else 0)
    basis = asked_basis(question, library)
    out.basis = basis.name if basis else ""
    if kind == "number":
        out.counted = "" if unit.percent else counted_noun(text)  # 'what % of the workforce
        out.since_start = bool(out.counted) and asks_since_start(question)
        out.metric = plan(question if basis is None else without_basis(question, basis), library)
        node = out.metric.node if out.metric is not None else None
        amount = of_library(node, library) and money(node)  # 'how many shares did X repurchase': never the amount
        as_written = isinstance(node, Item) and not of_library(node, library)  # 'the number of stores X operated'
        if out.counted and (amount or as_written):  # counted as 'how many stores', not read as a row so named
            out.metric = None
        if out.metric is None and llm is not None and period.target is not None and not asks_part(text) and \
                basis is None:
            from rag_assets.answer.question.model_plan import model_plan

            written = model_plan(llm, question, library)
            out.model_written, out.checks, out.model_calls = written.written, written.problems, written.calls
            out.metric = written.plan
            if written.plan is not None:
                out.source = "model"
        elif out.metric is not None:
            out.source = "rules"
        if out.metric is not None:
            out.formula, out.how = show(out.metric.node), out.metric.how
            out.part = next((i.part for i in items_of(out.metric.node) if i.part), "")
            out.checks.append("the dimension fits the unit asked")
        if basis is not None:  # its part is the plan's; its figure is read as printed, never computed
            out.metric, out.source, out.formula, out.how, out.checks = None, "", "", "", []
    elif kind == "boolean":
        out.criterion = criterion(introduced(question), library) if basis is None else None
        if out.criterion is not None:
            c = out.criterion
            out.source = "rules"
            out.how = c.how
            out.formula = _criteria_shown(c)
    return out


def company_plan(question: str, kind: str, written: tuple[str, ...], library: Library, llm=None,
                 own_names: tuple[str, ...] = (), parts: tuple[str, ...] = ()) -> QuestionPlan:
    """``question``'s plan, the company as ``written`` (longest first) owning what follows it ('Verizon Consumer
    segment': Verizon's; not the rest of one of its ``own_names``: 'JPMorgan Chase'); a plan that still reads
    the company's name into a row ('costco membership fees') is read again with the company as the row's
    owner; one that reads no part of the company where the question names one of the ``parts`` its filing
    names, without a part noun ('revenue from Zephyr'), is read again with that part (``filing_parts``)."""
    written = written_in_full(question, written, own_names)
    question = _possessive_written_out(question, written)
    asked = owned_parts(question, written, library)
    out = plan_question(asked, kind, library, llm)
    if _reads_company(f"{out.formula} {out.part}", written):
        asked = possessive(asked, written)
        out = plan_question(asked, kind, library, llm)
    out = _within_filing_part(_with_filing_part(out, asked, written, library, parts), asked, written, library, parts)
    out.segment = called_segment(asked, out.part) and not is_region(out.part, library)
    if out.counted:  # 'how many people did X employ in the United States': what the count is of, without X
        named = "|".join(re.escape(w) for w in written)
        out.qualifiers = count_qualifiers(re.sub(rf"(?:{named})(?:['’]s?)?", " ", question) if named else question,
                                          out.counted)
    return out


def _possessive_written_out(question: str, written: tuple[str, ...]) -> str:
    """``question`` with the company's possessive written with an apostrophe alone ("General Mills' net sales",
    "Advanced Micro Devices' revenue") written out as "'s", so that what follows is read as the company's and its
    name is no part of it."""
    for name in written:
        if name.endswith("s"):
            question = re.sub(rf"(?<![\w&]){re.escape(name)}['’](?=\s)", lambda m: m.group(0) + "s", question)
    return question


def _with_filing_part(out: QuestionPlan, asked: str, written: tuple[str, ...], library: Library,
                      parts: tuple[str, ...]) -> QuestionPlan:
    """``out``, or the plan of ``asked`` read again with the part of the company it names as the filing names it
    (one of ``parts``), when ``out`` reads no part, or only words of that part's name ('transportation' and
    'electronics' of 'Transportation and Electronics'), and the plan read again reads that one."""
    name = named_part(asked, parts, written) if out.kind in ("number", "boolean") else ""
    if not name or _part_of(out) and not _inside(out, name):
        return out
    again = plan_question(marked_part(asked, name, written), out.kind, library)
    if _part_of(again) != fold(name):
        return out
    again.checks.append(f"'{name}' is a part of the company its filing names")
    return again


def _inside(out: QuestionPlan, name: str) -> bool:
    """Each part the plan reads is words of the filing's part ``name`` ('transportation' and 'electronics' of
    'Transportation and Electronics'), and none is the whole of it."""
    whole = f" {fold(name)} "
    read = {i.part for i in _items(out) if i.part}
    return bool(read) and all(f" {p} " in whole and p != fold(name) for p in read)


def _within_filing_part(out: QuestionPlan, asked: str, written: tuple[str, ...], library: Library,
                        parts: tuple[str, ...]) -> QuestionPlan:
    """``out`` with its part read as a region of the filing's part the question writes ('U.S. Pharmaceutical
    sales': 'pharmaceutical > us', ``nested_parts``), when it is one."""
    read = _part_of(out)
    part = nested_part(read, named_part(asked, parts, written), library) if read and parts else ""
    if not part:
        return out
    if out.metric is not None:
        out.metric = replace(out.metric, node=with_part(out.metric.node, read, part))
        out.formula = show(out.metric.node)
    if out.criterion is not None:
        out.criterion = criterion_with_part(out.criterion, read, part)
        out.formula = _criteria_shown(out.criterion)
    if out.part:
        out.part = part
    out.checks.append(f"'{part}': a region of a part its filing names")
    return out


def _items(out: QuestionPlan) -> list[Item]:
    """Every item of the plan's formula or of its figure criterion."""
    if out.criterion is not None:
        c = out.criterion
        return [i for one in c.each or (c,) for n in (one.now, one.before) if n is not None for i in items_of(n)]
    return items_of(out.metric.node) if out.metric is not None else []


def _part_of(out: QuestionPlan) -> str:
    """The part of the company a plan reads: its formula's, or its figure criterion's."""
    if out.criterion is not None:
        return next((i.part for i in _items(out) if i.part), "")
    return out.part


def _reads_company(formula: str, written: tuple[str, ...]) -> bool:
    """A plan's formula reads the company's name into a row's words or a part ('costco membership fees 2021',
    'revenue [american express] 2022')."""
    return any(re.search(rf"(?<![\w&]){re.escape(fold(name))}(?![\w&])", fold(formula)) for name in written if fold(name))


def _criteria_shown(c: Criterion) -> str:
    return c.joined([_shown(one) for one in c.each or (c,)])


def _shown(c: Criterion) -> str:
    return show(c.now) + (f" vs {show(c.before)}" if c.before is not None else "") + \
        (f" against {c.bound:g}" if c.bound else "")
