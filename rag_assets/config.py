"""Run configurations: one typed model, with named presets defined here and nowhere else."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rag_assets.settings import EmbedderKind, LLMBackend, SettingsError

__all__ = ["PRESETS", "RunConfig", "SettingsError", "get_config", "with_overrides"]


class RunConfig(BaseModel):
    """Everything that decides how a question set is answered (each field's docstring is its documentation:
    docs/configuration.md is generated from it)."""

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True)

    name: str
    """The preset's name."""
    description: str = ""
    """What the preset is for."""
    # retrieval
    embedder: EmbedderKind = "onnx"
    """Embedder of the question (the same as the reports' FAISS index)."""
    embedding_model: str = ""
    """Embedding model (openai embedder; empty: the embedder's default)."""
    retrieval: Literal["vector", "bm25", "hybrid"] = "hybrid"
    """Rankings fused: FAISS, BM25, or both."""
    vector_k: int = Field(30, ge=1)
    """Chunks taken from the FAISS ranking."""
    bm25_k: int = Field(30, ge=1)
    """Chunks taken from the BM25 ranking."""
    rrf_k: int = Field(60, ge=1)
    """The k of reciprocal rank fusion."""
    page_bm25: bool = True
    """Also rank whole pages by BM25 (not in vector mode)."""
    fusion: Literal["page", "chunk"] = "page"
    """Fuse the rankings by page, or by chunk (pages follow chunks)."""
    query_expansion: bool = True
    """Keyword query: drop template words, add synonyms (retrieval/lexicon.yaml)."""
    embed_without_template: bool = True
    """Embedding query: drop the lexicon's template phrases (with query_expansion)."""
    page_type_prior: bool = False
    """Metric questions also rank pages of the statement they want (lexicon.yaml)."""
    proximity_pages: int = Field(0, ge=0)
    """Re-fuse the first N fused pages with their order by how much of the query their best window holds (0: off;
    page fusion only)."""
    proximity_chars: int = Field(400, ge=50)
    """Size of that window, in characters."""
    candidate_pages: int = Field(8, ge=1)
    """Parent pages kept after retrieval (reranked if a reranker is set)."""
    top_pages: int = Field(3, ge=1)
    """Pages sent to the answering LLM."""
    # reranking
    rerank: Literal["none", "llm", "yes-no", "cross-encoder"] = "none"
    """Reranker of the candidate pages (yes-no: the embedded LLM's P(yes) per page)."""
    rerank_model: str = ""
    """LLM for reranking (openai route); default: the answer model."""
    rerank_batch: int = Field(3, ge=1)
    """Pages per reranking call (llm reranker)."""
    rerank_llm_weight: float = Field(0.7, ge=0.0, le=1.0)
    """Weight of the reranker's score against the retrieval score."""
    rerank_passage_chars: int = Field(900, ge=1)
    """yes-no reranker: characters of each page's best passage the model reads."""
    cross_encoder_path: str = ""
    """cross-encoder reranker: a local model folder (an ONNX export, or sentence-transformers with [torch])."""
    # answering
    llm: Literal["llama_cpp", "openai"] = "llama_cpp"
    """Answering route: the embedded GGUF model, or an OpenAI-compatible endpoint."""
    answer_model: str = "qwen2.5-coder-1.5b"
    """llama_cpp: a model name of `rag-assets models` or a .gguf path; openai: the model name."""
    llm_backend: LLMBackend = "auto"
    """Embedded route's backend; auto: ik if installed."""
    base_url: str = ""
    """openai route: any OpenAI-compatible endpoint (empty: api.openai.com)."""
    n_ctx: int = Field(8192, ge=256)
    """Context window of the embedded model, in tokens."""
    context: Literal["pages", "passages"] = "pages"
    """What the model reads for yes/no and name questions: top_pages whole pages, or the best passage of
    passage_chars characters of each of the passage_pages best pages."""
    passage_pages: int = Field(6, ge=1)
    """passages context: pages whose best passage is read."""
    passage_chars: int = Field(700, ge=1)
    """passages context: characters per passage."""
    max_context_tokens: int = Field(3000, ge=1)
    """Page text budget per answer, in model tokens (approx. 4 characters each)."""
    max_output_tokens: int = Field(700, ge=1)
    """Tokens the model may write per answer."""
    number_reader: Literal["candidates", "pages"] = "pages"
    """Number questions: candidates (Python lists the figures of number_pages pages that name the metric, the
    model picks one of max_candidates by its id, Python checks scale, period, kind and currency) or pages (the
    model reads top_pages whole pages and writes the figure)."""
    number_pages: int = Field(8, ge=1)
    """candidates reader: pages searched for figures."""
    max_candidates: int = Field(8, ge=1)
    """candidates reader: figures shown to the model."""
    number_verify_min: float = Field(0.6, ge=0.0, le=1.0)
    """A second look (embedded models) at a chosen line whose words Python finds too thin to state the metric:
    the model's P(yes) that it states it must reach this (0: no second look)."""
    question_planner: Literal["rules", "rules+model"] = "rules"
    """Number questions naming a fiscal year: rules (Python's reader writes the formula, or none) or rules+model
    (where the reader finds none, the model writes a plan under a grammar of metrics.yaml's items that Python
    checks: years asked, printed rows, the unit's dimension; one repair round). Opt-in: measured below the rules
    on the development questions (docs/benchmarks.md)."""
    boolean_reader: Literal["statements", "model"] = "model"
    """Yes/no questions: statements (Python finds the sentences and rows of statement_pages pages that speak of the
    topic and checks them, the model judges max_statements of them one by one, True at boolean_threshold; needs
    the token probabilities of an embedded model) or model (the model reads the context and writes the answer
    with its quote)."""
    statement_pages: int = Field(16, ge=1)
    """statements reader: best-ranked pages searched for statements."""
    max_statements: int = Field(8, ge=1)
    """statements reader: statements the model judges."""
    boolean_threshold: float = Field(0.5, ge=0.0, le=1.0)
    """statements reader: the P(yes) a checked statement must reach for the answer True."""
    names_reader: Literal["statements", "model"] = "model"
    """Names questions that ask for a change ('which positions changed', 'new products launched'): statements
    (Python finds the statements of statement_pages pages that report the change and the names beside their
    event word, the model judges max_statements of them, the names of those at names_threshold are the answer;
    needs an embedded model) or model (the model reads the context and lists the names)."""
    names_threshold: float = Field(0.5, ge=0.0, le=1.0)
    """statements names reader: the P(yes) a statement with its names must reach for its names to be answered."""
    grounding: Literal["cite_verified", "na_if_ungrounded", "off"] = "cite_verified"
    """cite_verified: cite only context pages that show the answer (the value, name(s) or evidence quote);
    na_if_ungrounded: also answer N/A (False) when no page shows it; off: keep the model's citations as given."""
    parallel_requests: int = Field(1, ge=1)
    """Questions answered at once (openai route)."""
    llm_retries: int = Field(5, ge=0)
    """openai route: retries of a failed call (connection, 429, 5xx), backing off 1, 2, 4 s..."""
    tokens_per_minute: int = Field(0, ge=0)
    """openai route: a rate limit (0: none)."""
    max_question_chars: int = Field(4000, ge=1)
    """A longer question is refused (an error, not an answer); the rest of the run goes on."""
    question_deadline_s: float = Field(600.0, gt=0)
    """Seconds a question may take, retries included; a hung endpoint ends it as an error after that."""


PRESETS: dict[str, RunConfig] = {
    "local": RunConfig(
        name="local",
        description="Embedded defaults: local MiniLM embeddings, hybrid BM25+FAISS retrieval, Qwen2.5-Coder-1.5B "
        "(llama.cpp) picks each figure among candidates Python found and checks; no network, no key.",
        grounding="na_if_ungrounded",
        number_reader="candidates",
        boolean_reader="statements",
        names_reader="statements",
        context="passages",
        proximity_pages=20,
    ),
    "local-fast": RunConfig(
        name="local-fast",
        description="As 'local' with Qwen2.5-Coder-0.5B: about 3x faster, weaker.",
        answer_model="qwen2.5-coder-0.5b",
        grounding="na_if_ungrounded",
        number_reader="candidates",
        boolean_reader="statements",
        names_reader="statements",
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
