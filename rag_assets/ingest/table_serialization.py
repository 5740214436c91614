"""Tables -> small self-contained statements, written by an LLM with structured output.

Every table of a parsed report goes to the LLM as HTML (merged cells survive as colspan) with the text just
before it on its page. The answer is a list of ``{subject_core_entity, information_block}`` in which each
block repeats the row and column headers next to every value, so one block can be found and read alone.
A table larger than the input budget is sent in row groups, each repeating the header rows. Results are
cached per (table input, model, prompt version) and every call is counted.
"""

from __future__ import annotations

import html
import json
import logging
import re
from dataclasses import asdict, dataclass
from typing import Callable

from docling_core.types.doc import DocItemLabel, DoclingDocument, TableItem, TextItem

from rag_assets.ingest.cleaning import _table_rows, clean_text
from rag_assets.llm.cache import LLMCache, LLMCost
from rag_assets.llm.schemas import BLOCK_MAX, ENTITY_MAX
from rag_assets.index.tokens import count_tokens

log = logging.getLogger(__name__)
TASK = "table_serialization"
PROMPT = "table_serialization"


@dataclass
class TableInput:
    table_id: str  # "<page_index>:<ordinal on the page>"
    page_index: int
    ordinal: int  # position among the page's tables, as in the cleaned page markdown
    part: int  # row group of a large table (0 for most)
    html: str
    context: str  # text printed just before the table on its page


@dataclass
class TableBlockRow:
    table_id: str
    page_index: int
    ordinal: int
    part: int
    block_index: int
    subject_core_entity: str
    information_block: str


def _cell_html(cells, tag: str, keep: set[int]) -> str:
    """One <tr>; a cell spanning several grid columns is written once with colspan; columns not in ``keep``
    (empty in every row) are left out."""
    out, seen = [], set()
    for c in cells:
        key = (c.start_row_offset_idx, c.start_col_offset_idx)
        if key in seen or not keep.intersection(range(c.start_col_offset_idx, c.end_col_offset_idx)):
            continue
        seen.add(key)
        span = max(1, c.end_col_offset_idx - c.start_col_offset_idx)
        attr = f' colspan="{span}"' if span > 1 else ""
        out.append(f"<{tag}{attr}>{html.escape(clean_text(c.text))}</{tag}>")
    return "<tr>" + "".join(out) + "</tr>"


def table_html_parts(item: TableItem, max_tokens: int = 500) -> list[str]:
    """The table as HTML; split into row groups of at most ~``max_tokens`` each repeating the header rows
    (small parts keep a small model's output short and inside its context)."""
    grid = item.data.grid
    if not grid:
        return []
    _, header_rows = _table_rows(item)
    keep = {
        j for row in grid for c in row if clean_text(c.text)
        for j in range(c.start_col_offset_idx, c.end_col_offset_idx)
    }
    if len(keep) < 2:
        return []  # a list or a single column of text: nothing to pair with headers
    head = [_cell_html(r, "th", keep) for r in grid[:header_rows]]
    body = [_cell_html(r, "td", keep) for r in grid[header_rows:]]
    head_tokens = count_tokens(["".join(head)])[0] if head else 0
    row_tokens = count_tokens(body) if body else []
    parts, cur, used = [], [], head_tokens
    for row, n in zip(body, row_tokens):
        if cur and used + n > max_tokens:
            parts.append(cur)
            cur, used = [], head_tokens
        cur.append(row)
        used += n
    if cur or not parts:
        parts.append(cur)
    return ["<table>" + "".join(head) + "".join(rows) + "</table>" for rows in parts]


def document_tables(doc: DoclingDocument, context_chars: int = 600, max_tokens: int = 500) -> list[TableInput]:
    """Every table of ``doc`` with two or more non-empty columns, as HTML parts, with its page, its ordinal
    among the page's tables (as in the cleaned page markdown) and the text printed before it."""
    out: list[TableInput] = []
    ordinals: dict[int, int] = {}
    recent: dict[int, list[str]] = {}
    for item, _level in doc.iterate_items():
        if not getattr(item, "prov", None):
            continue
        page = item.prov[0].page_no - 1
        if isinstance(item, TextItem):
            if item.label not in (DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER):
                text = clean_text(item.text)
                if text:
                    recent.setdefault(page, []).append(text)
            continue
        if not isinstance(item, TableItem):
            continue
        if not item.data.grid:
            continue  # the cleaner skips these too: ordinals stay aligned with the page markdown
        ordinal = ordinals.get(page, 0)
        ordinals[page] = ordinal + 1
        before = " ".join(recent.get(page, [])[-3:])[-context_chars:]
        recent[page] = []
        for part, h in enumerate(table_html_parts(item, max_tokens)):
            out.append(TableInput(f"{page}:{ordinal}", page, ordinal, part, h, before))
    return out


def _input_text(t: TableInput) -> str:
    return f"Text before the table: {t.context or '(none)'}\n\nTable:\n{t.html}"


def serialize_tables(
    tables: list[TableInput],
    llm,
    cache: LLMCache | None,
    company: str = "",
    max_output_tokens: int = 1000,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[TableBlockRow], LLMCost]:
    """Serialize every table (part) through ``llm``; cached results are reused and not counted as calls.
    ``progress(done, total)`` is called after every part."""
    from rag_assets.llm.cached_map import cached_map
    from rag_assets.llm.prompts import build_messages, load_prompt

    # where a grammar halves decoding speed (llama.cpp), decode freely: the schema and a one-shot example are
    # in the prompt, the reply is validated, and a reply that is not valid JSON keeps its complete blocks
    constrained = not getattr(llm, "grammar_slows", False)
    schema = load_prompt(PROMPT).schema

    def messages_for(t: TableInput):
        return build_messages(PROMPT, company=company or "the company", table=_input_text(t))[0]

    def ask(t: TableInput, messages, cost):
        # statements are about as long as the table: a cap near that stops a small model's runaway loops
        budget = min(max_output_tokens, 100 + 80 * t.html.count("<tr>"))
        found, result = _ask(llm, messages, schema, budget, constrained, cost)
        if not found and not constrained:  # no usable JSON at all: ask again under the grammar
            found, result = _ask(llm, messages, schema, budget, True, cost)
        blocks = _unique_blocks(found)
        if not blocks:
            cost.failures += 1
            log.warning("table %s (page %d) not serialized: %s", t.table_id, t.page_index, result.error)
        return blocks

    results, cost = cached_map(tables, messages_for, ask, llm, cache, TASK, load_prompt(PROMPT).version, progress)
    rows = [TableBlockRow(t.table_id, t.page_index, t.ordinal, t.part, k, **b)
            for t, blocks in zip(tables, results) for k, b in enumerate(blocks)]
    return rows, cost


def _ask(llm, messages, schema, budget: int, constrained: bool, cost: LLMCost):
    """One request: its (entity, block) pairs, from the validated reply or salvaged from a cut-off one."""
    from rag_assets.llm.structured import structured_call

    result = structured_call(llm, messages, schema, max_tokens=budget, repair=False, constrained=constrained)
    cost.add_calls(result.calls)
    if result.value is not None:
        return [(b.subject_core_entity, b.information_block) for b in result.value.information_blocks], result
    found = salvage_blocks(result.raw)  # a cut-off reply keeps its complete blocks
    if found:
        cost.salvaged += 1
    return found, result


BLOCK_RE = re.compile(
    r'"subject_core_entity"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"information_block"\s*:\s*"((?:[^"\\]|\\.)*)"'
)


def salvage_blocks(raw: str) -> list[tuple[str, str]]:
    """The complete {subject_core_entity, information_block} pairs of a reply that is not valid JSON
    (cut off at the token limit, as a small model's runaway list is)."""
    out = []
    for entity, block in BLOCK_RE.findall(raw or ""):
        try:
            out.append((json.loads(f'"{entity}"'), json.loads(f'"{block}"')))
        except ValueError:
            continue
    return out


def _unique_blocks(found: list[tuple[str, str]]) -> list[dict]:
    """Non-empty blocks, each once, in order (a looping model repeats itself)."""
    seen, out = set(), []
    for entity, block in found:
        entity, block = entity.strip()[:ENTITY_MAX], block.strip()[:BLOCK_MAX]
        if block and block not in seen:
            seen.add(block)
            out.append({"subject_core_entity": entity, "information_block": block})
    return out


def blocks_by_table(rows: list[dict] | list[TableBlockRow]) -> dict[int, dict[int, list[str]]]:
    """page_index -> table ordinal on that page -> its information blocks, in order."""
    out: dict[int, dict[int, list[str]]] = {}
    for r in rows:
        r = asdict(r) if isinstance(r, TableBlockRow) else r
        out.setdefault(int(r["page_index"]), {}).setdefault(int(r["ordinal"]), []).append(r["information_block"])
    return out
