"""Run configurations: one typed model, with named presets defined here and nowhere else."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, ValidationError


class SettingsError(ValueError):
    """A setting read from the environment is not valid (said in one line: the variable, its value, why)."""


class RunConfig(BaseModel):
    """Everything that decides how a question set is answered."""

    name: str
    description: str = ""
    # retrieval
    embedder: Literal["onnx", "sentence-transformers", "openai"] = "onnx"
    embedding_model: str = ""
    retrieval: Literal["vector", "bm25", "hybrid"] = "hybrid"
    vector_k: int = 30
    bm25_k: int = 30
    rrf_k: int = 60
    page_bm25: bool = True  # also rank whole pages by BM25 (not in vector mode)
    fusion: Literal["page", "chunk"] = "page"  # fuse the rankings by page, or by chunk (pages follow chunks)
    query_expansion: bool = True  # keyword query: drop template words, add synonyms (retrieval/lexicon.yaml)
    embed_without_template: bool = True  # embedding query: drop the lexicon's template phrases (with query_expansion)
    page_type_prior: bool = False  # metric questions also rank pages of the statement they want (lexicon.yaml)
    # re-fuse the first N fused pages with their order by how much of the query their best window of
    # proximity_chars holds (0: off; page fusion only)
    proximity_pages: int = Field(0, ge=0)
    proximity_chars: int = Field(400, ge=50)
    candidate_pages: int = 8  # parent pages kept after retrieval (reranked if a reranker is set)
    top_pages: int = 3  # pages sent to the answering LLM
    # reranking
    rerank: Literal["none", "llm", "yes-no", "cross-encoder"] = "none"  # yes-no: embedded LLM, P(yes) per page
    rerank_model: str = ""  # LLM for reranking (openai route); default: the answer model
    rerank_batch: int = 3
    rerank_llm_weight: float = 0.7
    rerank_passage_chars: int = 900  # yes-no: characters of each page's best passage the model reads
    cross_encoder_path: str = ""
    # answering
    llm: Literal["llama_cpp", "openai"] = "llama_cpp"
    answer_model: str = "qwen2.5-coder-1.5b"  # llama_cpp: a model name from core.models or a .gguf path
    llm_backend: Literal["auto", "ik", "llama-cpp-python"] = "auto"  # embedded route; auto: ik if installed
    base_url: str = ""  # openai route: any OpenAI-compatible endpoint (empty: api.openai.com)
    n_ctx: int = 8192
    # what the model reads for yes/no and name questions: 'pages' (top_pages whole pages) or 'passages' (the
    # best passage of passage_chars characters of each of the passage_pages best pages)
    context: Literal["pages", "passages"] = "pages"
    passage_pages: int = 6
    passage_chars: int = 700
    max_context_tokens: int = 3000  # page text budget per answer, in model tokens (approx. 4 chars each)
    max_output_tokens: int = 700
    # number questions: 'candidates' (Python lists the figures of number_pages pages that name the metric, the
    # model picks one of max_candidates by its id, Python checks scale, period, kind and currency) or 'pages'
    # (the model reads top_pages whole pages and writes the figure)
    number_reader: Literal["candidates", "pages"] = "pages"
    number_pages: int = 8
    max_candidates: int = 8
    number_verify_min: float = 0.6  # a second look (embedded models): P(yes) that the chosen line states the metric
    # cite_verified: cite only context pages that show the answer (the value, name(s) or evidence quote);
    # na_if_ungrounded: also answer N/A (False) when no page shows it; off: keep the model's citations as given
    grounding: Literal["cite_verified", "na_if_ungrounded", "off"] = "cite_verified"
    parallel_requests: int = 1
    llm_retries: int = 5  # openai route: retries of a failed call (connection, 429, 5xx), backing off 1, 2, 4 s...
    tokens_per_minute: int = 0


PRESETS: dict[str, RunConfig] = {
    "local": RunConfig(
        name="local",
        description="Embedded defaults: local MiniLM embeddings, hybrid BM25+FAISS retrieval, Qwen2.5-Coder-1.5B "
        "(llama.cpp) picks each figure among candidates Python found and checks; no network, no key.",
        grounding="na_if_ungrounded",
        number_reader="candidates",
        context="passages",
        proximity_pages=20,
    ),
    "local-fast": RunConfig(
        name="local-fast",
        description="As 'local' with Qwen2.5-Coder-0.5B: about 3x faster, weaker.",
        answer_model="qwen2.5-coder-0.5b",
        grounding="na_if_ungrounded",
        number_reader="candidates",
        context="passages",
        proximity_pages=20,
    ),
    "winner": RunConfig(
        name="winner",
        description="The ERC2 winner: text-embedding-3-large vector retrieval, 30 pages reranked by gpt-4o-mini "
        "down to 10, o3-mini answers.",
        embedder="openai",
        embedding_model="text-embedding-3-large",
        retrieval="vector",
        embed_without_template=False,  # the winner embedded the question as asked
        vector_k=60,
        candidate_pages=30,
        top_pages=10,
        rerank="llm",
        rerank_model="gpt-4o-mini",
        llm="openai",
        answer_model="o3-mini",
        max_context_tokens=30000,
        max_output_tokens=2000,
        parallel_requests=16,
        tokens_per_minute=1_000_000,
    ),
    "hybrid-api": RunConfig(
        name="hybrid-api",
        description="Local hybrid retrieval, 12 pages reranked by gpt-4o-mini down to 5, gpt-4o-mini answers.",
        candidate_pages=12,
        top_pages=5,
        rerank="llm",
        rerank_model="gpt-4o-mini",
        llm="openai",
        answer_model="gpt-4o-mini",
        max_context_tokens=12000,
        parallel_requests=8,
        tokens_per_minute=200_000,
    ),
}


def get_config(name: str, **overrides) -> RunConfig:
    if name not in PRESETS:
        raise SettingsError(f"unknown configuration {name!r}; presets: {', '.join(PRESETS)}")
    cfg = PRESETS[name]
    return cfg.model_copy(update=overrides) if overrides else cfg


def with_overrides(cfg: RunConfig, overrides: dict) -> RunConfig:
    """``cfg`` with fields overridden from text (``--set key=value``), validated; ``SettingsError`` names the
    unknown field or the bad value."""
    if not overrides:
        return cfg
    unknown = set(overrides) - set(RunConfig.model_fields)
    if unknown:
        raise SettingsError(f"unknown configuration field(s) {sorted(unknown)}; fields: "
                            f"{', '.join(sorted(RunConfig.model_fields))}")
    try:
        return RunConfig.model_validate({**cfg.model_dump(), **overrides})
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(map(str, err["loc"]))
        raise SettingsError(f"--set {field}={overrides.get(field, '')}: {err['msg']}") from None
