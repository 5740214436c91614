"""Page markdown -> chunks of ~300 tokens with 50 tokens of overlap, never across pages.

A table stays whole in one chunk (with the short caption or header text just above it) unless it alone
is larger than the budget; then it is split by rows, each piece repeating the table's header rows.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from rag_assets.storage.artifacts import PageText
from rag_assets.index.tokens import count_tokens, split_by_tokens

CHUNKER_VERSION = "chunk-2"
SENTENCE_RE = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z0-9(\"'“])")


@dataclass
class Chunk:
    chunk_id: str
    report_sha1: str
    page_index: int
    chunk_index: int
    text: str
    n_tokens: int
    kind: str  # "text" | "table" | "table_blocks" (LLM-serialized statements of the table just before)
    context: str = ""  # indexed with the text (embeddings, BM25), not shown to the answering LLM

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ChunkingConfig:
    max_tokens: int = 300
    overlap_tokens: int = 50
    caption_tokens: int = 80  # text right above a table this short travels with the table
    context: str = "none"  # "none" | "deterministic" (company, year, page, section heading) | "llm" (+ LLM text)
    table_blocks: bool = False  # serialized table statements as chunks beneath their table


def page_blocks(markdown: str) -> list[tuple[str, str]]:
    """Split page markdown into ("table" | "text", block) in order."""
    out: list[tuple[str, str]] = []
    for raw in re.split(r"\n\s*\n", markdown):
        block = raw.strip()
        if not block:
            continue
        lines = block.splitlines()
        kind = "table" if all(ln.lstrip().startswith("|") for ln in lines) else "text"
        out.append((kind, block))
    return out


def _split_table(table: str, caption: str, cfg: ChunkingConfig) -> list[str]:
    lines = table.splitlines()
    header: list[str] = []
    if len(lines) > 1 and set(lines[1].replace("|", "").strip()) <= {"-"}:
        header = lines[:2]
        body = lines[2:]
    else:
        body = lines
    prefix = "\n".join(([caption] if caption else []) + header)
    base = count_tokens([prefix])[0] if prefix else 0
    row_tokens = count_tokens(body)
    pieces: list[str] = []
    cur: list[str] = []
    used = base
    for row, n in zip(body, row_tokens):
        if cur and used + n > cfg.max_tokens:
            pieces.append("\n".join(([prefix] if prefix else []) + cur))
            cur, used = [], base
        if base + n > cfg.max_tokens:  # one gigantic row: cut it by tokens
            for part in split_by_tokens(row, max(32, cfg.max_tokens - base), cfg.overlap_tokens):
                pieces.append("\n".join(([prefix] if prefix else []) + [part]))
            continue
        cur.append(row)
        used += n
    if cur:
        pieces.append("\n".join(([prefix] if prefix else []) + cur))
    return pieces


def _sentences(block: str) -> list[str]:
    if block.startswith("## "):
        return [block]
    return [s for s in SENTENCE_RE.split(block) if s.strip()]


def _pack_blocks(blocks: list[str], caption: str, cfg: ChunkingConfig) -> list[str]:
    """Serialized table statements packed into chunks of at most ``max_tokens``, each led by the caption."""
    head = caption.splitlines()[0][:200] if caption else ""
    base = count_tokens([head])[0] if head else 0
    out, cur, used = [], [], base
    for block, n in zip(blocks, count_tokens(blocks)):
        if cur and used + n > cfg.max_tokens:
            out.append("\n".join(([head] if head else []) + cur))
            cur, used = [], base
        cur.append(block)
        used += n
    if cur:
        out.append("\n".join(([head] if head else []) + cur))
    return out


def pack_sentences(units: list[str], cfg: ChunkingConfig) -> list[str]:
    """Sentences packed into chunks of at most ``cfg.max_tokens``, consecutive chunks sharing their last
    sentences (at most ``cfg.overlap_tokens``); a sentence too long alone is split by tokens."""
    out: list[str] = []
    cur: list[tuple[str, int]] = []
    used = 0
    for unit, n in zip(units, count_tokens(units) if units else []):
        if n > cfg.max_tokens:
            if cur:
                out.append(" ".join(u for u, _ in cur))
                cur, used = [], 0
            out.extend(split_by_tokens(unit, cfg.max_tokens, cfg.overlap_tokens))
            continue
        if cur and used + n > cfg.max_tokens:
            out.append(" ".join(u for u, _ in cur))
            cur = _overlap_tail(cur, cfg.overlap_tokens)
            used = sum(k for _, k in cur)
        cur.append((unit, n))
        used += n
    if cur:
        out.append(" ".join(u for u, _ in cur))
    return out


def _overlap_tail(cur: list[tuple[str, int]], overlap_tokens: int) -> list[tuple[str, int]]:
    """The last sentences of a chunk (at most ``overlap_tokens``), carried into the next one."""
    carry: list[tuple[str, int]] = []
    carried = 0
    for u, k in reversed(cur):
        if carried + k > overlap_tokens:
            break
        carry.insert(0, (u, k))
        carried += k
    return carry


def _table_texts(blocks: list[tuple[str, str]], pos: int, cfg: ChunkingConfig, statements: list[str] | None):
    """(kind, text) chunks of the table at ``blocks[pos]``: the table (with its caption), then its statements."""
    block = blocks[pos][1]
    caption = ""
    if pos > 0 and blocks[pos - 1][0] == "text" and count_tokens([blocks[pos - 1][1]])[0] <= cfg.caption_tokens:
        caption = blocks[pos - 1][1]
    whole = (caption + "\n" + block) if caption else block
    if count_tokens([whole])[0] <= cfg.max_tokens:
        texts = [("table", whole)]
    else:
        texts = [("table", piece) for piece in _split_table(block, caption, cfg)]
    if statements:
        texts.extend(("table_blocks", t) for t in _pack_blocks(statements, caption, cfg))
    return texts


def _is_caption(blocks: list[tuple[str, str]], pos: int, cfg: ChunkingConfig) -> bool:
    """A short text right before a table: it travels with its table only."""
    return (pos + 1 < len(blocks) and blocks[pos + 1][0] == "table"
            and count_tokens([blocks[pos][1]])[0] <= cfg.caption_tokens)


def chunk_page(
    page: PageText,
    report_sha1: str,
    cfg: ChunkingConfig = ChunkingConfig(),
    table_blocks: dict[int, list[str]] | None = None,
) -> list[Chunk]:
    """Chunks of one page, in reading order; ``table_blocks`` (table ordinal -> serialized statements) adds
    chunks of kind "table_blocks" right after their table's chunks."""
    texts: list[tuple[str, str]] = []  # (kind, text)
    units: list[str] = []  # sentences waiting to be packed
    blocks = page_blocks(page.text)
    ordinal = -1
    for pos, (kind, block) in enumerate(blocks):
        if kind == "table":
            texts.extend(("text", t) for t in pack_sentences(units, cfg))
            units = []
            ordinal += 1
            texts.extend(_table_texts(blocks, pos, cfg, (table_blocks or {}).get(ordinal)))
        elif not _is_caption(blocks, pos, cfg):
            units.extend(_sentences(block))
    texts.extend(("text", t) for t in pack_sentences(units, cfg))
    counts = count_tokens([t for _, t in texts]) if texts else []
    return [
        Chunk(chunk_id=f"{report_sha1}:{page.page_index}:{k}", report_sha1=report_sha1, page_index=page.page_index,
              chunk_index=k, text=text, n_tokens=n, kind=kind)
        for k, ((kind, text), n) in enumerate(zip(texts, counts))
    ]


def chunk_pages(
    pages: list[PageText],
    report_sha1: str,
    cfg: ChunkingConfig = ChunkingConfig(),
    company: str = "",
    table_blocks: dict[int, dict[int, list[str]]] | None = None,
) -> list[Chunk]:
    """Chunks of every page; ``table_blocks`` (page_index -> table ordinal -> statements, as
    ``blocks_by_table`` gives) is used when ``cfg.table_blocks`` is on. The "llm" context starts as the
    deterministic one; the LLM's text is added by the chunk_contexts stage."""
    per_page = (table_blocks or {}) if cfg.table_blocks else {}
    out: list[Chunk] = []
    for page in pages:
        out.extend(chunk_page(page, report_sha1, cfg, per_page.get(page.page_index)))
    if cfg.context in ("deterministic", "llm"):
        from rag_assets.ingest.chunk_context import deterministic_context, heading_for, report_year, section_headings

        year = report_year(pages)
        headings = section_headings(pages)
        for c in out:
            c.context = deterministic_context(company, year, c.page_index, heading_for(c.text, headings[c.page_index]))
    elif cfg.context != "none":
        raise ValueError(f"unknown chunk context {cfg.context!r}; use 'none', 'deterministic' or 'llm'")
    return out

