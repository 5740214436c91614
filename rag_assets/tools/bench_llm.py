"""Embedded LLM backends side by side: the same model and the same answer prompts, interleaved, printing
prompt tokens/s, generated tokens/s and seconds per answer for each installed backend."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rag_assets.llm.structured import structured_call
from rag_assets.llm.prompts import build_messages
from rag_assets.llm.schemas import SCHEMAS

QUESTIONS = [
    ("number", "What was the cash flow from operating activities (in USD) for {company}?", (3,)),
    ("boolean", "Did {company} announce a share buyback plan?", (1,)),
    ("name", "Who was the chief executive officer of {company}?", (1,)),
    ("number", "What were the total assets of {company} at the end of the period?", (3, 5)),
]


def bench_prompts() -> list[tuple[str, list[dict]]]:
    """Real answer prompts over the sample reports' pages (the quickstart's questions, without retrieval)."""
    from rag_assets.tools.samples import SAMPLES, page_texts, write_samples

    prompts = []
    with tempfile.TemporaryDirectory() as tmp:
        for report, path in zip(SAMPLES, write_samples(Path(tmp))):
            pages = page_texts(path)
            for kind, question, page_ids in QUESTIONS:
                context = "\n\n".join(f"PAGE {i}\n{pages[i]}" for i in page_ids)
                messages, _ = build_messages(kind, context=context, question=question.format(company=report.company))
                prompts.append((kind, messages))
    return prompts


@dataclass
class BackendStats:
    backend: str
    new_prompt_tokens: int = 0
    prompt_seconds: float = 0.0
    completion_tokens: int = 0
    generate_seconds: float = 0.0
    answers: list[float] = field(default_factory=list)
    invalid: int = 0

    def add(self, calls: list, valid: bool) -> None:
        """One answer's LLM calls (``LLMResponse``) and whether its output validated."""
        for call in calls:
            self.new_prompt_tokens += call.prompt_tokens - call.cached_tokens
            self.prompt_seconds += call.prompt_seconds
            self.completion_tokens += call.completion_tokens
            self.generate_seconds += call.seconds - call.prompt_seconds
        self.answers.append(sum(c.seconds for c in calls))
        self.invalid += not valid

    def row(self) -> str:
        p = self.new_prompt_tokens / self.prompt_seconds if self.prompt_seconds else 0.0
        g = self.completion_tokens / self.generate_seconds if self.generate_seconds else 0.0
        s = sum(self.answers) / max(1, len(self.answers))
        return (f"{self.backend:18} {p:10.1f} {g:10.1f} {s:10.1f} {len(self.answers):8d} {self.invalid:8d}")


def _worker(conn, model_path: str, backend: str, threads: int, max_tokens: int) -> None:
    """One backend in its own process (two llama.cpp libraries cannot share one): answer prompts sent
    through ``conn`` and send back each call's figures."""
    from rag_assets.llm.embedded import embedded_llm

    llm = embedded_llm(model_path, backend=backend, n_ctx=8192, n_threads=threads or None)
    while (job := conn.recv()) is not None:
        kind, messages = job
        res = structured_call(llm, messages, SCHEMAS[kind], max_tokens=max_tokens, repair=False)
        conn.send((res.calls, res.value is not None))


def run_llm_bench(model: str, backends: list[str], rounds: int = 1, max_tokens: int = 400, threads: int = 0) -> dict:
    """Interleave the backends (one worker process each, one call at a time) over the same prompts; print
    and return their figures."""
    import multiprocessing as mp

    from rag_assets.llm.embedded import resolve_backend
    from rag_assets.llm.models import ensure_model

    backends = [resolve_backend(b) for b in backends]
    path = str(ensure_model(model))
    ctx = mp.get_context("spawn")
    workers = {}
    for b in dict.fromkeys(backends):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child, path, b, threads, max_tokens), daemon=True)
        proc.start()
        workers[b] = (parent, proc)
    stats = {b: BackendStats(b) for b in workers}
    prompts = bench_prompts()
    try:
        for r in range(rounds):
            for i, job in enumerate(prompts):
                for b, (conn, proc) in workers.items():
                    conn.send(job)
                    if not conn.poll(600):
                        raise RuntimeError(f"backend {b} gave no answer in 600 s (exit code {proc.exitcode})")
                    calls, valid = conn.recv()
                    stats[b].add(calls, valid)
                    print(f"  round {r + 1} prompt {i + 1}/{len(prompts)} {b:18} {stats[b].answers[-1]:6.1f}s "
                          f"{calls[0].prompt_tokens}+{sum(c.completion_tokens for c in calls)} tokens", flush=True)
    finally:
        for conn, proc in workers.values():
            if proc.is_alive():
                conn.send(None)
            proc.join(timeout=30)
    print(f"\nmodel {model}; {len(prompts)} prompts x {rounds} round(s), interleaved; greedy, JSON grammar")
    print(f"{'backend':18} {'prompt t/s':>10} {'gen t/s':>10} {'s/answer':>10} {'answers':>8} {'invalid':>8}")
    for b in stats:
        print(stats[b].row())
    return stats
