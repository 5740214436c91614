"""What a figure's line must name (``MetricQuery``): the metric's own words and the synonym terms of the reviewed
lexicon, each long form of one of its abbreviations read as the abbreviation ('earnings per share' is 'EPS',
'research and development' 'R&D'), so that a row and a question name one metric alike whichever of the two forms
each prints, and an abbreviation counts as one word whichever way it is written."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_assets.index.bm25 import tokenize
from rag_assets.retrieval.query import Lexicon, Term, contains

PERIOD_CODE_RE = re.compile(r"(?:q|h|fy|cy)\d{1,4}")  # a period written as a code: '2Q23' -> 'q23', 'FY22'


@dataclass(frozen=True)
class MetricQuery:
    """What a figure's label or sentence must name: the metric's own words and its synonym terms."""

    own: tuple[str, ...]
    terms: tuple[Term, ...]
    others: tuple[Term, ...] = ()  # the terms of the lexicon's other measures, when the metric is one of them
    short_forms: tuple[tuple[str, Term], ...] = ()  # (an abbreviation's token, the tokens of its long form)

    @classmethod
    def of(cls, metric: str, lexicon: Lexicon | None, frame: bool = False) -> "MetricQuery":
        """The metric's words without template words, and the terms of every synonym group the metric names.
        A group named only inside a longer term of another group is not used ('employees' in 'employees let
        go' does not bring in the headcount group). ``frame``: a yes/no or names question's topic, without the
        words of its period, direction and basis (the lexicon's ``frame_words``, period codes like '2Q23')."""
        # a figure's line is read as its abbreviations; a yes/no or names topic as written (the model judges its
        # statements, and one more statement matched by an abbreviation is one more of its noisy p(yes))
        short_forms = tuple(sorted(lexicon.abbreviations.items())) if lexicon and not frame else ()
        tokens = shortened(tokenize(metric), short_forms)
        drop = (lexicon.template_words | (lexicon.frame_words if frame else frozenset())) if lexicon else frozenset()
        own = tuple(t for t in tokens if t not in drop and not t.isdigit() and t != "%"
                    and not (frame and PERIOD_CODE_RE.fullmatch(t))) or tuple(tokens)
        matched = [(g, t) for g in (lexicon.groups if lexicon else ()) for t in g
                   if contains(tokens, t) or contains(tokens, shortened(list(t), short_forms))]
        kept = {id(g): g for g, t in matched
                if not any(len(t2) > len(t) and contains(list(t2), t) for g2, t2 in matched if g2 is not g)}
        measures = lexicon.measures if lexicon else ()
        mine = [m for m in measures if any(g in kept.values() for g in m)]
        others = tuple(t for m in measures if mine and m not in mine for g in m for t in g)
        return cls(own, tuple(t for g in kept.values() for t in g), others, short_forms)

    def words(self, text: str) -> list[str]:
        """``text``'s tokens as the metric's own words are read: a long form as its abbreviation ('Adjusted
        earnings per share (diluted)' -> 'adjust ep dilut')."""
        return shortened(tokenize(text), self.short_forms)

    def names_another(self, text: str) -> bool:
        """``text`` names another headline measure (``Lexicon.measures``) and no term of this one: it states
        another figure ('net income attributable to Globex' asked operating income)."""
        tokens = tokenize(text)
        return any(contains(tokens, t) for t in self.others) and not any(contains(tokens, t) for t in self.terms)

    def score(self, text: str) -> float:
        """Share of the metric's own words in ``text``, plus 1 when a synonym term is printed in it."""
        tokens = tokenize(text)
        have = set(self.words(text))
        cover = sum(t in have for t in self.own) / len(self.own) if self.own else 0.0
        return cover + (1.0 if any(contains(tokens, t) for t in self.terms) else 0.0)


def shortened(tokens: list[str], short_forms: tuple[tuple[str, Term], ...]) -> list[str]:
    """``tokens`` with each run of a long form's tokens replaced by its abbreviation's token (the longest first)."""
    if not short_forms:
        return tokens
    forms = sorted(short_forms, key=lambda f: -len(f[1]))
    out, i = [], 0
    while i < len(tokens):
        short = next(((a, len(t)) for a, t in forms if tuple(tokens[i : i + len(t)]) == t), None)
        out.append(short[0] if short else tokens[i])
        i += short[1] if short else 1
    return out
