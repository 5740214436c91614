"""Page rerankers, pluggable: none, an LLM judging several pages per call, or a local cross-encoder."""

from __future__ import annotations

from abc import ABC, abstractmethod

from rag_assets.llm.clients import LLMClient

from rag_assets.llm.structured import structured_call
from rag_assets.llm.prompts import build_messages
from rag_assets.retrieval.search import RetrievedPage
from rag_assets.llm.schemas import RerankResult


def page_block(page: RetrievedPage, max_chars: int | None = None) -> str:
    text = page.text if max_chars is None else page.text[:max_chars]
    return f"PAGE {page.page_index}\n{text}"


def normalized(values: list[float]) -> list[float]:
    if not values:
        return []
    lo, hi = min(values), max(values)
    return [1.0 if hi == lo else (v - lo) / (hi - lo) for v in values]


def p_yes(llm, messages: list[dict]) -> float:
    """The model's probability that its answer to ``messages`` starts with "yes" rather than "no" (one
    forward pass through ``llm.choice_logprobs``, nothing generated)."""
    import math

    lp = llm.choice_logprobs(messages, ["yes", "no"])
    yes, no = math.exp(lp["yes"]), math.exp(lp["no"])
    return yes / (yes + no) if yes + no > 0 else 0.0


class Reranker(ABC):
    name = "none"

    @abstractmethod
    def rerank(self, question: str, pages: list[RetrievedPage], top: int) -> tuple[list[RetrievedPage], dict]:
        """Pages best first (at most ``top``) and usage figures."""


class NoReranker(Reranker):
    name = "none"

    def rerank(self, question, pages, top):
        return pages[:top], {}


class LLMReranker(Reranker):
    """Scores ``batch`` pages per call with {reasoning, relevance_score} each; final score =
    (1 - llm_weight) * normalized retrieval score + llm_weight * LLM score."""

    name = "llm"

    def __init__(self, llm: LLMClient, batch: int = 3, llm_weight: float = 0.7, page_chars: int = 6000):
        self.llm = llm
        self.batch = batch
        self.llm_weight = llm_weight
        self.page_chars = page_chars

    def rerank(self, question, pages, top):
        usage = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0, "errors": 0}
        base = normalized([p.score for p in pages])
        for start in range(0, len(pages), self.batch):
            group = pages[start : start + self.batch]
            context = "\n\n".join(page_block(p, self.page_chars) for p in group)
            messages, _ = build_messages("rerank", context=context, question=question)
            res = structured_call(self.llm, messages, RerankResult, max_tokens=150 * len(group) + 100)
            usage["calls"] += len(res.calls)
            usage["prompt_tokens"] += res.prompt_tokens
            usage["completion_tokens"] += res.completion_tokens
            usage["seconds"] += res.seconds
            scores = {}
            if res.value is not None:
                scores = {r.page: r.relevance_score for r in res.value.page_rankings}
            else:
                usage["errors"] += 1
            for p in group:
                p.llm_score = scores.get(p.page_index, 0.0)
        for p, b in zip(pages, base):
            p.score = (1 - self.llm_weight) * b + self.llm_weight * (p.llm_score or 0.0)
        return sorted(pages, key=lambda p: -p.score)[:top], usage


class CrossEncoderReranker(Reranker):
    """A cross-encoder from a local folder (``cross_encoder.load_cross_encoder``: an ONNX export on onnxruntime,
    or a sentence-transformers model with the ``[torch]`` extra; none ships in a package here). Final score =
    (1 - llm_weight) * normalized retrieval score + llm_weight * sigmoid(logit)."""

    name = "cross-encoder"

    def __init__(self, model_path: str, llm_weight: float = 0.7, page_chars: int = 4000):
        from rag_assets.retrieval.cross_encoder import load_cross_encoder

        self.model = load_cross_encoder(model_path)
        self.llm_weight = llm_weight
        self.page_chars = page_chars

    def rerank(self, question, pages, top):
        import math
        import time

        t0 = time.perf_counter()
        logits = self.model.predict([(question, p.text[: self.page_chars]) for p in pages]) if pages else []
        base = normalized([p.score for p in pages])
        for p, b, z in zip(pages, base, logits):
            p.llm_score = 0.5 * (1 + math.tanh(float(z) / 2))  # the sigmoid, without overflow
            p.score = (1 - self.llm_weight) * b + self.llm_weight * p.llm_score
        usage = {"calls": 1 if pages else 0, "seconds": round(time.perf_counter() - t0, 3)}
        return sorted(pages, key=lambda p: -p.score)[:top], usage


class YesNoReranker(Reranker):
    """The embedded LLM judges each candidate page's best passage (``best_passage``): the probability of its
    first answer token being "yes" rather than "no", read from one forward pass (no generation; the prompt's
    instruction-and-question prefix stays in the KV cache between pages). Final score =
    (1 - llm_weight) * normalized retrieval score + llm_weight * P(yes)."""

    name = "yes-no"

    def __init__(self, llm, keywords, llm_weight: float = 0.7, passage_chars: int = 900):
        if not hasattr(llm, "choice_logprobs"):
            raise ValueError(f"rerank='yes-no' needs an embedded LLM that exposes token probabilities (the ik "
                             f"backend); {type(llm).__name__} does not: use rerank='llm' on this route")
        self.llm = llm
        self.keywords = keywords  # query text -> KeywordQuery (the retriever's)
        self.llm_weight = llm_weight
        self.passage_chars = passage_chars

    def rerank(self, question, pages, top):
        import time

        from rag_assets.llm.prompts import build_messages
        from rag_assets.retrieval.passages import best_passage

        t0 = time.perf_counter()
        kq = self.keywords(question)
        base = normalized([p.score for p in pages])
        for p, b in zip(pages, base):
            passage = best_passage(p.text, kq.own, kq.added, self.passage_chars)
            messages, _ = build_messages("rerank_yesno", question=question, page=str(p.page_index), passage=passage)
            p.llm_score = p_yes(self.llm, messages)
            p.score = (1 - self.llm_weight) * b + self.llm_weight * p.llm_score
        usage = {"calls": len(pages), "seconds": round(time.perf_counter() - t0, 3)}
        return sorted(pages, key=lambda p: -p.score)[:top], usage
