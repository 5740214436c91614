"""Comparisons across companies: one number sub-question per company, each answered from its own report(s);
the comparison itself is made in code (highest, lowest: ties noted) only when every company's value was found and
cited (otherwise N/A, naming who is missing), or, when no direction is asked, by the model over the
sub-answers."""

from __future__ import annotations

from typing import Callable

from rag_assets.answer.evidence.numbers import NA, close, is_na
from rag_assets.answer.routing.question_text import HIGHEST_RE, LOWEST_RE, comparative_metric
from rag_assets.answer.readers.record import AnswerRecord, cited_candidate
from rag_assets.answer.routing.router import Route
from rag_assets.config import RunConfig
from rag_assets.llm.structured import structured_call
from rag_assets.llm.prompts import build_messages, fill, load_prompt

# answers one sub-question: (sub-question, route, its record, the query searched)
SingleAnswer = Callable[[str, Route, AnswerRecord, str], None]


def sub_answers(cfg: RunConfig, question: str, routes: list[Route], rec: AnswerRecord,
                single: SingleAnswer) -> list[AnswerRecord]:
    """Each company's figure for the compared metric, its usage added to ``rec``."""
    template = load_prompt("comparative").extra["sub_question"]
    metric = comparative_metric(question)
    subs: list[AnswerRecord] = []
    for route in routes:
        sub_q = fill(template, {"metric": metric, "company": route.company})
        sub = AnswerRecord(question_text=sub_q, kind="number", config=cfg.name,
                           companies=[route.company], routed=list(route.sha1s))
        try:
            single(sub_q, route, sub, metric)
        except Exception as exc:
            sub.value, sub.error = NA, f"{type(exc).__name__}: {exc}"
        subs.append(sub)
        rec.prompt_tokens += sub.prompt_tokens
        rec.completion_tokens += sub.completion_tokens
        rec.llm_calls += sub.llm_calls
    rec.sub_answers = [
        {"company": r.company, "value": s.value, "references": s.references, "error": s.error,
         "grounded": s.grounded, "pages_sent": s.pages_sent, **_shown(s)}
        for r, s in zip(routes, subs)
    ]
    return subs


def _shown(sub: AnswerRecord) -> dict:
    """What shows a company's value on its page: the figure the reader chose (its row label and the value as
    written) and a computation's operands, so that the evidence viewer highlights every company's value."""
    parsed = sub.parsed or {}
    chosen = [c for c in sub.candidates if "id" in c and c["id"] == parsed.get("candidate")][:1]
    if not parsed:  # read by Python without the model (a count the sentences agree on): the cited candidate
        found = cited_candidate(sub.candidates, sub.references)
        chosen = [found] if found is not None else []
    return {"parsed": {k: parsed[k] for k in ("candidate", "value_as_written", "evidence_quote") if k in parsed},
            "candidates": chosen, "computation": sub.computation}


def answer_comparative(cfg: RunConfig, llm, question: str, routes: list[Route], rec: AnswerRecord,
                       single: SingleAnswer) -> None:
    """Answer a comparison into ``rec``: a failed sub-question is the comparison's error."""
    subs = sub_answers(cfg, question, routes, rec, single)
    failed = [(r.company, s.error) for r, s in zip(routes, subs) if s.error]
    if failed:
        rec.error = "; ".join(f"sub-question for {c} failed: {e}" for c, e in failed)
        return
    values = {r.company: s.value for r, s in zip(routes, subs) if isinstance(s.value, float)}
    direction = "min" if LOWEST_RE.search(question) else "max" if HIGHEST_RE.search(question) else None
    missing = [r.company for r, s in zip(routes, subs) if not isinstance(s.value, float) or not s.references]
    if not values or (direction and missing):  # a comparison decided on part of the companies is a guess
        rec.value = NA
        rec.notes.append(f"no value found and cited for {', '.join(missing)}: N/A" if missing else
                         "no company has a value: N/A")
        return
    if direction:
        pick = min if direction == "min" else max
        best = pick(values, key=values.get)
        ties = [c for c, v in values.items() if close(v, values[best], 1e-9)]
        rec.value = best
        rec.notes.append(f"compared in code ({direction}) over {len(values)} value(s); ties: {len(ties)}")
    elif not _model_compares(cfg, llm, question, routes, subs, rec):
        return
    rec.references = [ref for s in subs for ref in s.references]


def _model_compares(cfg: RunConfig, llm, question: str, routes: list[Route], subs: list[AnswerRecord],
                    rec: AnswerRecord) -> bool:
    """No direction asked: the model answers from the sub-answers. False when its call failed (an error)."""
    context = "\n".join(
        f"- {r.company}: {s.value} (pages {[x['page_index'] for x in s.references]})"
        for r, s in zip(routes, subs)
    )
    messages, schema = build_messages("comparative", context=context, question=question)
    res = structured_call(llm, messages, schema, max_tokens=cfg.max_output_tokens)
    rec.llm_calls += len(res.calls)
    rec.raw_output = res.raw
    if res.value is None:
        rec.value, rec.error = NA, res.error
        return False
    rec.parsed = res.value.model_dump()
    rec.value = NA if is_na(res.value.final_answer) else res.value.final_answer.strip()
    return True
