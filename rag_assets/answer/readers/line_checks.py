"""Checks on the line the number reader chose, in Python first: the currency it prints, whether its figure is of
the kind and the period asked (no amount for a count, no change for a level, no sentence about other years),
whether it states the metric (its words, or a synonym of them); the model's probability that it states the
metric (close to noise on one short statement) decides only for a line whose words Python finds too thin."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rag_assets.answer.evidence.candidates import Candidate
from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.evidence.clauses import distinct_names, words_named
from rag_assets.answer.evidence.counts import YEAR_IN_RE
from rag_assets.answer.evidence.figures import CHANGE_BEFORE_RE, Figure
from rag_assets.answer.evidence.units import asked_currency, currencies_in
from rag_assets.answer.question.unit import CURRENCY_CODES
from rag_assets.index.bm25 import tokenize
from rag_assets.llm.prompts import build_messages
from rag_assets.retrieval.query import contains
from rag_assets.retrieval.rerank import p_yes


def currency_problem(question: str, cand: Candidate, page_text: str, dollar: str) -> str | None:
    """Why the candidate's currency is not the one asked, or None (no currency asked, or it is printed)."""
    asked = asked_currency(question)
    if not asked:
        return None
    printed = currencies_in(f"{cand.scale_words} {cand.label} {' '.join(f.written for f in cand.figures)}", dollar)
    printed = printed or currencies_in(page_text, dollar)
    if printed and asked not in printed:
        return f"asked in {asked}, printed in {', '.join(sorted(printed))}"
    return None


def p_states(llm, question: str, cand: Candidate) -> float:
    """The model's probability that ``cand`` states the asked metric: its first answer token, yes vs no."""
    messages, _ = build_messages("number_verify", question=question, line=cand.shown())
    return p_yes(llm, messages)


NAMED_SHARE, NAMED_WORDS = 0.8, 3  # a line printing this share of the metric's own words (of at least three) names it


def names_metric(metric: MetricQuery, label: str) -> bool:
    """``label`` prints nearly every word of a metric of several words ('the aggregate market value of the
    registrant's voting stock held by non-affiliates'): Python's check that the line states it."""
    have = set(metric.words(label))
    own = own_words(metric)
    return len(own) >= NAMED_WORDS and len(own & have) >= NAMED_SHARE * len(own)


def own_words(metric: MetricQuery) -> set[str]:
    """The metric's own words, without a period's token ('q23') or a currency's code ('in USD'): they name none."""
    return {w for w in metric.own if not any(ch.isdigit() for ch in w) and not re.fullmatch(CURRENCY_CODES, w)}


def prints_metric(metric: MetricQuery, label: str) -> bool:
    """``label`` prints every word of the metric ('employees' in 'Each of our 57,500 full- and part-time
    employees'), or nearly every word of a longer one (``names_metric``): the chosen line states it, whatever
    the model's yes/no on it, which is close to noise for a statement this short."""
    own = own_words(metric)
    return bool(own) and own <= set(metric.words(label)) or names_metric(metric, label)


def exacter_row(chosen: Candidate, fig: Figure, cands: list[Candidate], metric: MetricQuery,
                template: frozenset[str] = frozenset()) -> tuple[Candidate, Figure] | None:
    """A row of the chosen row's table that prints every word of the metric and fewer words of its own
    ('Book value per share' where the model chose 'Tangible book value per share'), with its figure in the chosen
    figure's column; None when the chosen row is no such longer name or no row of its table is shorter."""
    own = own_words(metric)
    extra = lambda c: set(metric.words(c.label)) - own - template - metric.aliases  # noqa: E731
    if chosen.source != "row" or not own or not extra(chosen) or not own <= set(metric.words(chosen.label)):
        return None
    column = next((i for i, f in enumerate(chosen.figures) if f is fig), None)
    shorter = [c for c in cands if c.source == "row" and (c.sha1, c.page_index, c.caption) ==
               (chosen.sha1, chosen.page_index, chosen.caption) and own <= set(metric.words(c.label))
               and len(extra(c)) < len(extra(chosen)) and len(c.figures) == len(chosen.figures)]
    if not shorter or column is None:
        return None
    row = min(shorter, key=lambda c: len(extra(c)))
    return row, row.figures[column]


def twin_row(chosen: Candidate, fig: Figure, cands: list[Candidate], metric: MetricQuery
             ) -> tuple[Candidate, Figure] | None:
    """A row of the chosen row's page printed under the same label whose heading names more of the metric's words
    ('Weighted-average shares outstanding' under 'Diluted Earnings Per Common Share', where the model chose the
    one under 'Basic ...'), with its figure in the chosen figure's column; None when none does."""
    own = own_words(metric)
    named = lambda c: len(own & set(metric.words(c.section)))  # noqa: E731
    column = next((i for i, f in enumerate(chosen.figures) if f is fig), None)
    twins = [c for c in cands if c.source == "row" and c is not chosen and (c.sha1, c.page_index, c.label) ==
             (chosen.sha1, chosen.page_index, chosen.label) and len(c.figures) == len(chosen.figures)]
    best = max(twins, key=named, default=None)
    if chosen.source != "row" or column is None or best is None or named(best) <= named(chosen):
        return None
    return best, best.figures[column]


def exacter_clause(chosen: Candidate, fig: Figure, metric: MetricQuery) -> Figure | None:
    """Another figure of the chosen sentence, of the same kind and period, whose own clause (to the next comma)
    names at least half the metric's words and more of them than the copied figure's ('an estimated 66% are
    represented by a union' where the model copied the '68% of our employees are production and maintenance'
    before it), or, of percentages listed in parallel, whose words after it name a word of the metric no other's do
    ('89% worldwide' beside '91% in the U.S. and Canada', for the worldwide rate); None when none does."""
    own = own_words(metric)
    if chosen.source != "text" or not own:
        return None
    named = lambda f: words_named(chosen.label, f.written, own)  # noqa: E731
    others = [f for f in chosen.figures if f is not fig and f.percent == fig.percent and f.period == fig.period]
    best = max(others, key=named, default=None)
    if best is not None and 2 * named(best) >= len(own) and named(best) > named(fig):
        return best
    if not fig.percent:  # a count's or an amount's words after it are its own noun ('4,500 physicians')
        return None
    alike = [f for f in chosen.figures if f.percent and f.period == fig.period]
    apart = dict(zip(map(id, alike), distinct_names(chosen.label, [f.written for f in alike], own)))
    best = max(others, key=lambda f: apart[id(f)], default=None)
    return best if best is not None and apart[id(best)] > apart.get(id(fig), 0) else None


@dataclass(frozen=True)
class Asked:
    """What the plan asks of the figure, as the checks read it: the year (None: the latest), a count (the noun
    counted, '' for an amount or ratio), a change (True: 'how much did X grow')."""

    year: int | None = None
    counted: str = ""
    change: bool = False


MONEY_AT_RE = re.compile(rf"[$€£¥]|\b(?:{CURRENCY_CODES})\b", re.I)


def figure_problem(chosen: Candidate, fig: Figure, metric: MetricQuery, asked: Asked) -> str | None:
    """Why the chosen figure is not the one asked, in Python, or None: an amount where a count is asked (a
    money figure for 'how many airplanes'), a change where a level is asked ('MAUs increased by 53 million'), a
    sentence that names only other years than the one asked ('In 2020, we contributed $3 billion'), or, unless it
    prints every word of the metric (``prints_metric``), a line naming another headline measure and none of
    this one."""
    at = chosen.label.find(fig.written) if chosen.source == "text" else -1
    before = chosen.label[max(0, at - 40): at] if at >= 0 else ""
    if asked.counted and (MONEY_AT_RE.search(fig.written) or re.search(r"[$€£¥]\s*$", before)):
        return "prints an amount of money, not a count"
    if at >= 0 and not asked.change and CHANGE_BEFORE_RE.search(before):
        return "states a change of the figure, not its level"
    years = {int(y) for y in YEAR_IN_RE.findall(chosen.label)} if chosen.source == "text" else set()
    if asked.year and years and not years & {asked.year, asked.year + 1}:
        return f"is a sentence about {', '.join(map(str, sorted(years)))}, not {asked.year}"
    if not prints_metric(metric, chosen.label) and metric.names_another(_clause(chosen.label, at)):
        return "names another figure, not the metric asked"
    if chosen.source == "row" and PER_SHARE_ROW_RE.search(chosen.label) and not _per_share(metric):
        return "is an amount per share, not the metric asked"
    return None


# a row of an amount per share ('Basic net income (loss) per share', 'Diluted EPS'): never a total's figure
PER_SHARE_ROW_RE = re.compile(r"\bper\s+(?:\w+\s+){0,2}(?:share|unit|ads)s?\b|\beps\b", re.I)


def _per_share(metric: MetricQuery) -> bool:
    """The metric is an amount per share ('diluted EPS', 'dividends per share', 'book value per share')."""
    words = set(metric.own) | metric.aliases  # 'per' is a template word, left out of them
    return bool(words & {"share", "shares", "eps", "unit", "ads"})


def undated(fig: Figure, asked: Asked, page: str) -> str | None:
    """Why a figure is not shown to be of the year asked, or None: no column or sentence dates it, and its page
    names neither that year nor the next (a fiscal year named by its end) anywhere."""
    if asked.year and not fig.period and page and not re.search(rf"\b(?:{asked.year}|{asked.year + 1})\b", page):
        return f"prints no year, on a page naming no {asked.year}"
    return None


def fitting(cands: list[Candidate], metric: MetricQuery, asked: Asked, notes: list[str],
            currency: Callable[[Candidate], str | None] = lambda cand: None,
            page: Callable[[Candidate], str] = lambda cand: "") -> list[Candidate]:
    """The candidates as the checks leave them, before the model chooses: each keeps the figures
    ``figure_problem`` and ``undated`` (``page``: the text of a candidate's page) pass, none is in a currency
    other than the one asked (``currency``: the problem, or None); a candidate with no such figure is no choice
    ('how many airplanes' is never a list of money rows); why a figure is none is noted (once for each page and
    problem)."""
    out, refused = [], {}
    for cand in cands:
        problem = currency(cand)
        problems = [problem if problem else figure_problem(cand, f, metric, asked) or undated(f, asked, page(cand))
                    for f in cand.figures]
        figs = tuple(f for f, p in zip(cand.figures, problems) if p is None)
        refused.update((f"page {cand.page_index} {p}", None) for p in problems if p)
        if figs:
            cand.figures = figs
            out.append(cand)
    if refused:
        notes.append(f"check (Python), no choice: a figure of {'; of '.join(refused)}")
    return out


def _clause(label: str, at: int) -> str:
    """The words that name a figure printed at ``at`` of a sentence (-1: a row, its whole label): the clause that
    leads to it ('net income attributable to Globex was' in 'For the quarter, net income attributable to Globex
    was $1.3 billion')."""
    return re.split(r"[,;:]", label[:at])[-1] if at > 0 else label


def line_words(cand: Candidate) -> str:
    """The words a chosen line says its figure is of: a row's label with its heading row, or a sentence."""
    return f"{cand.section} {cand.label}" if cand.source == "row" else cand.label


def states_metric(metric: MetricQuery, text: str) -> bool:
    """``text`` states the metric: more than half the words of one of the lexicon's names of it, when it has any
    ('operating activities provided ... net cash' names cash from operations; 'issued 2.1 million shares' no
    share repurchase), and of the metric's own words all but a few (none of one or two words, one of three or
    four, two of five: 'full-time employees' in 'approximately 73,300 employees ... including part-time
    employees'), a word of a name printed whole counting as printed ('EPS' for 'earnings per share')."""
    own = own_words(metric)
    tokens = tokenize(text)
    have = set(metric.words(text))
    if metric.terms and not any(2 * sum(w in have for w in t) > len(t) for t in metric.terms):
        return False
    named = {w for t in metric.terms for w in t} if any(contains(tokens, t) for t in metric.terms) else set()
    missing = {w for w in own if w not in have and w not in named}
    return len(missing) <= (len(own) - 1) // 2
