"""The keyword side of a search: a question's BM25 tokens without template words, expanded with the synonyms
of the reviewed lexicon (``lexicon.yaml``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from rag_assets.index.bm25 import tokenize
from rag_assets.storage.paths import package_file

LEXICON_PATH = package_file("retrieval", "lexicon.yaml")

Term = tuple[str, ...]


@dataclass(frozen=True)
class PageType:
    name: str
    titles: tuple[str, ...]  # printed as a title near the top of a page: the page is of this type
    wanted_for: tuple[Term, ...]  # in a question: pages of this type are wanted


@dataclass(frozen=True)
class Lexicon:
    template_words: frozenset[str]
    groups: tuple[tuple[Term, ...], ...]
    page_types: tuple[PageType, ...] = ()
    events: dict[str, tuple[Term, ...]] = field(default_factory=dict)  # asked/stated/.../launched_by
    template_phrases: tuple[str, ...] = ()  # dropped from the embedding query
    names: dict[str, frozenset[str]] = field(default_factory=dict)  # names: lower-case words per list
    frame_words: frozenset[str] = frozenset()  # when / which way / on what basis: not a statement's topic
    measures: tuple[tuple[tuple[Term, ...], ...], ...] = ()  # headline figures: each its synonym groups
    abbreviations: dict[str, Term] = field(default_factory=dict)  # an abbreviation's token: its long form's tokens

    @classmethod
    def from_dict(cls, data: dict) -> "Lexicon":
        def term(text) -> Term:
            toks = tuple(tokenize(str(text)))
            if not toks:
                raise ValueError(f"lexicon term {text!r} has no searchable word")
            return toks

        groups = tuple(tuple(term(t) for t in group) for group in data.get("synonyms", []))
        return cls(
            template_words=frozenset(tokenize(data.get("template_words", ""))),
            groups=groups,
            page_types=tuple(PageType(name, tuple(str(t).strip() for t in spec.get("titles", [])),
                                      tuple(term(t) for t in spec.get("wanted_for", [])))
                             for name, spec in (data.get("page_types") or {}).items()),
            events={k: tuple(term(t) for t in (data.get("events") or {}).get(k, []))
                    for k in ("asked_by", "stated_by", "negated_by", "hedged_by", "changed_by", "arrived_by",
                              "general_by", "launched_by", "expectation_asked_by", "expectation_stated_by")},
            template_phrases=tuple(str(t).strip() for t in data.get("template_phrases") or [] if str(t).strip()),
            names={k: frozenset(_word(w) for w in words or []) for k, words in (data.get("names") or {}).items()},
            frame_words=frozenset(tokenize(data.get("frame_words", ""))),
            measures=_measures(data, groups),
            abbreviations=_abbreviations(data),
        )

    @classmethod
    def load(cls, path: Path = LEXICON_PATH) -> "Lexicon":
        try:
            return cls.from_dict(yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {})
        except (OSError, yaml.YAMLError, ValueError, AttributeError, TypeError) as exc:
            raise ValueError(f"lexicon {path}: {exc}") from exc


def _word(value) -> str:
    """A word of a names list; YAML reads an unquoted on/off/yes/no as a boolean, which is refused."""
    if isinstance(value, bool):
        raise ValueError(f"a names list holds {value!r}: quote on/off/yes/no in the lexicon")
    return str(value).strip().lower()


@lru_cache(maxsize=4)
def default_lexicon(path: str = str(LEXICON_PATH)) -> Lexicon:
    return Lexicon.load(Path(path))


@lru_cache(maxsize=8)
def _phrases_re(phrases: tuple[str, ...]) -> re.Pattern | None:
    if not phrases:
        return None
    alternatives = [r"\s+".join(map(re.escape, p.split())) for p in sorted(phrases, key=len, reverse=True)]
    return re.compile("|".join(alternatives), re.IGNORECASE)


DANGLING_RE = re.compile(r"\b(?:for|by|at|of|in)\s*(?=,)", re.IGNORECASE)  # "For , what was" once a name is gone


def embedding_query(text: str, lexicon: Lexicon | None) -> str:
    """``text`` without the lexicon's template phrases (and a preposition they or a removed name left before a
    comma): what the vector side embeds. Without a lexicon, or if nothing would be left: ``text``."""
    pattern = _phrases_re(lexicon.template_phrases) if lexicon else None
    if pattern is None:
        return text
    out = DANGLING_RE.sub(" ", pattern.sub(" ", text))
    return re.sub(r"\s+", " ", out).strip(" ,") or text


def _measures(data: dict, groups: tuple[tuple[Term, ...], ...]) -> tuple[tuple[tuple[Term, ...], ...], ...]:
    """Each measure of ``data`` as its synonym groups (a group is named by its first term)."""
    by_head = {g[0]: g for g in groups if g}
    out = []
    for heads in data.get("measures") or []:
        named = [tuple(tokenize(str(h))) for h in heads]
        missing = [h for h, t in zip(heads, named) if t not in by_head]
        if missing:
            raise ValueError(f"lexicon measure names no synonym group: {', '.join(map(str, missing))}")
        out.append(tuple(by_head[t] for t in named))
    return tuple(out)


def _abbreviations(data: dict) -> dict[str, Term]:
    """Each abbreviation of ``data`` (one token: 'EPS', 'R&D') with the tokens of the long form it stands for."""
    out = {}
    for short, long in (data.get("abbreviations") or {}).items():
        token, words = tokenize(str(short)), tuple(tokenize(str(long)))
        if len(token) != 1 or len(words) < 2:
            raise ValueError(f"lexicon abbreviation {short!r}: one token standing for several words, not {long!r}")
        out[token[0]] = words
    return out


def contains(tokens: list[str], term: Term) -> bool:
    """``term``'s tokens appear in ``tokens`` in order, side by side."""
    n = len(term)
    return any(tuple(tokens[i : i + n]) == term for i in range(len(tokens) - n + 1))


def term_starts(tokens: list[str], terms) -> list[int]:
    """The positions in ``tokens`` where one of ``terms`` starts (all of its tokens, in order)."""
    return [i for i in range(len(tokens)) if any(tuple(tokens[i : i + len(t)]) == t for t in terms)]


@dataclass(frozen=True)
class KeywordQuery:
    tokens: tuple[str, ...]  # what BM25 scores: the question's content words, then the synonyms added
    own: tuple[str, ...]  # the question's content words alone
    page_types: tuple[str, ...] = ()  # page types the question wants (lexicon page_types.wanted_for)

    @property
    def added(self) -> tuple[str, ...]:
        return self.tokens[len(self.own):]


def keyword_query(text: str, lexicon: Lexicon | None) -> KeywordQuery:
    """BM25 tokens for ``text``: template words dropped, and each synonym group with a term in ``text`` adds
    its other terms' words (once each). Without a lexicon: ``text``'s tokens as they are."""
    tokens = tokenize(text)
    if lexicon is None:
        return KeywordQuery(tuple(tokens), tuple(tokens))
    own = [t for t in tokens if t not in lexicon.template_words] or tokens
    seen = set(own)
    added: list[str] = []
    for group in lexicon.groups:
        if any(contains(tokens, term) for term in group):
            for tok in (tok for term in group for tok in term):
                if tok not in seen:
                    seen.add(tok)
                    added.append(tok)
    wanted = tuple(pt.name for pt in lexicon.page_types if any(contains(tokens, t) for t in pt.wanted_for))
    return KeywordQuery(tuple(own + added), tuple(own), wanted)
