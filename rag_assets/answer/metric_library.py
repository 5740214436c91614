"""The reviewed library of line items and standard metrics (``metrics.yaml``), and how a question's words are
matched to them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from rag_assets.storage.paths import package_file

LIBRARY_PATH = package_file("answer", "metrics.yaml")


def fold(text: str) -> str:
    """Lower case, dashes and punctuation as spaces ('&' kept), footnote marks dropped: how labels compare."""
    text = re.sub(r"\(\s*\d\s*\)|\*+", " ", text.lower()).replace("’", "'")
    return " ".join(re.sub(r"[^\w\s&']|_", " ", text).replace("'", "").split())


@dataclass(frozen=True)
class ItemSpec:
    name: str
    names: tuple[str, ...]
    labels: tuple[str, ...]
    statement: str = ""
    signed: bool = False
    otherwise: str = ""  # a formula over other items, used where no statement row prints this one


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
class Library:
    items: dict[str, ItemSpec]
    metrics: tuple[MetricSpec, ...]
    judgements: tuple[JudgementSpec, ...] = ()

    @classmethod
    def load(cls, path: Path = LIBRARY_PATH) -> "Library":
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        items = {name: ItemSpec(name, tuple(fold(n) for n in spec.get("names", [name])),
                                tuple(fold(x) for x in spec.get("labels", [name])), spec.get("statement", ""),
                                bool(spec.get("signed", False)), str(spec.get("otherwise", "")))
                 for name, spec in (data.get("items") or {}).items()}
        metrics = tuple(MetricSpec(tuple(fold(n) for n in m["names"]), str(m["formula"]))
                        for m in data.get("metrics") or [])
        judgements = tuple(JudgementSpec(tuple(fold(n) for n in j["phrases"]), str(j["formula"]),
                                         float(j["yes_at_least"]), str(j.get("rule", "")))
                           for j in data.get("judgements") or [])
        return cls(items, metrics, judgements)

    def item_in(self, text: str) -> ItemSpec | None:
        """The item whose name is the longest one printed in ``text`` (whole words), or None."""
        return _longest(fold(text), [(n, spec) for spec in self.items.values() for n in spec.names])

    def metric_in(self, text: str) -> MetricSpec | None:
        """The metric whose name is the longest one printed in ``text`` (whole words), or None."""
        return _longest(fold(text), [(n, m) for m in self.metrics for n in m.names])

    def judgement_in(self, text: str) -> JudgementSpec | None:
        """The judgement whose phrase is the longest one printed in ``text`` (whole words), or None."""
        return _longest(fold(text), [(n, j) for j in self.judgements for n in j.phrases])

    def metric_is(self, text: str) -> MetricSpec | None:
        """The metric ``text`` names, all of it ('DIO', 'days inventory outstanding')."""
        folded = fold(text)
        return next((m for m in self.metrics if folded in m.names), None)


def _longest(folded: str, named: list[tuple[str, object]]):
    best = None
    for name, thing in named:
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", folded) and (best is None or len(name) > len(best[0])):
            best = (name, thing)
    return best[1] if best else None


@lru_cache(maxsize=1)
def default_library() -> Library:
    return Library.load()
