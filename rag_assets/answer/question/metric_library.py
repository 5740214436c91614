"""The reviewed library of line items and standard metrics (``metrics.yaml``), and how a question's words are
matched to them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from rag_assets.answer.question.lemmas import lemmas, word_lemma
from rag_assets.storage.paths import package_file

LIBRARY_PATH = package_file("answer", "question", "metrics.yaml")


FOOTNOTE_GLUED_RE = re.compile(r"(?<=[a-z]{3})\d{1,2}(?:,\d{1,2})*(?=[\s|:)]|$)")  # 'Consumer Health4', 'Operational1,3'


def fold(text: str) -> str:
    """Lower case, dashes and punctuation as spaces ('&' kept), footnote marks dropped (also digits glued to the
    end of a lower-case word: 'Health4'; never 'CET1', 'FY2019'): how labels compare."""
    text = re.sub(r"\(\s*\d\s*\)|\*+", " ", FOOTNOTE_GLUED_RE.sub("", text).lower()).replace("’", "'")
    return " ".join(re.sub(r"[^\w\s&']|_", " ", text).replace("'", "").split())


@dataclass(frozen=True)
class ItemSpec:
    name: str
    names: tuple[str, ...]
    labels: tuple[str, ...]
    statement: str = ""
    signed: bool = False
    otherwise: str = ""  # a formula over other items, used where no statement row prints this one
    deducted: bool = False  # a signed amount the statement subtracts (a tax provision): its sign is the expense's
    part_labels: tuple[str, ...] = ()  # how a part's row of it may be printed as well: a segment's profit measure


@dataclass(frozen=True)
class MetricSpec:
    names: tuple[str, ...]
    formula: str


@dataclass(frozen=True)
class JudgementSpec:
    """An analyst's yes/no that one standard figure decides by a rule of thumb: Yes when ``formula`` is at
    least ``yes_at_least``."""

    phrases: tuple[str, ...]
    formula: str
    yes_at_least: float
    rule: str


@dataclass(frozen=True)
class BasisSpec:
    name: str  # 'currency', 'organic'
    asked: tuple[str, ...]  # folded: how questions write it ('operationally', 'currency neutral')
    printed: tuple[str, ...]  # folded: what a line naming it prints ('operational', 'constant currency')
    adjectives: tuple[str, ...] = ()  # folded: words naming it only before one of ``modifies`` ('operational')
    modifies: tuple[str, ...] = ()  # folded: what such an adjective modifies ('sales', 'growth', 'basis')


@dataclass(frozen=True)
class Library:
    items: dict[str, ItemSpec]
    metrics: tuple[MetricSpec, ...]
    judgements: tuple[JudgementSpec, ...] = ()
    part_nouns: tuple[str, ...] = ()  # 'segment', 'division': the words after a part's name
    regions: tuple[str, ...] = ()  # parts named without such a noun ('international', 'Europe')
    other_entities: tuple[str, ...] = ()  # a table captioned so prints another entity's figures ('joint ventures')
    region_names: tuple[tuple[str, str], ...] = ()  # (other words, the region): ('outside the us', 'international')
    complements: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (a part, the parts it is the whole less)
    place_nouns: tuple[str, ...] = ()  # 'operations': a part noun only after a capitalized name or a region
    not_parts: tuple[str, ...] = ()  # 'restricted share unit': nouns ending in a part noun that name no part
    bases: tuple[BasisSpec, ...] = ()  # the stated bases of non-GAAP figures ('currency neutral', 'organic')

    @classmethod
    def load(cls, path: Path = LIBRARY_PATH) -> "Library":
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        items = {name: ItemSpec(name, tuple(fold(n) for n in spec.get("names", [name])),
                                tuple(fold(x) for x in spec.get("labels", [name])), spec.get("statement", ""),
                                bool(spec.get("signed", False)), str(spec.get("otherwise", "")),
                                bool(spec.get("deducted", False)),
                                tuple(fold(x) for x in spec.get("part_labels", [])))
                 for name, spec in (data.get("items") or {}).items()}
        metrics = tuple(MetricSpec(tuple(fold(n) for n in m["names"]), str(m["formula"]))
                        for m in data.get("metrics") or [])
        judgements = tuple(JudgementSpec(tuple(fold(n) for n in j["phrases"]), str(j["formula"]),
                                         float(j["yes_at_least"]), str(j.get("rule", "")))
                           for j in data.get("judgements") or [])
        parts = data.get("parts") or {}
        return cls(items, metrics, judgements, tuple(fold(n) for n in parts.get("nouns") or ()),
                   tuple(fold(r) for r in parts.get("regions") or ()),
                   tuple(fold(e) for e in parts.get("other_entities") or ()),
                   tuple((fold(n), fold(r)) for r, names in (parts.get("region_names") or {}).items() for n in names),
                   tuple((fold(p), tuple(fold(o) for o in others))
                         for p, others in (parts.get("complements") or {}).items()),
                   tuple(fold(n) for n in parts.get("place_nouns") or ()),
                   tuple(fold(n) for n in parts.get("not_parts") or ()),
                   _bases(data.get("bases") or {}))

    @property
    def item_names(self) -> tuple[tuple[str, str], ...]:
        """(item, one of its names or labels of several words) of every item: how a caption names its columns."""
        return tuple((spec.name, n) for spec in self.items.values() for n in dict.fromkeys(spec.names + spec.labels)
                     if " " in n or n in ("revenue", "revenues", "sales"))

    def item_in(self, text: str) -> ItemSpec | None:
        """The item whose name, or label of several words, is printed first in ``text`` (the longest there; whole
        words), or None. A one-word name that another noun modifies or continues ('revenue' in 'membership fee
        revenue', 'cash' in 'cash flow from operating activities') names no item: that is a longer line item."""
        named = [(n, spec) for spec in self.items.values() for n in spec.names]
        named += [(x, spec) for spec in self.items.values() for x in spec.labels if " " in x]
        folded = fold(without_owner(text))
        found = _longest_named(folded, named)
        if found is None or " " not in found[1]:  # 'cash did operations generate' is cash from operations
            return _scattered(folded, named) or (found[0] if found else None)
        return found[0]

    def written_label(self, spec: ItemSpec, text: str) -> str:
        """The longest of ``spec``'s printed labels that ``text`` writes (whole words), or ''."""
        folded = fold(text)
        found = [x for x in spec.labels if re.search(rf"(?<!\w){re.escape(x)}(?!\w)", folded)]
        return max(found, key=len, default="")

    def metric_in(self, text: str) -> MetricSpec | None:
        """The metric whose name is printed first in ``text`` (the longest there; whole words), or None."""
        return _longest(fold(POSSESSIVE_RE.sub(" ", text)), [(n, m) for m in self.metrics for n in m.names])

    def judgement_in(self, text: str) -> JudgementSpec | None:
        """The judgement whose phrase is printed first in ``text`` (the longest there; whole words), or None."""
        return _longest(fold(POSSESSIVE_RE.sub(" ", text)), [(n, j) for j in self.judgements for n in j.phrases])

    def metric_is(self, text: str) -> MetricSpec | None:
        """The metric ``text`` names, all of it ('DIO', 'days inventory outstanding')."""
        folded = fold(text)
        return next((m for m in self.metrics if folded in m.names), None)


CONTINUES_RE = re.compile(r"\s+(?!(?:and|or|of|for|in|on|at|as|to|from|by|the|a|an|its|their|is|was|were|are|"
                          r"did|does|has|have|over|between|during|than|year|years|fy|fy\d{2,4}|q[1-4]|h[12]|ytd|"
                          r"fiscal|end|ends|net|total|"
                          r"reported|based|using|per|with|after|before|divided|less|minus|plus|times|"
                          r"increas\w*|decreas\w*|grow\w*|grew|ris\w*|rose|fall\w*|fell|declin\w*|chang\w*|"
                          r"improv\w*|exceed\w*|drop\w*|compared|versus|vs|higher|lower|above|below|more|"
                          r"positive|negative|"
                          r"spending|spend|expenses?|expenditures?|costs?|outlays?|amounts?|figures?|balances?|"
                          r"levels?)\b)[a-z]")  # 'R&D spending', 'the cash balance': the item itself


# 'segment' inside an item's words ('pretax segment income', 'total segment net sales'): the part's own item
SEGMENT_WORD_RE = re.compile(r"\b(?:(?:reportable|business|operating)\s+)?segments?\s+(?=[a-z])", re.I)


POSSESSIVE_RE = re.compile(r"^.*?[\w&.-]+(?:'s|’s|(?<!holder)(?<!owner)(?<!partner)(?<!member)s'|"
                           r"(?<!holder)(?<!owner)(?<!partner)(?<!member)s’)(?=\s)", re.I)  # 'X Corp's': the owner
# 'the weighted average remaining lease term of Globex's operating leases': the owner stands inside the item's words
OF_OWNER_RE = re.compile(r"^(?P<head>.*?\b(?P<last>[a-z][\w&-]*))\s+of\s+(?:the\s+)?(?:[\w&.-]+\s+){0,3}?[\w&.-]+"
                         r"(?:'s|’s)\s+(?P<tail>.*)$", re.I)
NOT_ITEM_HEADS = frozenset("what which who how much many was were is are did does do the a an share percentage percent "
                           "proportion portion fraction part sum total ratio average mean change growth any all each "
                           "some most half rest remainder one none".split())


def owner_inside(text: str) -> str | None:
    """``text`` without the owner's possessive where item words stand before it ('the weighted average remaining
    lease term of Globex's operating leases': 'the weighted average remaining lease term of operating leases'; it
    had read 'operating leases', a balance in money), or None when none do ('what share of Globex's revenue')."""
    m = OF_OWNER_RE.match(text)
    if m and m.group("last").lower() not in NOT_ITEM_HEADS and \
            any(w.lower() not in NOT_ITEM_HEADS for w in re.findall(r"[a-z][\w&-]*", m.group("head"), re.I)):
        return f"{m.group('head')} of {m.group('tail')}"
    return None


def without_owner(text: str) -> str:
    """``text`` without the company that owns its figure: the words up to the owner's possessive ('Globex's net
    sales': 'net sales'), or only the owner where item words stand before it (``owner_inside``)."""
    return owner_inside(text) or POSSESSIVE_RE.sub(" ", text)


MODIFIES_RE = re.compile(r"(?<!\S)(?!(?:and|or|of|for|in|on|at|as|to|from|by|the|a|an|its|their|is|was|were|are|did|"
                         r"does|do|has|have|had|what|which|how|much|many|total|net|gross|consolidated|reported|annual|"
                         r"quarterly|unadjusted|balance|sheet|overall|gaap|year|years|fy|fiscal|end|ends|ending|ended|over|between|"
                         r"during|than|"
                         r"more|less|any|all|average|avg|mean|change|growth|yoy|its|s|combined|aggregate|cumulative)\b)(?:[a-z][a-z&-]*)\s+$")


def _longest(folded: str, named: list[tuple[str, object]]):
    """The name printed first in ``folded`` (the longest of those starting there), whole words; a one-word name
    that a further noun continues ('cash' in 'cash flow from operating activities') names nothing."""
    found = _longest_named(folded, named)
    return found[0] if found else None


SCATTER_SLACK = 2  # other words a name's words may have between them ('cash did operations generate')
SCATTER_BREAK_RE = re.compile(r"^(?:and|or|than|versus|vs|divided|by|over|less|minus|plus|times|to|per)$")


def _scattered(folded: str, named: list[tuple[str, object]]):
    """The thing whose name of two or more content words the text holds in any order and inflection, close
    together ('cash generated by operations', 'operations generated cash'), the most content words winning,
    then the first printed; never across an operator or a comparison ('cash divided by operating
    expenses')."""
    words = folded.split()
    stems = [word_lemma(w) for w in words]
    best = None
    for name, thing in named:
        want = lemmas(name)
        if len(want) < 2:
            continue
        span = _span(stems, want)
        if span is None or any(SCATTER_BREAK_RE.match(w) for w in words[span[0]:span[1] + 1]) or \
                _another_noun(words[span[0]:span[1] + 1], stems[span[0]:span[1] + 1], want):
            continue
        key = (-len(want), span[0])
        if best is None or key < best[0]:
            best = (key, thing)
    return best[1] if best else None


LINKING_RE = re.compile(r"^(?:did|does|do|was|were|is|are|has|have|had|by|from|in|of|the|its|their|to|for|on|at|"
                        r"with|came|come|made|paid|spent|\w+ed|\w+ing|generates?|provides?|uses?|earns?|makes?)$")


def _another_noun(words: list[str], stems: list[str], want: frozenset[str]) -> bool:
    """The words between a name's words, all nouns, make another thing of them ('net interest income' is not net
    income; 'cash generated by operations' is cash from operations)."""
    inserted = [w for w, s in zip(words, stems) if s not in want]
    return bool(inserted) and not any(LINKING_RE.match(w) for w in inserted)


def _span(stems: list[str], want: frozenset[str]) -> tuple[int, int] | None:
    """The shortest stretch of ``stems`` holding every one of ``want``, if no longer than they allow."""
    limit = len(want) + SCATTER_SLACK
    for length in range(len(want), limit + 1):
        for start in range(0, len(stems) - length + 1):
            if want <= set(stems[start:start + length]):
                return start, start + length - 1
    return None


def _longest_named(folded: str, named: list[tuple[str, object]]):
    """``_longest``, with the name it found: (thing, name) or None."""
    best = None
    for name, thing in named:
        for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", folded):
            if " " not in name and (CONTINUES_RE.match(folded, m.end()) or MODIFIES_RE.search(folded[:m.start()])
                                    and not re.search(r"(?:^|\s)(?:19|20)\d\d\s+$|fy\d{4}\s+$", folded[:m.start()])):
                continue
            key = (m.start(), -len(name))
            if best is None or key < best[0]:
                best = (key, thing, m.end(), name)
            break
    if best and " " not in best[3]:  # 'cash in dividends', 'cash on buybacks': the item it is spent on
        after = re.match(r"\s+(?:in|on|for)\s+", folded[best[2]:])
        if after:
            rest = folded[best[2] + after.end():]
            nxt = _longest_named(rest, [(n, t) for n, t in named if rest.startswith(n)])
            if nxt is not None:
                return nxt
    return (best[1], best[3]) if best else None


def _bases(data: dict) -> tuple[BasisSpec, ...]:
    """The library's stated bases (``bases`` of metrics.yaml), each with the words its adjectives modify."""
    modifies = tuple(fold(m) for m in data.get("modifies") or ())
    return tuple(BasisSpec(name, tuple(fold(a) for a in spec.get("asked") or ()),
                           tuple(fold(x) for x in spec.get("printed") or ()),
                           tuple(fold(a) for a in spec.get("adjectives") or ()), modifies)
                 for name, spec in data.items() if isinstance(spec, dict))


@lru_cache(maxsize=1)
def default_library() -> Library:
    return Library.load()
