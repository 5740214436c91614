"""Read a number: Python lists the figures of the ranked pages that name the asked metric, the model picks one
(or none), and Python checks the pick: the figure is printed in the candidate, it is the latest period's, its
scale is the one its table declares, its kind (percentage or amount) and currency are the ones asked."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rag_assets.answer.evidence.candidates import Candidate, find_candidates
from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.evidence.figures import Figure
from rag_assets.answer.evidence.counts import count_candidates, counts_a_whole, qualified
from rag_assets.answer.evidence.numbers import NA
from rag_assets.answer.evidence.part_sections import names_the_part, part_section
from rag_assets.answer.evidence.units import asks_percent
from rag_assets.answer.question.bases import names_basis
from rag_assets.answer.question.metric_library import BasisSpec
from rag_assets.answer.readers.copied_figure import find_figure
from rag_assets.answer.readers.basis_pick import (basis_column, basis_pick, names_basis_anywhere,
                                                 parts_and_regions, whole_company)
from rag_assets.answer.readers.figure_periods import of_months, of_quarter, of_span, other_quarters, span_fits
from rag_assets.answer.readers.metric_words import CHANGE_WORDS_RE, metric_query, metric_text
from rag_assets.answer.readers.line_checks import (Asked, currency_problem, exacter_clause, exacter_row, figure_problem,
                                                   fitting, line_words, own_words, p_states, states_metric,
                                                   twin_row)
from rag_assets.answer.readers.stated_changes import stated_change
from rag_assets.answer.readers.sure_pick import sure_pick
from rag_assets.llm.clients import LLMClient
from rag_assets.llm.structured import StructuredResult, structured_call
from rag_assets.llm.prompts import build_messages
from rag_assets.retrieval.query import Lexicon


@dataclass
class NumberReading:
    value: float | str = NA
    candidate: Candidate | None = None
    candidates: list[Candidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    result: StructuredResult | None = None
    error: str | None = None
    p_yes: float | None = None  # the model's probability that the chosen line states the metric (verify)
    percent: bool = False  # the figure read is a percentage (no scale to write it in)
    points: bool = False  # the figure read is a change stated in points, its value a fraction (0.028)
    written: str = ""  # the figure read, as printed


WHOLE_SHARE = 0.75  # of the metric's words, those a line read beyond the best-ranked pages prints: three of four


def shortlist(pages, query: str, lexicon: Lexicon | None, limit: int, part: str = "", months: int = 0,
              quarter: tuple[int, int] | None = None, percent: bool = False, points: bool = False,
              parts: dict[str, tuple[str, ...]] | None = None, own: dict[str, int] | None = None,
              whole: bool = False, basis: BasisSpec | None = None, company: tuple[str, ...] = ()
              ) -> list[Candidate]:
    """Candidates of the kind asked: percentages for a percentage, ratio or margin; amounts and counts otherwise
    (a candidate keeps only its figures of that kind); of a part of the company asked (``part``), only those
    naming it; of the whole company, none in the section of a part its report names (``parts``: report ->
    ``part_sections.report_parts``); of a part of the year
    (``months``), only those printing it; of a quarter (``quarter``: year, quarter) in a table naming quarters,
    only that quarter's, never another quarter's an interim filing reports on (``own``: report -> its quarter);
    ``percent``: the plan reads a percentage asked (a growth, a share) where the metric's
    words do not; ``points``: a change in points asked, stated in a sentence ('up 280 basis points'); ``whole``:
    only lines printing nearly every word of the metric (``WHOLE_SHARE``), a synonym not enough (pages read
    beyond the best-ranked ones, where a synonym's 'total income' of 'Total income tax expense' is no revenue);
    ``basis``: the stated basis of a non-GAAP figure asked, which a candidate's line, heading row or column names
    must name ('Operational Sales', 'On a currency-neutral basis, revenues grew 11%'), those whose line names it
    first; of the whole company (no part asked), only lines stating it for the whole company (``company``: its
    names, ``basis_pick.whole_company``)."""
    metric = metric_text(query, percent)
    want_percent, out = percent or asks_percent(metric), []
    named = MetricQuery.of(metric, lexicon)
    reach = limit * (3 if basis is None else 12)  # a basis' lines: those naming the metric beyond the usual cut
    share = WHOLE_SHARE if whole and basis is None else 0.5  # a basis' line names the basis: half the words do
    for cand in find_candidates(pages, replace(named, terms=()) if whole else named, reach, share):
        if basis is not None and cand.source == "row" and not names_basis(cand.label, basis):
            cand = basis_column(cand, basis)  # 'Worldwide | ... | Reported 6.3% | Operational 7.5 | ...': its 7.5
            if cand is None or not span_fits(cand.figures[0].months, months):
                continue  # no column names the basis, or it is of another span (a quarter's for the year)
        if part and not names_the_part(cand, part) or months and not of_months(cand, months) or \
                not part and part_section(cand.caption, cand.section, (parts or {}).get(cand.sha1, ())) or \
                quarter and other_quarters(cand, quarter) or basis is not None and not names_basis_anywhere(cand, basis):
            continue  # the whole company's figure is not a part's ('Aeronautics' / 'Backlog at year-end')
        own_quarter = (own or {}).get(cand.sha1, 0)
        figs = tuple(f for f in cand.figures if (bool(f.points) if points else f.percent == want_percent and
                                                 not f.points) and of_quarter(f, cand, quarter, own_quarter)
                     and of_span(f, cand, months))
        if not any(f.period for f in figs) and any(not of_quarter(f, cand, quarter, own_quarter) for f in cand.figures):
            continue  # the row's undated figures (a change, a share of sales) are of the other quarter's columns
        if figs:
            cand.figures = figs
            out.append(cand.with_heading() if part and cand.source == "row" else cand)
    if basis is not None and not part:  # the whole company's figure on the basis: a line stating it as such
        out = whole_company(out, basis, parts_and_regions(parts), company, frozenset(own_words(named)))
    if basis is not None:  # a line that names the basis itself before one whose headings name it
        out.sort(key=lambda c: not names_basis(c.label, basis))
    for n, cand in enumerate(out[:limit], 1):
        cand.id = n
    return out[:limit]


def _numbered(cands: list[Candidate]) -> list[Candidate]:
    for n, cand in enumerate(cands, 1):
        cand.id = n
    return cands


def _page_of(pages):
    """The text of the page a candidate is printed on."""
    texts = {(p.sha1, p.page_index): p.text for p in pages}
    return lambda cand: texts.get((cand.sha1, cand.page_index), "")


def _currency_of(question: str, page, dollars: dict[str, str] | None):
    """A candidate's currency problem (``currency_problem``) against the page it is printed on (``page``:
    ``_page_of``)."""
    return lambda cand: currency_problem(question, cand, page(cand), (dollars or {}).get(cand.sha1, "USD"))


def _checked(llm, question: str, chosen: Candidate, fig: Figure, reading: NumberReading, pages,
             dollars: dict[str, str] | None, verify_min: float, metric: MetricQuery | None = None,
             asked: Asked = Asked(), basis_named: bool = False) -> bool:
    """The chosen line is in the currency asked, its figure of the kind and period asked (``figure_problem``),
    and it states the metric: in its words (``states_metric``, Python), or its figure on the stated basis asked
    (``basis_named``: every candidate was kept for it, ``basis_pick``), else (``verify_min`` > 0) by the
    model's yes at that probability. Why not is noted."""
    page_text = next(p.text for p in pages if (p.sha1, p.page_index) == (chosen.sha1, chosen.page_index))
    problem = currency_problem(question, chosen, page_text, (dollars or {}).get(chosen.sha1, "USD"))
    if problem is None and metric is not None:
        problem = figure_problem(chosen, fig, metric, asked)
    if problem:
        reading.notes.append(f"check: candidate [{chosen.id}] {problem} (Python): N/A")
        return False
    if basis_named:
        reading.notes.append(f"check: candidate [{chosen.id}] states the figure on the basis asked (Python): no model "
                             "check")
    elif metric is not None and states_metric(metric, line_words(chosen)):
        reading.notes.append(f"check: candidate [{chosen.id}] states the metric's words (Python): no model check")
    elif verify_min > 0 and metric is not None and hasattr(llm, "choice_logprobs"):
        reading.p_yes = round(p_states(llm, question, chosen), 3)
        if reading.p_yes < verify_min:
            reading.notes.append(f"check: candidate [{chosen.id}] states the metric with p={reading.p_yes} "
                                 f"< {verify_min}: N/A")
            return False
    return True


def _model_pick(llm, question: str, reading: NumberReading, year: int | None, max_tokens: int,
                metric: MetricQuery, template: frozenset[str]):
    """The candidate and figure the model picks among the shortlist, or None (the reason noted)."""
    shown = "\n".join(c.shown() for c in reading.candidates)
    messages, schema = build_messages("number_pick", candidates=shown, question=question)
    res = reading.result = structured_call(llm, messages, schema, max_tokens=max_tokens)
    if res.value is None:
        reading.error = res.error
        return None
    chosen = next((c for c in reading.candidates if c.id == res.value.candidate), None)
    if chosen is None:
        reading.notes.append("the model chose no candidate: N/A")
        return None
    found = find_figure(reading.candidates, chosen, res.value.value_as_written, reading.notes, year)
    if found is None:
        reading.notes.append("no figure chosen: N/A")
    elif (exact := exacter_row(*found, reading.candidates, metric, template)) is not None:
        reading.notes.append(f"candidate [{exact[0].id}] names the metric with fewer words of its own than the "
                             f"model's [{found[0].id}] (Python): its figure in the same column is used")
        found = exact
    elif (twin := twin_row(*found, reading.candidates, metric)) is not None:
        reading.notes.append(f"candidate [{twin[0].id}] is the same row under a heading naming more of the metric "
                             f"than the model's [{found[0].id}] (Python): its figure in the same column is used")
        found = twin
    elif (clause := exacter_clause(*found, metric)) is not None:
        reading.notes.append(f"in candidate [{found[0].id}], {clause.written!r} is the figure whose clause names the "
                             f"metric, not the copied {found[1].written!r} (Python): it is used")
        found = found[0], clause
    return found


def _agreed_count(counts: list[Candidate], counted: str) -> NumberReading:
    """The count every sentence of the year prints beside ``counted``: the answer, no model asked. When they
    differ and ``counted`` is a bare noun counted as a whole and in parts (``WHOLE_COUNTS``: 'employees', not
    'full time employees'), the largest: the whole counts its parts ('approximately 50,000 employees ... were
    union represented' is part of 156,000)."""
    reading = NumberReading(candidates=counts)
    chosen = reading.candidate = max(counts, key=lambda c: c.value_of(c.figures[0]))
    reading.written = chosen.figures[0].written
    reading.value = float(f"{chosen.value_of(chosen.figures[0]):.12g}")
    agree = len({c.value_of(c.figures[0]) for c in counts}) == 1
    reading.notes.append(f"a count printed beside '{counted}': {chosen.figures[0].written} (page "
                         f"{chosen.page_index}); " + ("every sentence of the pages that prints one agrees" if agree
                                                      else "the largest of the year's, the whole of its parts"))
    return reading


def read_number(llm: LLMClient, question: str, query: str, pages, lexicon: Lexicon | None,
                dollars: dict[str, str] | None = None, limit: int = 8, max_tokens: int = 300,
                verify_min: float = 0.0, year: int | None = None, part: str = "", counted: str = "",
                count_pages=None, months: int = 0, quarter: tuple[int, int] | None = None,
                own_quarters: dict[str, int] | None = None, qualifiers: tuple[str, ...] = (),
                percent: bool = False, points: int = 0, parts: dict[str, tuple[str, ...]] | None = None,
                as_of: tuple[int, int] | None = None, wide: bool = False, basis: BasisSpec | None = None,
                company: tuple[str, ...] = (), since_start: bool = False) -> NumberReading:
    """Answer a number question from ``pages`` (ranked best first); ``query`` is the question without its
    template tail and company; ``dollars`` says what a bare '$' means in each report (default US$). With
    ``verify_min`` > 0 (and a client that exposes token probabilities) the chosen line must also pass a
    yes/no check at that probability. ``year``: the fiscal year asked (default: the latest period printed);
    ``part``: the part of the company asked (a segment, a region), which a candidate must name; ``counted``: what a
    count question counts: a count printed beside it in ``count_pages`` (default ``pages``) is the answer when the
    sentences of the year print one (``evidence.counts``), and the model chooses among them when they print
    several, the count whose clause names the question's ``qualifiers`` first ('in the United States');
    ``months``: a part of the year asked, which a candidate must print; ``quarter``: (year, quarter)
    asked, read in the column naming it where a table names quarters (or, ``own_quarters``, in the three-month
    column of a filing that reports on it); ``percent``: a percentage asked, as the plan reads the question;
    ``points``: a change asked in points (-1 asked as a fall), read where a sentence states it; ``parts``: the
    parts each report names, whose sections print no figure of the whole company; ``as_of``: the (year, month) of
    a date asked 'at', whose interim filing's quarter column is of it; ``wide``: beyond the best-ranked pages
    (``shortlist``'s ``whole``, ``line_checks.undated``); ``basis``: the stated basis of a non-GAAP figure
    asked, which every candidate names, of the whole company (``company``: its names) where no part is asked
    (``basis_pick``); ``since_start``: a count asked since a start ('since program inception')."""
    counts = _numbered(qualified(count_candidates(count_pages or pages, counted, year, since_start)
                                 if counted and not part else [],
                                 qualifiers, counted))  # 'in the United States': the counts a sentence says are
    if len({c.value_of(c.figures[0]) for c in counts}) == 1 or counts and counts_a_whole(counted) and not qualifiers:
        return _agreed_count(counts[:limit], counted)
    metric, template = metric_query(query, lexicon, percent), lexicon.template_words if lexicon else frozenset()
    change = CHANGE_WORDS_RE.search(query) is not None  # 'how much did X grow': a change, not a level
    asked, notes, page = Asked(year, counted, bool(points) or change), [], _page_of([*pages, *(count_pages or ())])
    reading = NumberReading(candidates=counts[:limit] or _numbered(fitting(
        shortlist(pages, query, lexicon, 2 * limit, part, months, quarter, percent, bool(points), parts, own_quarters,
                  whole=wide, basis=basis, company=company),
        metric, asked, notes, _currency_of(question, page, dollars), page if wide else lambda cand: "")[:limit]),
        notes=notes)
    if not reading.candidates:
        return _none_named(reading, len(pages), part, months, basis)
    sure = sure_pick(reading.candidates, metric, year, months, quarter, own_quarters, template,
                     percent and change, as_of) if not counts and basis is None else None
    found = _pick(llm, question, reading, (metric, template), max_tokens, year, basis, sure)
    if found is None:
        return reading
    chosen, fig = found
    if _checked(llm, question, chosen, fig, reading, count_pages or pages, dollars, verify_min, metric, asked,
                basis is not None):
        _take_figure(reading, chosen, fig, points)
    return reading


def _pick(llm, question: str, reading: NumberReading, metric: tuple[MetricQuery, frozenset[str]], max_tokens: int,
          year: int | None, basis: BasisSpec | None, sure: tuple[Candidate, Figure] | None):
    """Python's pick: the figure the lines stating the ``basis`` asked agree on (``basis_pick``), else the one row
    naming the metric's words (``sure``, from ``sure_pick``); else the model's (``_model_pick``); None if none."""
    if basis is not None and (found := basis_pick(reading.candidates, basis, year)):
        reading.notes.append(f"candidate [{found[0].id}] states the figure on the {basis.name} basis asked for the "
                             "whole company, every such line agreeing (Python): no model pick")
        return found
    if sure is not None:
        reading.notes.append(f"candidate [{sure[0].id}] is the one row naming the metric's words in the "
                             "period asked (Python): no model pick")
        return sure
    return _model_pick(llm, question, reading, year, max_tokens, *metric)


def _none_named(reading: NumberReading, pages: int, part: str, months: int, basis: BasisSpec | None = None
                ) -> NumberReading:
    """``reading`` with why it is N/A: no candidate on the ``pages`` read."""
    whose = (f" and the part '{part}'" if part else "") + (" for the months asked" if months else "") + \
        (f" on the {basis.name} basis asked (a line naming {' or '.join(repr(w) for w in basis.printed[:3])})"
         if basis is not None else "")
    reading.notes.append(f"no table row or sentence of the {pages} pages names the metric{whose} "
                         "with a figure of the kind, period and currency asked: N/A")
    return reading


def _take_figure(reading: NumberReading, chosen: Candidate, fig: Figure, points: int) -> None:
    """The checked figure onto ``reading``: its value in its own scale or its table's; a change stated in points
    as a fraction, signed by its words and the way the question asks (``points`` < 0: a fall)."""
    reading.candidate, reading.percent, reading.written = chosen, fig.percent, fig.written
    reading.value = float(f"{chosen.value_of(fig):.12g}")
    if fig.points:
        reading.value, reading.points = stated_change(chosen, fig, points < 0), True
        reading.notes.append(f"a change stated in points: {fig.written} ({reading.value:+g} as a fraction)")
    if chosen.scale != 1.0 and not (fig.own_scale or fig.percent):
        reading.notes.append(f"{fig.written} x {chosen.scale:g} ({chosen.scale_words})")
