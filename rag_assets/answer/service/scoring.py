"""The challenge's scoring rules (see ../shared/erc/README.md), and retrieval hit@k."""

from __future__ import annotations

from dataclasses import dataclass, field

from rag_assets.answer.evidence.numbers import NA, is_na, parse_number
from rag_assets.answer.readers.record import na_reason
from rag_assets.storage.textfiles import InputFileError, read_json_file


def load_gold(path) -> dict:
    """Gold answers in the challenge's format ``{question: {"kind", "answers": [...], "reference_pools"}}``;
    ``InputFileError`` (one line) if the file is missing, not JSON or not that shape."""
    gold = read_json_file(path, "gold answers file")
    if not isinstance(gold, dict):
        raise InputFileError(f'{path}: expected a JSON object {{question: {{"answers": [...]}}}}, '
                             f"got a {type(gold).__name__}")
    for question, entry in gold.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("answers"), list):
            raise InputFileError(f"{path}: the entry of {question[:60]!r} has no 'answers' list")
    return gold


def value_score(kind: str, predicted, gold_answers: list) -> float:
    """Best over the gold answers: numbers within 1%, booleans and names case-insensitive, names by Jaccard."""
    best = 0.0
    for gold in gold_answers:
        best = max(best, _one(kind, predicted, gold))
    return best


def _is_na(v) -> bool:
    return isinstance(v, str) and is_na(v)


def _one(kind: str, pred, gold) -> float:
    if pred is None:  # a failed question: no answer at all
        return 0.0
    if _is_na(gold) or _is_na(pred):
        return 1.0 if (_is_na(gold) and _is_na(pred)) else 0.0
    if kind == "number":
        g, p = parse_number(gold), parse_number(pred)
        if g == NA or p == NA:
            return 0.0
        if g == 0:
            return 1.0 if p == 0 else 0.0
        return 1.0 if abs(p - g) <= 0.01 * abs(g) else 0.0
    if kind == "boolean":
        return 1.0 if str(pred).strip().lower() == str(gold).strip().lower() else 0.0
    if kind == "names":
        gs = {x.strip().lower() for x in (gold if isinstance(gold, list) else [gold])}
        ps = {x.strip().lower() for x in (pred if isinstance(pred, list) else [pred])}
        return len(gs & ps) / len(gs | ps) if gs | ps else 1.0
    return 1.0 if str(pred).strip().lower() == str(gold).strip().lower() else 0.0


def reference_score(cited: list[tuple[str, int]], pools: list[list[str]]) -> float:
    """1.0, minus 0.1 per cited page in no pool, minus 0.25 per pool with no cited page, floored at 0."""
    if not pools and not cited:
        return 1.0
    cited_keys = {f"{s}:{p}" for s, p in cited}
    all_gold = {k for pool in pools for k in pool}
    score = 1.0 - 0.1 * len(cited_keys - all_gold) - 0.25 * sum(1 for pool in pools if not cited_keys & set(pool))
    return max(0.0, score)


def gold_is_value(gold_answers: list) -> bool:
    return not all(_is_na(g) for g in gold_answers)


@dataclass
class Evaluation:
    n: int = 0
    G: float = 0.0
    R: float = 0.0
    per_kind: dict = field(default_factory=dict)
    value_questions: int = 0
    value_correct: float = 0.0
    na_questions: int = 0
    na_correct: float = 0.0
    hits: dict = field(default_factory=dict)  # k -> [hit count, questions with pools]
    errors: int = 0  # questions whose answering failed (scored 0)
    rows: list[dict] = field(default_factory=list)
    confusion: dict = field(default_factory=dict)  # 'gold none, answered value' etc. -> questions (CONFUSION)
    misses: dict = field(default_factory=dict)  # 'retrieval' / 'reading' -> value questions not answered right
    evidence: list = field(default_factory=lambda: [0, 0])  # correct answers citing a gold page, correct answers

    @property
    def score(self) -> float:
        return self.G + self.R / 2

    def summary(self) -> dict:
        n = max(1, self.n)
        out = {
            "questions": self.n,
            "errors": self.errors,
            "G_percent": round(100 * self.G / n, 1),
            "R_percent": round(100 * self.R / n, 1),
            "score_per_100": round(100 * self.score / n, 1),
            "value_accuracy": round(self.value_correct / self.value_questions, 3) if self.value_questions else None,
            "na_accuracy": round(self.na_correct / self.na_questions, 3) if self.na_questions else None,
            "evidence_cited_of_correct": round(self.evidence[0] / self.evidence[1], 3) if self.evidence[1] else None,
        }
        for kind, (s, c) in sorted(self.per_kind.items()):
            out[f"accuracy_{kind}"] = round(s / c, 3)
        for k, (h, c) in sorted(self.hits.items()):
            out[f"page_hit@{k}"] = round(h / c, 3) if c else None
        for cell in CONFUSION:
            out[cell.replace(", ", "_").replace(" ", "_")] = self.confusion.get(cell, 0)
        for why in ("retrieval", "reading"):
            out[f"value_miss_{why}"] = self.misses.get(why, 0)
        return out

    def tables(self) -> str:
        """Markdown: accuracy per kind, the none/value confusion table, and the misses of value questions."""
        lines = ["| kind | questions | value score | accuracy |", "| --- | --- | --- | --- |"]
        for kind, (s, c) in sorted(self.per_kind.items()):
            lines.append(f"| {kind} | {c} | {s:g} | {s / c:.3f} |")
        lines += ["", "| gold \\ answered | none (N/A, False) | a value |", "| --- | --- | --- |"]
        c = self.confusion
        lines.append(f"| none | {c.get('gold none, answered none', 0)} | {c.get('gold none, answered value', 0)} |")
        lines.append(f"| a value | {c.get('gold value, answered none', 0)} | {c.get('gold value, answered right', 0)} "
                     f"right, {c.get('gold value, answered wrong', 0)} wrong |")
        lines += ["", "| value question not answered right | questions |", "| --- | --- |",
                  f"| retrieval miss: no gold page was sent | {self.misses.get('retrieval', 0)} |",
                  f"| reading miss: a gold page was sent | {self.misses.get('reading', 0)} |"]
        return "\n".join(lines)


CONFUSION = ("gold none, answered none", "gold none, answered value", "gold value, answered none",
             "gold value, answered right", "gold value, answered wrong")


def _none(kind: str, value) -> bool:
    """'N/A', an empty answer, or (yes/no questions) False: the answer that says 'the report does not'."""
    return _is_na(value) or value in (None, [], False) or (kind == "boolean" and str(value).lower() == "false")


def confusion_cell(kind: str, value, gold_answers: list, vs: float) -> str:
    gold_none = all(_none(kind, g) for g in gold_answers)
    answered = "none" if _none(kind, value) else "value"
    if gold_none:
        return f"gold none, answered {answered}"
    if answered == "none":
        return "gold value, answered none"
    return "gold value, answered right" if vs >= 1 else "gold value, answered wrong"


def sent_keys(record: dict) -> set[str]:
    """'sha1:page' of every page the model read for a record (its sub-answers' too)."""
    sent = list(record.get("pages_sent") or [])
    for sub in record.get("sub_answers") or []:
        sent += sub.get("pages_sent") or []
    return {f"{p['pdf_sha1']}:{p['page_index']}" for p in sent}


def add_page_hits(hits: dict, ranked: list[str], pools: list[list[str]], ks=(1, 3, 5, 10)) -> None:
    """Count, for each k, whether any gold page ('sha1:page') is among the first k ranked pages."""
    if not pools:
        return
    gold_pages = {k for pool in pools for k in pool}
    for k in ks:
        h, c = hits.get(k, (0, 0))
        hits[k] = (h + (1 if gold_pages & set(ranked[:k]) else 0), c + 1)


def evaluate(answers: list[dict], gold: dict, ks=(1, 3, 5, 10)) -> Evaluation:
    """Score answer records (dicts with question_text, kind, value, references, ranked_pages) against gold."""
    ev = Evaluation()
    for a in answers:
        g = gold.get(a["question_text"])
        if g is None:
            continue
        kind = g.get("kind", a["kind"])
        failed = bool(a.get("error"))  # a failed question is unanswered: it scores nothing
        ev.errors += failed
        vs = 0.0 if failed else value_score(kind, a["value"], g["answers"])
        cited = [(r["pdf_sha1"], r["page_index"]) for r in a.get("references", [])]
        rs = 0.0 if failed else reference_score(cited, g.get("reference_pools", []))
        ev.n += 1
        ev.G += vs
        ev.R += rs
        s, c = ev.per_kind.get(kind, (0.0, 0))
        ev.per_kind[kind] = (s + vs, c + 1)
        if gold_is_value(g["answers"]):
            ev.value_questions += 1
            ev.value_correct += vs
        else:
            ev.na_questions += 1
            ev.na_correct += vs
        pools = g.get("reference_pools", [])
        cell = confusion_cell(kind, a["value"], g["answers"], vs)
        ev.confusion[cell] = ev.confusion.get(cell, 0) + 1
        miss = None
        if cell.startswith("gold value") and vs < 1:
            miss = "reading" if sent_keys(a) & {k for pool in pools for k in pool} else "retrieval"
            ev.misses[miss] = ev.misses.get(miss, 0) + 1
        if vs >= 1 and pools:  # a right answer that also cites a page holding its evidence
            ev.evidence[0] += bool({f"{s}:{p}" for s, p in cited} & {k for pool in pools for k in pool})
            ev.evidence[1] += 1
        ranked = [f"{p['pdf_sha1']}:{p['page_index']}" for p in a.get("ranked_pages", [])]
        add_page_hits(ev.hits, ranked, pools, ks)
        ev.rows.append({"question_text": a["question_text"], "kind": kind, "value": a["value"],
                        "gold": g["answers"], "value_score": vs, "reference_score": round(rs, 3),
                        "references": cited, "gold_pools": pools, "error": a.get("error"), "confusion": cell,
                        "miss": miss, "computation": a.get("computation"), "na_reason": a.get("na_reason") or na_reason(a)})
    return ev
