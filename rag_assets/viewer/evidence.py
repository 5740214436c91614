"""What to highlight for an answer, page by page, read from its record as the answers log keeps it: the
operands of a computed metric (row label and figure), the figure the model picked (its line and the figure as
written), the evidence quote of a yes/no or a name. And the links to the viewer's pages."""

from __future__ import annotations

from urllib.parse import quote, urlencode

from rag_assets.answer.readers.record import cited_candidate
from rag_assets.settings import read_settings

Page = tuple[str, int]  # (report sha1, zero-based page)


def _add(out: dict[Page, list[str]], page: Page, *needles: str) -> None:
    for n in needles:
        n = " ".join(str(n or "").split())[:400]
        if n and n not in out.setdefault(page, []):
            out[page].append(n)


def needles(record: dict) -> dict[Page, list[str]]:
    """Each cited page of ``record`` with the texts that show the answer on it; for a comparison, each company's
    page with the texts that show its value."""
    out: dict[Page, list[str]] = {}
    cited = [(r["pdf_sha1"], int(r["page_index"])) for r in record.get("references") or []]
    for o in (record.get("computation") or {}).get("operands") or []:
        _add(out, (o["sha1"], int(o["page_index"])), o["label"], o["written"])
    parsed = record.get("parsed") or {}
    chosen = next((c for c in record.get("candidates") or [] if "id" in c and c["id"] == parsed.get("candidate")),
                  None)
    if chosen is not None:
        _add(out, (chosen["sha1"], int(chosen["page_index"])), chosen["label"][:120],
             parsed.get("value_as_written", ""))
    elif not parsed and (first := cited_candidate(record.get("candidates") or [],
                                                  record.get("references") or [])) is not None:
        _add(out, (first["sha1"], int(first["page_index"])), first["label"][:120],  # read by Python, no model
             (first.get("figures") or [{}])[0].get("written", ""))
    for page in cited:
        _add(out, page, parsed.get("evidence_quote", ""))
        out.setdefault(page, [])
    for sub in record.get("sub_answers") or []:  # a comparison: every company's value on its own page
        for page, texts in needles(sub).items():
            for text in texts:
                _add(out, page, text)
            out.setdefault(page, [])
    return out


def viewer_base(port: int | None = None) -> str:
    """The viewer's address on 127.0.0.1 (``RAG_ASSETS_VIEWER_PORT`` unless ``port``): where links point."""
    return f"http://127.0.0.1:{port or read_settings().viewer_port}"


def page_url(base: str, sha1: str, page_index: int, texts: list[str] = (), kind: str = "page") -> str:
    """The viewer's page of one PDF page with ``texts`` highlighted (``kind`` png: the image alone)."""
    query = urlencode([("q", t) for t in texts])
    return f"{base}/{kind}/{sha1}/{page_index}" + (f"?{query}" if query else "")


def answer_url(base: str, folder: str, question: str, kind: str = "") -> str:
    """The viewer's page of one answer of an answers folder (the question's text and kind: one text asked as two
    kinds is two answers): cited pages highlighted beside the gold pages."""
    query = {"question": question, **({"kind": kind} if kind else {})}
    return f"{base}/answer/{quote(folder, safe='')}?{urlencode(query)}"
