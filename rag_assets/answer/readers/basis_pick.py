"""The figure of a measure asked on a stated basis ('operational sales growth', 'revenues grew 11% on a
currency-neutral basis'), read by Python where the filing states it for the whole company: a line naming the
basis, no part of the company or region before its figure, the figure in the clause naming the basis ('a decline
of 0.6%, which included operational growth of 11.0%': 11.0). Every such line must agree; otherwise the model
chooses among the candidates (``number_reader``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rag_assets.answer.evidence.candidates import Candidate
from rag_assets.answer.evidence.figures import Figure
from rag_assets.answer.evidence.rows import names_any
from rag_assets.answer.question.bases import names_basis
from rag_assets.answer.question.metric_library import BasisSpec, default_library, fold
from rag_assets.index.bm25 import tokenize

BASIS_REACH = 60  # characters between the basis' words and its figure in one clause ('operational growth of 6.7%')


CHANGE_TABLE_RE = re.compile(r"%\s*change|percent(?:age)?\s+change|%\s*(?:increase|growth)", re.I)


def basis_column(cand: Candidate, basis: BasisSpec) -> Candidate | None:
    """A table row whose column, as its header rows name it, is the basis asked ('Worldwide | $25,530 | $24,020 |
    6.3% | 7.5 | (1.2) | 6.2' under 'Reported | Operational | Currency | Adjusted Operational'): the row with
    that column's figure alone (the column naming it in the fewest words), a percentage where its table prints
    changes in percent, of the months of the row's dated columns where they are all of one span (a fourth
    quarter's table beside the full year's); None when no column names the basis."""
    named = [(len(c.split()), i) for i, c in enumerate(cand.columns) if names_basis(c, basis)]
    if not named:
        return None
    at = min(named)[1]
    fig = cand.figures[at]
    in_percent = CHANGE_TABLE_RE.search(" ".join((cand.caption, cand.section, *cand.columns))) and abs(fig.value) < 100
    spans = {f.months for f in cand.figures if f.period}  # a row of one span's columns: its changes are of that span
    months = fig.months or (spans.pop() if len(spans) == 1 else 0)
    return replace(cand, figures=(replace(fig, percent=fig.percent or bool(in_percent), months=months),),
                   columns=(cand.columns[at],))


def states_basis(cand: Candidate, basis: BasisSpec) -> bool:
    """The candidate's line names ``basis``, or its one figure stands in a column naming it (``basis_column``)."""
    return names_basis(cand.label, basis) or len(cand.columns) == 1 == len(cand.figures) and \
        names_basis(cand.columns[0], basis)


def whole_company(cands: list[Candidate], basis: BasisSpec, parts: tuple[str, ...], company: tuple[str, ...] = (),
                  nouns: frozenset[str] = frozenset()) -> list[Candidate]:
    """The candidates stating a figure on ``basis`` for the whole company (``_clause_figure``): no one of
    ``parts`` (the report's parts and the library's regions), no other capitalized name than the ``company``'s
    and no other modifier of the metric's ``nouns`` ('footwear revenues', a product line's) in its clause; each
    keeps that figure alone."""
    own = Clause(parts, frozenset(w for name in company for w in fold(name).split()), nouns,
                 frozenset(w for p in basis.printed for w in p.split()))
    out = []
    for cand in cands:
        if not states_basis(cand, basis):
            continue
        if cand.source == "row":  # a row naming the whole company: its figures, one a period
            if own.whole(cand.label):
                out.append(cand)
        elif (fig := _clause_figure(cand, basis, own)) is not None:
            cand.figures = (fig,)
            out.append(cand)
    for n, cand in enumerate(out, 1):
        cand.id = n
    return out


def basis_pick(cands: list[Candidate], basis: BasisSpec, year: int | None) -> tuple[Candidate, Figure] | None:
    """The one figure of ``year`` (or undated) that the candidates naming ``basis`` with one figure state (those
    ``whole_company`` keeps, or a part's), when they agree; None otherwise (the model chooses). Rows come before
    sentences, and of the rows those of the fewest words ('Operational Sales' before 'Adjusted Operational
    Sales', a measure on a further basis)."""
    picks = [(c, figs[0]) for c in cands if states_basis(c, basis) and len(figs := _of_year(c, year)) == 1]
    rows = [(len(fold(c.label).split()), c, f) for c, f in picks if c.source == "row"]
    if rows:
        picks = [(c, f) for n, c, f in rows if n == min(r[0] for r in rows)]
    return picks[0] if picks and len({c.value_of(f) for c, f in picks}) == 1 else None


def _of_year(cand: Candidate, year: int | None) -> list[Figure]:
    """The candidate's figures of ``year`` (all when none is asked), or its undated ones where none is dated
    ('Total net revenue - managed basis | 42,401 | 31,630 | 34': the 42,401 of 2023)."""
    figs = [f for f in cand.figures if year is None or not f.period or f.period == str(year)]
    return [f for f in figs if f.period] or figs


@dataclass(frozen=True)
class Clause:
    """What a clause of the whole company's figure may name: no part, no other name, no other modifier."""
    parts: tuple[str, ...]  # folded: the report's parts and the library's regions
    company: frozenset[str]  # folded words of the company's names
    nouns: frozenset[str]  # the metric's words as retrieval stems them ('sale', 'revenu')
    basis: frozenset[str]  # folded words of the basis as printed

    def whole(self, clause: str) -> bool:
        """``clause`` names no part, no capitalized name but the company's (its first word aside) and no
        modifier of the metric's nouns but the company's, the basis' and ``WHOLE_WORDS``."""
        if names_any(clause, self.parts):
            return False
        names = [w for n in NAME_RE.findall(clause)[1:] if not n.isupper() for w in fold(n).split()]
        if not all(self._known(w) for w in names):
            return False
        words = fold(clause).split()
        return not any(i and self._noun(w) and not self._known(words[i - 1]) for i, w in enumerate(words))

    def _noun(self, word: str) -> bool:
        return next(iter(tokenize(word)), word) in self.nouns  # the metric's words are stems ('revenu')

    def _known(self, word: str) -> bool:
        return word in self.company or word in self.basis or word in WHOLE_WORDS or self._noun(word)


NAME_RE = re.compile(r"(?<![\w-])[A-Z][\w.&'’-]*")  # a capitalized word (the sentence's first is dropped)
# words a clause of the whole company's figure may print beside its metric ('Total net sales', 'NIKE, Inc.
# Revenues', 'Second-Quarter reported sales growth of 6.3% to $25.5 Billion')
WHOLE_WORDS = frozenset(("net total worldwide consolidated reported overall global company inc corporation corp "
                         "group the our its their of in on a an and basis fiscal year full first second third "
                         "fourth quarter billion million thousand percent growth increase increased decrease "
                         "decreased grew rose fell declined compared versus prior same period january february "
                         "march april may june july august september october november december").split())


def _clause_figure(cand: Candidate, basis: BasisSpec, own: Clause) -> Figure | None:
    """A sentence's figure nearest the words of the
    basis (after them within ``BASIS_REACH``, or its one figure before them) whose clause (the sentence to the
    first comma after the figure) is the whole company's (``Clause.whole``) and states no outlook or range
    ('expected to increase 4 to 5 percent')."""
    mentions = [m.end() for p in basis.printed for m in re.finditer(_loose(p), cand.label, re.I)]
    best = None
    for fig in cand.figures:
        at = cand.label.find(fig.written)
        after = [at - end for end in mentions if 0 <= at - end <= BASIS_REACH]
        before = len(cand.figures) == 1 and mentions and at < min(mentions)
        if at < 0 or not (after or before) or not _plain_clause(cand.label, at, own):
            continue
        distance = min(after) if after else BASIS_REACH
        if best is None or distance < best[0]:
            best = (distance, fig)
    return best[1] if best else None


OUTLOOK_RE = re.compile(r"\b(?:expect\w*|outlook|guid\w*|target\w*|forecast\w*|anticipat\w*|plan(?:s|ned)?)\b|"
                        r"\d\s*(?:%|percent)?\s+to\s+\d", re.I)


def _plain_clause(sentence: str, at: int, own: Clause) -> bool:
    """The clause of the figure at ``at`` (the sentence to the first comma after it) is the whole company's
    and states no outlook or range."""
    comma = sentence.find(",", at)
    clause = sentence[: comma if comma >= 0 else len(sentence)]
    return own.whole(clause) and not OUTLOOK_RE.search(clause)


def _loose(phrase: str) -> str:
    """A folded phrase as a line prints it: its words apart by spaces or hyphens."""
    return r"[\s-]+".join(re.escape(w) for w in phrase.split())


def names_basis_anywhere(cand: Candidate, basis: BasisSpec) -> bool:
    """The candidate's line, its heading row or its table's column names name ``basis`` (not the text above its
    table, which may speak of another figure)."""
    return names_basis(" | ".join((cand.label, cand.section, *cand.names, *cand.name_lines, *cand.columns)), basis)


def parts_and_regions(parts: dict[str, tuple[str, ...]] | None) -> tuple[str, ...]:
    """The parts the reports name and the library's regions, folded: what a line of the whole company names not."""
    named = tuple(fold(p) for names in (parts or {}).values() for p in names)
    return tuple(dict.fromkeys(named + default_library().regions))
