"""The evidence viewer's web pages, served on 127.0.0.1: a PDF page with its highlights (``/page``), one answer
with its cited pages beside the gold pages and its computation (``/answer``), and every evaluated answers
folder with its wrong answers (``/``). Read-only: it opens the PDFs and the answers folders of the data root."""

from __future__ import annotations

import html
import json
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, unquote, urlsplit

from rag_assets.answer.evidence.computed import describe
from rag_assets.answer.readers.record import answered, judgement_lines
from rag_assets.answer.service.lineage import AnswerLog
from rag_assets.viewer.evidence import answer_url, needles, page_url
from rag_assets.viewer.reports import Superseded, current
from rag_assets.storage.page_labels import page_name, printed_label
from rag_assets.viewer.highlight import render

log = logging.getLogger(__name__)
Reports = Callable[[], dict[str, tuple[Path, str]]]  # sha1 -> (PDF path, company name), read per request
STYLE = ("body{font-family:sans-serif;margin:0}header{padding:8px 12px;background:#f4f4f4}"
         ".found{color:#176b2c}.missing{color:#a0001c}.side{display:flex;gap:12px;align-items:flex-start}"
         "figure{margin:0 12px}img{display:block;border:1px solid #ccc}")


def _doc(title: str, body: str) -> bytes:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>{body}</body></html>").encode()


def _shown(value) -> str:
    return " | ".join(map(str, value)) if isinstance(value, list) else str(value)


def _item(found: bool, needle: str) -> str:
    said = "found" if found else "not on the text layer"
    return f"<li class='{'found' if found else 'missing'}'>{said}: {html.escape(needle[:200])}</li>"


class Viewer:
    """The pages, over the data root ``root`` and the reports ``reports`` knows."""

    def __init__(self, root: Path, reports: Reports, base: str = ""):
        self.root, self.reports, self.base = Path(root), reports, base
        self._pdfium = threading.Lock()  # PDFium is not thread-safe: one page rendered at a time
        self._rendered: dict[tuple, tuple] = {}  # the last renders: a page view's image is fetched right after it
        self._hashed: dict[tuple, str] = {}  # (path, size, time) -> the SHA-1 of a PDF that changed on disk

    def _render(self, path: Path, page: int, texts: list[str]):
        key = (str(path), path.stat().st_mtime_ns, page, tuple(texts))
        with self._pdfium:
            if key not in self._rendered:
                if len(self._rendered) >= 16:
                    self._rendered.pop(next(iter(self._rendered)))
                self._rendered[key] = render(path, page, texts)
            return self._rendered[key]

    def png(self, sha1: str, page: int, texts: list[str]) -> bytes:
        path, _ = self._report(sha1)
        return self._render(path, page, texts)[0]

    def page(self, sha1: str, page: int, texts: list[str]) -> bytes:
        path, company = self._report(sha1)
        t0 = time.perf_counter()
        _, found = self._render(path, page, texts)
        items = "".join(_item(f.found, f.needle) for f in found)
        log.info("page %s p%d: %d of %d found in %.2fs", sha1[:8], page, sum(f.found for f in found), len(found),
                 time.perf_counter() - t0)
        src = page_url("", sha1, page, texts, kind="png")
        label = self._label(path, page)
        printed = f"; printed {html.escape(label)}" if label else ""
        return _doc(f"{company} p{page}", f"<header><b>{html.escape(company)}</b>, page {page} (zero-based{printed}) "
                    f"of {html.escape(path.name)}<ul>{items}</ul></header><img id='page' src='{src}'>")

    def _label(self, path: Path, page: int) -> str | None:
        with self._pdfium:
            return printed_label(path, page)

    def answers_folder(self, folder: str) -> Path:
        """The answers folder ``folder`` names: one of the data root's ``answers/`` folders, by its name, never a
        path ('..', '/tmp/x' and the like are no folder of it)."""
        base = (self.root / "answers").resolve()
        known = {p.name: p for p in base.iterdir() if p.is_dir()} if base.is_dir() else {}
        if folder not in known or known[folder].resolve().parent != base:
            raise KeyError(f"no answers folder {folder!r}")
        return known[folder]

    def answer(self, folder: str, question: str, kind: str = "") -> bytes:
        """One answer as the record says it: the pages it cites ('searched' for an N/A or a False for want of
        evidence, which cite nothing) beside the gold pages, its plan, computation and reason."""
        logged = AnswerLog(self.answers_folder(folder) / "answers.jsonl").load(include_errors=True)
        found = [r for (text, k), r in logged.items() if text == question and (not kind or k == kind)]
        if not found:
            raise KeyError(f"no answer to that question in answers/{folder}")
        record = found[-1]
        row = self._scored(folder).get((question, record.get("kind", "")), {})
        shown = "cited" if answered(record) else "searched"
        cited = "".join(self._figure(sha1, p, texts, shown) for (sha1, p), texts in needles(record).items())
        gold = sorted({tuple(k.rsplit(":", 1)) for pool in row.get("gold_pools", []) for k in pool})
        golds = "".join(self._figure(sha1, int(p), [], "gold") for sha1, p in gold[:4])
        plan = record.get("plan") or {}
        planned = [f"plan ({plan['source']}): {plan['formula']} [{plan['how']}]; period "
                   f"{', '.join(map(str, plan.get('years', [])))}; unit {plan.get('unit', '')}"] if plan.get("source") else []
        names = self._names()
        reason = [f"{record.get('value')} because: {record['na_reason']}"] if record.get("na_reason") else []
        lines = "<br>".join(html.escape(x) for x in reason + planned + describe(record.get("computation"), names)
                            + judgement_lines(record, names))
        head = (f"<b>{html.escape(question)}</b><br>answer: {html.escape(str(record.get('value')))}"
                + (f" &nbsp; gold: {html.escape(_shown(row.get('gold')))}" if row else "") + f"<br>{lines}")
        return _doc("answer", f"<header>{head}</header><div class='side'><div>{cited or 'no page cited'}</div>"
                    f"<div>{golds}</div></div>")

    def configurations(self) -> bytes:
        """Every evaluated configuration's figures side by side: a table and a bar chart."""
        summaries, damaged = {}, []
        for folder in self._evaluated():
            try:
                summaries[folder] = self._summary(folder)
            except (ValueError, RuntimeError, AttributeError) as exc:  # one damaged file: its own line
                damaged.append(_damaged(folder, exc))
        if not summaries:
            return _doc("configurations", "".join(damaged) or
                        "<p>no evaluated configuration yet (rag-assets evaluate)</p>")
        return _doc("configurations", "<h3>Configurations side by side</h3>" + compare_chart(summaries)
                    + compare_table(summaries) + "".join(damaged))

    def _evaluated(self) -> list[str]:
        return sorted(p.name for p in (self.root / "answers").glob("*") if (p / "evaluation.json").exists())

    def _evaluation(self, folder: str) -> dict:
        """The answers folder's evaluation.json (empty when there is none)."""
        path = self.answers_folder(folder) / "evaluation.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def _summary(self, folder: str) -> dict:
        summary = self._evaluation(folder).get("summary", {})
        if not isinstance(summary, dict):
            raise RuntimeError(f"answers/{folder}/evaluation.json: its summary is not an object")
        return summary

    def index(self) -> bytes:
        parts = ["<p><a href='/configurations'>every configuration's figures side by side</a></p>"]
        for folder in self._evaluated():
            try:
                wrong = [r for r in self._scored(folder).values() if r.get("value_score", 1) < 1]
            except (ValueError, RuntimeError, AttributeError, TypeError, KeyError) as exc:
                parts.append(_damaged(folder, exc))  # one damaged file breaks only its own list, named
                continue
            links = "".join(f"<li><a href='{answer_url(self.base, folder, r['question_text'], r.get('kind', ''))}'>"
                            f"{html.escape(r['question_text'][:140])}</a></li>" for r in wrong)
            parts.append(f"<h3 id='{html.escape(folder, quote=True)}'>{html.escape(folder)}: {len(wrong)} wrong</h3>"
                         f"<ul>{links}</ul>")
        if len(parts) == 1:
            parts.append("<p>no evaluated answers yet (rag-assets evaluate)</p>")
        return _doc("answers", "".join(parts))

    def _figure(self, sha1: str, page: int, texts: list[str], kind: str) -> str:
        try:
            path, company = self._report(sha1)
        except Superseded as exc:
            return f"<figure class='{kind}'><figcaption>{kind}: p{page}: {html.escape(str(exc))}</figcaption></figure>"
        link = page_url(self.base, sha1, page, texts)
        src = page_url("", sha1, page, texts, kind="png")
        name = html.escape(page_name(page, self._label(path, page)))
        return (f"<figure class='{kind}'><figcaption>{kind}: <a href='{link}' target='_blank' rel='noopener'>"
                f"{html.escape(company)} {name}</a></figcaption><img src='{src}' width='600'></figure>")

    def _scored(self, folder: str) -> dict[tuple[str, str], dict]:
        return {(r["question_text"], r.get("kind", "")): r for r in self._evaluation(folder).get("rows", [])}

    def _report(self, sha1: str) -> tuple[Path, str]:
        """(PDF, company) of a current report (``reports.current``)."""
        return current(self.reports().get(sha1), sha1, self._hashed)

    def _names(self) -> dict[str, str]:
        return {sha1: found[1] for sha1, found in self.reports().items()}


# the figures compared, as (summary key, shown name, scale to percent); None: not a percent (a table row only)
FIGURES = (("G_percent", "G %", 1), ("R_percent", "R %", 1), ("value_accuracy", "value accuracy %", 100),
           ("accuracy_number", "numbers %", 100), ("accuracy_boolean", "yes/no %", 100),
           ("accuracy_names", "names %", 100), ("page_hit@5", "page hit@5 %", 100),
           ("score_per_100", "score per 100", None), ("seconds_per_question", "s per question", None),
           ("questions", "questions", None), ("errors", "errors", None))
BAR_W, GROUP_W, CHART_H, LEFT = 16, 120, 200, 40  # a group per figure, wide enough for its label at 1280 px
COLORS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7")


def compare_table(summaries: dict[str, dict]) -> str:
    """One row per figure, one column per configuration, each figure in the unit its name says (a fraction
    0.875 under 'value accuracy %' is shown 87.5)."""
    head = "".join(f"<th>{html.escape(name)}</th>" for name in summaries)
    rows = "".join(f"<tr><td>{html.escape(shown)}</td>"
                   + "".join(f"<td>{html.escape(_figure_text(s.get(key), scale))}</td>" for s in summaries.values())
                   + "</tr>" for key, shown, scale in FIGURES)
    return f"<table border='1' cellpadding='4'><tr><th>figure</th>{head}</tr>{rows}</table>"


def _damaged(folder: str, exc: Exception) -> str:
    return (f"<p class='missing'>answers/{html.escape(folder)}/evaluation.json cannot be read "
            f"({html.escape(type(exc).__name__)}: {html.escape(str(exc)[:200])}): evaluate again to rewrite it</p>")


def _figure_text(value, scale: float | None = None) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value * scale:.1f}" if scale else f"{value:g}"
    return "-" if value is None else str(value)


def compare_chart(summaries: dict[str, dict]) -> str:
    """An SVG bar chart of the percent figures: a group per figure, a bar per configuration (a legend names
    them); a figure a configuration lacks has no bar."""
    percents = [(key, shown, scale) for key, shown, scale in FIGURES if scale is not None]
    names = list(summaries)
    group = max(GROUP_W, len(names) * BAR_W + 20)
    width, top = LEFT + len(percents) * group, 16  # room above the bars for their values
    bars, labels = [], []
    for g, (key, shown, scale) in enumerate(percents):
        x0 = LEFT + g * group + (group - len(names) * BAR_W) / 2
        labels.append(f"<text x='{LEFT + g * group + group / 2}' y='{top + CHART_H + 16}' font-size='12' "
                      f"text-anchor='middle'>{html.escape(shown)}</text>")
        for c, name in enumerate(names):
            value = summaries[name].get(key)
            if not isinstance(value, (int, float)):
                continue
            shown_value = value * scale
            h = max(0.0, min(100.0, shown_value)) * CHART_H / 100
            x = x0 + c * BAR_W
            bars.append(f"<rect class='bar' x='{x:.1f}' y='{top + CHART_H - h:.1f}' width='{BAR_W - 2}' "
                        f"height='{h:.1f}' fill='{COLORS[c % len(COLORS)]}'><title>{html.escape(name)}: "
                        f"{html.escape(shown)} {shown_value:.1f}</title></rect>"
                        f"<text x='{x + BAR_W / 2 - 1:.1f}' y='{top + CHART_H - h - 3:.1f}' font-size='9' "
                        f"text-anchor='middle'>{shown_value:.0f}</text>")
    legend = "".join(f"<span style='color:{COLORS[c % len(COLORS)]}'>&#9632;</span> {html.escape(name)} &nbsp; "
                     for c, name in enumerate(names))
    return (f"<svg width='{width}' height='{top + CHART_H + 24}' role='img'>{_axis(width, top)}{''.join(bars)}"
            f"{''.join(labels)}</svg><p>{legend} (percent; the value above each bar)</p>")


def _axis(width: float, top: int) -> str:
    """The percent axis: 0 to 100 with a tick and a light grid line every 25."""
    out = []
    for tick in range(0, 101, 25):
        y = top + CHART_H - tick * CHART_H / 100
        out.append(f"<line x1='{LEFT - 4}' y1='{y}' x2='{width}' y2='{y}' stroke='{'#888' if tick == 0 else '#eee'}'/>"
                   f"<text x='{LEFT - 6}' y='{y + 4}' font-size='10' text-anchor='end'>{tick}</text>")
    return "".join(out)


LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
REQUEST_SECONDS = 30  # a client that sends nothing for this long is dropped (a socket timeout per connection)


def _host_name(header: str | None) -> str:
    """The name of a Host header, without its port ('127.0.0.1:3100' -> '127.0.0.1', '[::1]:3100' -> '[::1]')."""
    host = (header or "").strip().lower()
    if host.startswith("["):  # an IPv6 address
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0]


def handler(viewer: Viewer, hosts: tuple[str, ...] = LOCAL_HOSTS) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = REQUEST_SECONDS

        def do_GET(self):  # noqa: N802 - the stdlib's name
            if _host_name(self.headers.get("Host")) not in hosts:  # a page of another site (DNS rebinding)
                self._send(403, "text/plain; charset=utf-8", b"forbidden: this server answers its own host names only")
                return
            url = urlsplit(self.path)
            args = parse_qs(url.query)
            parts = [unquote(p) for p in url.path.strip("/").split("/") if p]
            try:
                kind, body = route(viewer, parts, args)
            except Superseded as exc:
                self._send(410, "text/plain; charset=utf-8", f"gone: {exc}".encode())
                return
            except (KeyError, IndexError, ValueError, OSError) as exc:
                self._send(404, "text/plain; charset=utf-8", f"not found: {exc}".encode())
                return
            except Exception as exc:  # a damaged answers file: one line, the server goes on
                log.warning("viewer: %s failed: %s: %s", url.path, type(exc).__name__, exc)
                self._send(500, "text/plain; charset=utf-8", f"error: {type(exc).__name__}: {exc}".encode())
                return
            self._send(200, kind, body)

        def _send(self, status: int, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, fmt, *a):  # through logging, not stderr
            log.debug(fmt, *a)

    return Handler


def route(viewer: Viewer, parts: list[str], args: dict[str, list[str]]) -> tuple[str, bytes]:
    """(content type, body) of a path's parts and query arguments."""
    texts = args.get("q", [])
    if len(parts) == 3 and parts[0] in ("page", "png"):
        sha1, page = parts[1], int(parts[2])
        if parts[0] == "png":
            return "image/png", viewer.png(sha1, page, texts)
        return "text/html; charset=utf-8", viewer.page(sha1, page, texts)
    if parts == ["configurations"]:
        return "text/html; charset=utf-8", viewer.configurations()
    if len(parts) == 2 and parts[0] == "answer":
        return "text/html; charset=utf-8", viewer.answer(parts[1], args.get("question", [""])[0],
                                                         args.get("kind", [""])[0])
    if not parts:
        return "text/html; charset=utf-8", viewer.index()
    raise KeyError("/".join(parts))


class ViewerServer(ThreadingHTTPServer):
    """A thread per request, daemon threads, and a listen queue for bursts (the stdlib's default holds 5)."""

    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:
        """A client that left before its answer was written is no error of the server (no traceback)."""
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, TimeoutError)):
            log.debug("viewer: %s left before the answer was written", client_address[0])
            return
        super().handle_error(request, client_address)


def serve(viewer: Viewer, port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """A server of ``viewer`` bound to ``host:port`` (port 0: any free one); call ``serve_forever``. It answers
    requests whose Host header names it (127.0.0.1, localhost, [::1], or ``host``) and no other."""
    return ViewerServer((host, port), handler(viewer, tuple(dict.fromkeys((*LOCAL_HOSTS, host.lower())))))
