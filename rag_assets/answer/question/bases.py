"""The stated basis a question asks a figure on ('operational sales growth', 'grew organically', 'on a
currency-neutral basis', 'excluding the impact of foreign currency'): a non-GAAP measure that no statement prints
and no computation from reported figures gives, read where the filing prints it as such. The bases and their
words are the library's (``metrics.yaml`` bases); a question read with one is never computed from the reported
figures (the reported growth would be a confident wrong answer)."""

from __future__ import annotations

import re

from rag_assets.answer.question.metric_library import BasisSpec, Library, fold


def _phrase_re(phrase: str) -> str:
    """A folded phrase as the question may write it: its words apart by spaces, hyphens or slashes."""
    return r"[\s/-]+".join(re.escape(w) for w in phrase.split())


def _pattern(basis: BasisSpec) -> re.Pattern:
    """Where a question writes ``basis``: a phrase of it, or an adjective of it before a word it modifies
    ('operational sales'; that word is not matched), with 'on a(n)' before and 'basis' after."""
    asked = [_phrase_re(a) for a in sorted(basis.asked, key=len, reverse=True)]
    modified = "|".join(_phrase_re(m) for m in sorted(basis.modifies, key=len, reverse=True))
    adjectives = [rf"{_phrase_re(a)}(?=[\s-]+(?:{modified})\b)" for a in basis.adjectives] if modified else []
    return re.compile(rf"(?:\bon\s+an?\s+)?\b(?:{'|'.join(asked + adjectives)})\b(?:\s+basis\b)?", re.I)


def asked_basis(question: str, library: Library) -> BasisSpec | None:
    """The stated basis ``question`` asks its figure on, or None."""
    return next((b for b in library.bases if _pattern(b).search(question)), None)


def without_basis(text: str, basis: BasisSpec | None) -> str:
    """``text`` without the words of ``basis``: what remains names the figure ('worldwide sales grow')."""
    return " ".join(_pattern(basis).sub(" ", text).split()) if basis is not None else text


def names_basis(text: str, basis: BasisSpec) -> bool:
    """``text`` (a line with its headings) prints a word of ``basis`` as a line naming it prints it."""
    folded = fold(text)
    return any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", folded) for p in basis.printed)


def without_part_noun(text: str, part: str, nouns: tuple[str, ...]) -> str:
    """``text`` without the part noun after the part of the company it names ('MedTech segment sales' -> 'MedTech
    sales'): a row of the part's figures on a basis is labelled by the part's name alone ('MedTech | ... |
    Operational 14.7'), which with the figure's words is half of the metric's words, as a line must print."""
    if not part or not nouns:
        return text
    noun = "|".join(_phrase_re(n) for n in sorted(nouns, key=len, reverse=True))
    name = r"[\s.&/-]*".join(r"\.?".join(w) if len(w) <= 3 else re.escape(w) for w in part.split())  # 'u s': U.S.
    return " ".join(re.sub(rf"(\b{name}\b\.?)\s+(?:{noun})\b(?:['’]s)?", r"\1", text, flags=re.I).split())
