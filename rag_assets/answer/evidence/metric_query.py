"""What a figure's line must name (``MetricQuery``): the metric's own words and the synonym terms of the reviewed
lexicon; a line's words include, for each abbreviation the metric writes in one form or the other, the other
form of it the line prints ('Adjusted EPS (diluted)' prints 'earnings per share', 'Research and development'
prints 'R&D'), so that a row and a question name one metric alike whichever of the two forms each writes (and
no other abbreviation's long form adds words: 'EBITDA margin' prints no 'interest' for 'net interest margin').
The metric's own words stay as asked: an abbreviation asked is one word, its long form as many as it has."""

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
    short_forms: tuple[tuple[str, Term], ...] = ()  # (an abbreviation the metric writes in either form, its long form)
    aliases: frozenset[str] = frozenset()  # the other form's words of an abbreviation the metric writes

    @classmethod
    def of(cls, metric: str, lexicon: Lexicon | None, frame: bool = False) -> "MetricQuery":
        """The metric's words without template words, and the terms of every synonym group the metric names.
        A group named only inside a longer term of another group is not used ('employees' in 'employees let
        go' does not bring in the headcount group). ``frame``: a yes/no or names question's topic, without the
        words of its period, direction and basis (the lexicon's ``frame_words``, period codes like '2Q23')."""
        tokens = tokenize(metric)
        # the abbreviations it writes in either form; none for a yes/no or names topic, read as written (the model
        # judges its statements, and one more statement matched by an abbreviation is one more noisy p(yes))
        short_forms = tuple((a, long) for a, long in sorted(lexicon.abbreviations.items())
                            if a in tokens or contains(tokens, long)) if lexicon and not frame else ()
        drop = (lexicon.template_words | (lexicon.frame_words if frame else frozenset())) if lexicon else frozenset()
        own = tuple(t for t in tokens if t not in drop and not t.isdigit() and t != "%"
                    and not (frame and PERIOD_CODE_RE.fullmatch(t))) or tuple(tokens)
        matched = [(g, t) for g in (lexicon.groups if lexicon else ()) for t in g if contains(tokens, t)]
        kept = {id(g): g for g, t in matched
                if not any(len(t2) > len(t) and contains(list(t2), t) for g2, t2 in matched if g2 is not g)}
        measures = lexicon.measures if lexicon else ()
        mine = [m for m in measures if any(g in kept.values() for g in m)]
        others = tuple(t for m in measures if mine and m not in mine for g in m for t in g)
        aliases = frozenset(both_forms(tokens, short_forms)) - set(tokens)
        return cls(own, tuple(t for g in kept.values() for t in g), others, short_forms, aliases)

    def words(self, text: str) -> list[str]:
        """``text``'s tokens, and the other form of each abbreviation it writes ('Adjusted EPS (diluted)' ->
        'adjust ep dilut earn per share')."""
        return both_forms(tokenize(text), self.short_forms)

    def names_another(self, text: str) -> bool:
        """``text`` names another headline measure (``Lexicon.measures``) and no term of this one: it states
        another figure ('net income attributable to Globex' asked operating income)."""
        tokens = tokenize(text)
        return any(contains(tokens, t) for t in self.others) and not any(contains(tokens, t) for t in self.terms)

    def score(self, text: str) -> float:
        """Share of the metric's own words in ``text``, plus 1 when a synonym term is printed in it."""
        tokens = tokenize(text)
        have = set(both_forms(tokens, self.short_forms))
        cover = sum(t in have for t in self.own) / len(self.own) if self.own else 0.0
        return cover + (1.0 if any(contains(tokens, t) for t in self.terms) else 0.0)


def both_forms(tokens: list[str], short_forms: tuple[tuple[str, Term], ...]) -> list[str]:
    """``tokens``, then the long form's tokens of each abbreviation among them and the abbreviation of each long
    form they print whole, in order."""
    more = [w for short, long in short_forms if short in tokens or contains(tokens, long)
            for w in (long if short in tokens else (short,))]
    return tokens + more
