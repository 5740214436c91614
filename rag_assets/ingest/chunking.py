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


def chunk_page(
    page: PageText,
    report_sha1: str,
    cfg: ChunkingConfig = ChunkingConfig(),
    table_blocks: dict[int, list[str]] | None = None,
) -> list[Chunk]:
    """Chunks of one page, in reading order; ``table_blocks`` (table ordinal -> serialized statements) adds
    chunks of kind "table_blocks" right after their table's chunks."""
    texts: list[tuple[str, str]] = []  # (kind, text)
    ordinal = -1
    units: list[str] = []  # sentences waiting to be packed
    blocks = page_blocks(page.text)

    def flush_units() -> None:
        if not units:
            return
        counts = count_tokens(units)
        cur: list[tuple[str, int]] = []
        used = 0
        for unit, n in zip(units, counts):
            if n > cfg.max_tokens:
                if cur:
                    texts.append(("text", " ".join(u for u, _ in cur)))
                    cur, used = [], 0
                texts.extend(("text", part) for part in split_by_tokens(unit, cfg.max_tokens, cfg.overlap_tokens))
                continue
            if cur and used + n > cfg.max_tokens:
                texts.append(("text", " ".join(u for u, _ in cur)))
                # carry the last sentences (at most overlap_tokens) into the next chunk
                carry: list[tuple[str, int]] = []
                carried = 0
                for u, k in reversed(cur):
                    if carried + k > cfg.overlap_tokens:
                        break
                    carry.insert(0, (u, k))
                    carried += k
                cur, used = carry, carried
            cur.append((unit, n))
            used += n
        if cur:
            texts.append(("text", " ".join(u for u, _ in cur)))
        units.clear()

    for pos, (kind, block) in enumerate(blocks):
        if kind == "table":
            flush_units()
            caption = ""
            if pos > 0 and blocks[pos - 1][0] == "text":
                prev = blocks[pos - 1][1]
                if count_tokens([prev])[0] <= cfg.caption_tokens:
                    caption = prev
            whole = (caption + "\n" + block) if caption else block
            if count_tokens([whole])[0] <= cfg.max_tokens:
                texts.append(("table", whole))
            else:
                texts.extend(("table", piece) for piece in _split_table(block, caption, cfg))
            ordinal += 1
            if table_blocks and table_blocks.get(ordinal):
                texts.extend(("table_blocks", t) for t in _pack_blocks(table_blocks[ordinal], caption, cfg))
        else:
            is_caption = (
                pos + 1 < len(blocks)
                and blocks[pos + 1][0] == "table"
                and count_tokens([block])[0] <= cfg.caption_tokens
            )
            if not is_caption:  # a caption travels with its table only
                units.extend(_sentences(block))
    flush_units()

    counts = count_tokens([t for _, t in texts])
    return [
        Chunk(
            chunk_id=f"{report_sha1}:{page.page_index}:{k}",
            report_sha1=report_sha1,
            page_index=page.page_index,
            chunk_index=k,
            text=text,
            n_tokens=n,
            kind=kind,
        )
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

