"""The passages reader: the model reads whole pages (or the best passage of each) and writes the answer with its
evidence quote and pages (one prompt per kind, structured output); Python then checks what it wrote: names
printed in what it read, the quote in the context and on the question's topic, cited pages that show the
answer. Used for the kinds no Python-first reader takes (names not about a change, and every kind on the API
presets)."""

from __future__ import annotations

from dataclasses import replace

from rag_assets.answer.evidence.evidence_policy import event_problem, general_problem, hedge_problem, on_topic
from rag_assets.answer.evidence.grounding import flat, page_proves, quote_in_context
from rag_assets.answer.evidence.numbers import NA, grounded, is_na, resolve_number
from rag_assets.answer.readers.record import AnswerRecord, add_call, page_refs
from rag_assets.config import RunConfig
from rag_assets.llm.structured import structured_call
from rag_assets.llm.prompts import build_messages
from rag_assets.llm.schemas import SCHEMAS
from rag_assets.retrieval.passages import best_passage
from rag_assets.retrieval.query import default_lexicon
from rag_assets.retrieval.rerank import page_block
from rag_assets.retrieval.search import RetrievedPage


def read_passages(cfg: RunConfig, llm, retriever, question: str, query: str, kind: str,
                  ranked: list[RetrievedPage], rec: AnswerRecord) -> None:
    """The model reads the best pages (or passages) and writes the answer with its quote and pages; Python
    grounds names, checks the evidence and keeps the cited pages that show the answer."""
    top = context_pages(cfg, retriever, query, ranked)
    context, sent = build_context(top, cfg.max_context_tokens * 4)
    rec.pages_sent = [{"pdf_sha1": p.sha1, "page_index": p.page_index} for p in sent]
    prompt_kind = "number" if kind == "number" else kind if kind in SCHEMAS else "name"
    messages, schema = build_messages(prompt_kind, context=context, question=question)
    res = structured_call(llm, messages, schema, max_tokens=cfg.max_output_tokens)
    add_call(rec, res)
    if res.value is None:
        rec.value = na_value(kind)
        rec.error = res.error
        return
    rec.parsed = res.value.model_dump()
    rec.value = final_value(kind, res.value)
    if kind in ("name", "names") and rec.value != NA:
        ground_names(cfg, kind, sent, rec)
    check_evidence(cfg, question, query, kind, res.value, sent, rec)
    rec.references = references(cfg, kind, rec.value, res.value, sent, rec)


def na_value(kind: str):
    """What 'the filing does not say' is for ``kind``: False for a yes/no, else 'N/A'."""
    return False if kind == "boolean" else NA


def build_context(pages: list[RetrievedPage], max_chars: int) -> tuple[str, list[RetrievedPage]]:
    """Whole pages, best first, each prefixed 'PAGE <page_index>', within a character budget."""
    parts, used, sent = [], 0, []
    for p in pages:
        room = max_chars - used
        if room < 300:
            break
        block = page_block(p)
        if len(block) > room:
            block = block[:room] + "\n[... page truncated]"
        parts.append(block)
        used += len(block)
        sent.append(p)
    return "\n\n".join(parts), sent


def context_pages(cfg: RunConfig, retriever, query: str, ranked: list[RetrievedPage]) -> list[RetrievedPage]:
    """What the model reads: the top_pages whole pages, or (context='passages') the best passage of each of
    the passage_pages best pages; checks and citations then hold to what was read."""
    if cfg.context != "passages":
        return ranked[: cfg.top_pages]
    kq = retriever.keywords(query)
    return [replace(p, text=best_passage(p.text, kq.own, kq.added, cfg.passage_chars))
            for p in ranked[: cfg.passage_pages]]


def final_value(kind: str, parsed):
    fa = parsed.final_answer
    if kind == "number":
        v = resolve_number(fa, getattr(parsed, "value_as_written", None), getattr(parsed, "scale", None))
        return v if v == NA else float(f"{v:.12g}")  # 2.043 x 1e9 is 2043000000, not ...0000002
    if kind == "boolean":
        return bool(fa)
    if kind == "names":
        if isinstance(fa, list):
            names = list(dict.fromkeys(x.strip() for x in fa if x and not is_na(x)))
            return names or NA
        return NA
    return NA if is_na(fa) else str(fa).strip()


def ground_names(cfg: RunConfig, kind: str, sent: list[RetrievedPage], rec: AnswerRecord) -> None:
    """Names must be printed in the context the model saw (small models copy the one-shot example)."""
    haystack = flat(" ".join(p.text for p in sent))

    def found(name: str) -> bool:
        return flat(name) in haystack

    if kind == "names":
        kept = [n for n in rec.value if found(n)]
        dropped = [n for n in rec.value if not found(n)]
        if dropped:
            rec.notes.append(f"names not in the context dropped: {dropped}")
        rec.grounded = not dropped
        rec.value = kept or NA
    else:
        rec.grounded = found(rec.value)
        if not rec.grounded and cfg.grounding == "na_if_ungrounded":
            rec.notes.append(f"ungrounded name {rec.value!r} replaced by N/A")
            rec.value = NA


def check_evidence(cfg: RunConfig, question: str, query: str, kind: str, parsed, sent: list[RetrievedPage],
                   rec: AnswerRecord) -> None:
    """Verify the evidence quote: in the context, on the question's topic, and (numbers) holding the value.
    Under ``na_if_ungrounded`` an answer without such evidence becomes 'N/A' (False for yes/no)."""
    if rec.value in (NA, False, []):
        return
    quote = getattr(parsed, "evidence_quote", "") or ""
    texts = [p.text for p in sent]
    lexicon = default_lexicon()
    ok = quote_in_context(quote, texts) and on_topic(quote, query, lexicon)
    if ok and kind == "number" and isinstance(rec.value, float):
        ok = grounded(rec.value, [quote])
    problem = None
    if ok and kind in ("boolean", "names"):
        problem = (event_problem(question, quote, lexicon) or hedge_problem(quote, query, lexicon)
                   or general_problem(question, quote, lexicon))
    if problem:
        rec.notes.append(problem)
        ok = False
    rec.evidence_ok = ok
    if not ok and cfg.grounding == "na_if_ungrounded":
        rec.notes.append(f"no verifiable evidence for {rec.value!r} (quote: {quote[:80]!r}); answered "
                         f"{'False' if kind == 'boolean' else 'N/A'}")
        rec.value = na_value(kind)
        rec.references = []


def references(cfg: RunConfig, kind: str, value, parsed, sent: list[RetrievedPage], rec: AnswerRecord
               ) -> list[dict]:
    """The pages that prove ``value``, matched on (report, page): cited pages that were in the context and
    (unless ``grounding='off'``) print the value, the name(s) or the evidence quote. If no cited page does,
    the best-ranked context page that does is cited; if none does, nothing is (noted; under
    ``na_if_ungrounded`` the answer becomes N/A). None for 'N/A' or False."""
    if value == NA or value is False or value == []:
        return []
    cited = [p for page in parsed.relevant_pages for p in sent if p.page_index == page]
    missing = [page for page in parsed.relevant_pages if not any(p.page_index == page for p in sent)]
    if missing:
        rec.notes.append(f"cited pages not in the context dropped: {missing}")
    if cfg.grounding == "off":
        cited = cited or sent[:1]
        return page_refs(cited)
    quote = getattr(parsed, "evidence_quote", "") or ""
    proven = [p for p in cited if page_proves(kind, value, quote, p.text)]
    if len(proven) < len(cited):
        rec.notes.append(f"cited pages that do not show the answer dropped: "
                         f"{[p.page_index for p in cited if p not in proven]}")
    if not proven:
        proven = [p for p in sent if page_proves(kind, value, quote, p.text)][:1]
        if proven:
            rec.notes.append(f"page {proven[0].page_index} shows the answer and is cited instead")
    if kind == "number":
        rec.grounded = bool(proven)
    if not proven:
        rec.notes.append("no page in the context shows the answer: nothing cited")
        if cfg.grounding == "na_if_ungrounded":
            rec.notes.append(f"unproven answer {value!r} replaced by {'False' if kind == 'boolean' else 'N/A'}")
            rec.value = na_value(kind)
    return page_refs(proven)
