"""Retrieval benchmark: for each configuration, page hit@1/3/5/10, MRR and seconds per question, against one
or more label sets (gold page pools; pages cited by a reference submission). Dagster-free; the CLI's
``bench-retrieval`` prints it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from rag_assets.storage.textfiles import InputFileError, read_json_file

KS = (1, 3, 5, 10)
PageKey = str  # "sha1:page_index"


def labels_from_gold(gold: dict) -> dict[str, set[PageKey]]:
    """Question -> the pages of its gold pools (questions without pools are left out)."""
    out = {}
    for question, entry in gold.items():
        pages = {p for pool in entry.get("reference_pools") or [] for p in pool}
        if pages:
            out[question] = pages
    return out


def labels_from_submission(path) -> dict[str, set[PageKey]]:
    """Question -> the pages a submission cites (a 'silver' label set: another system's references)."""
    data = read_json_file(path, "reference submission")
    answers = data.get("answers") if isinstance(data, dict) else data
    if not isinstance(answers, list):
        raise InputFileError(f"{path}: expected a submission with an 'answers' list")
    out = {}
    for a in answers:
        refs = {f"{r['pdf_sha1']}:{r['page_index']}" for r in a.get("references") or []
                if isinstance(r, dict) and "pdf_sha1" in r and "page_index" in r}
        if refs and a.get("question_text"):
            out[a["question_text"]] = refs
    return out


def first_hit(ranked: list[PageKey], labels: set[PageKey]) -> int | None:
    """1-based rank of the first labelled page, or None."""
    return next((i for i, p in enumerate(ranked, 1) if p in labels), None)


@dataclass
class LabelFigures:
    ranks: list[int | None] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)  # the question of each rank

    @property
    def n(self) -> int:
        return len(self.ranks)

    def hit(self, k: int) -> float:
        return sum(1 for r in self.ranks if r and r <= k) / self.n if self.n else 0.0

    @property
    def mrr(self) -> float:
        return sum(1 / r for r in self.ranks if r) / self.n if self.n else 0.0


@dataclass
class BenchResult:
    config: str
    seconds: list[float] = field(default_factory=list)
    labels: dict[str, LabelFigures] = field(default_factory=dict)
    failed: int = 0

    def percentile(self, q: float) -> float:
        if not self.seconds:
            return 0.0
        s = sorted(self.seconds)
        return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]

    def row(self, label: str) -> dict:
        f = self.labels.get(label, LabelFigures())
        return {"config": self.config, "labels": label, "questions": f.n,
                **{f"hit@{k}": round(f.hit(k), 3) for k in KS}, "mrr": round(f.mrr, 3),
                "p50_s": round(self.percentile(0.5), 3), "p95_s": round(self.percentile(0.95), 3),
                "failed": self.failed}


def bench(name: str, rank: Callable[[str], list[PageKey]], questions: list[str],
          label_sets: dict[str, dict[str, set[PageKey]]]) -> BenchResult:
    """Rank every question that some label set covers with ``rank`` and collect the figures; a question
    whose ranking fails counts as a miss (and in ``failed``)."""
    res = BenchResult(name, labels={label: LabelFigures() for label in label_sets})
    for q in questions:
        if not any(q in labels for labels in label_sets.values()):
            continue
        t0 = time.perf_counter()
        try:
            ranked = rank(q)
        except Exception:  # counted, not fatal: one report's broken index must not hide the others' figures
            ranked = []
            res.failed += 1
        res.seconds.append(time.perf_counter() - t0)
        for label, labels in label_sets.items():
            if q in labels:
                res.labels[label].ranks.append(first_hit(ranked, labels[q]))
                res.labels[label].questions.append(q)
    return res


def misses(results: list[BenchResult], k: int) -> str:
    """One line per configuration, label set and question whose first labelled page is not in the top ``k``:
    what to look at when a figure drops."""
    lines = []
    for r in results:
        for label, f in r.labels.items():
            for q, rank in zip(f.questions, f.ranks):
                if rank is None or rank > k:
                    lines.append(f"{r.config[:32]:32} {label:8} {'-' if rank is None else rank:>4}  {q[:100]}")
    head = f"{'config':32} {'labels':8} {'rank':>4}  question (first labelled page below the top {k})"
    return "\n".join([head, "-" * len(head), *lines]) if lines else f"every labelled page is in the top {k}"


def per_question(results: list[BenchResult]) -> list[dict]:
    """The rank of each question's first labelled page (None: not ranked), per configuration and label set."""
    return [{"config": r.config, "labels": label, "question": q, "rank": rank}
            for r in results for label, f in r.labels.items() for q, rank in zip(f.questions, f.ranks)]


def table(results: list[BenchResult]) -> str:
    """A fixed-width table, one row per configuration and label set."""
    head = f"{'config':48} {'labels':8} {'n':>3} " + " ".join(f"{'hit@' + str(k):>6}" for k in KS) + \
        f" {'MRR':>6} {'p50 s':>7} {'p95 s':>7}"
    lines = [head, "-" * len(head)]
    for r in results:
        for label in r.labels:
            row = r.row(label)
            lines.append(f"{r.config[:48]:48} {label:8} {row['questions']:>3} "
                         + " ".join(f"{row[f'hit@{k}']:6.3f}" for k in KS)
                         + f" {row['mrr']:6.3f} {row['p50_s']:7.3f} {row['p95_s']:7.3f}"
                         + (f"  ({r.failed} failed)" if r.failed else ""))
    return "\n".join(lines)
