"""Load on the evidence viewer: a burst of concurrent requests (the index and page renders) against a viewer
served on 127.0.0.1 over a data root; prints how many were answered, dropped or failed, and p50/p95/max
latency per kind, with the machine's CPU flags.

Usage: python -m rag_assets.tools.bench_viewer [--root DATA_ROOT] [--requests 200] [--pages 8]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

MAX_REQUESTS = 1000  # bounded: this is a load check of a local server, not a flood


@dataclass(frozen=True)
class Reply:
    kind: str
    status: int  # 0: no HTTP answer (a reset, a refused or timed-out connection)
    seconds: float
    error: str = ""


def _get(kind: str, url: str, start: threading.Barrier, timeout: float) -> Reply:
    start.wait()
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            resp.read()
            status = resp.status
        return Reply(kind, status, time.perf_counter() - t0)
    except urllib.error.HTTPError as err:
        return Reply(kind, err.code, time.perf_counter() - t0)
    except OSError as exc:  # reset, refused, timed out
        return Reply(kind, 0, time.perf_counter() - t0, f"{type(exc).__name__}: {exc}")


def burst(requests: list[tuple[str, str]], timeout: float = 300.0) -> list[Reply]:
    """Send every (kind, url) of ``requests`` at once (one thread each, released together); the replies in the
    same order. Only 127.0.0.1 URLs, at most ``MAX_REQUESTS``."""
    if len(requests) > MAX_REQUESTS:
        raise ValueError(f"at most {MAX_REQUESTS} requests in a burst")
    if any(not url.startswith("http://127.0.0.1:") for _, url in requests):
        raise ValueError("a burst goes to a server on 127.0.0.1 only")
    start = threading.Barrier(len(requests))
    with ThreadPoolExecutor(max_workers=len(requests)) as pool:
        return list(pool.map(lambda kr: _get(kr[0], kr[1], start, timeout), requests))


def summary(replies: list[Reply]) -> list[str]:
    """One line per kind: answered / dropped (no HTTP answer) / other status, and p50, p95, max seconds."""
    lines = []
    for kind in dict.fromkeys(r.kind for r in replies):
        mine = [r for r in replies if r.kind == kind]
        secs = sorted(r.seconds for r in mine)
        p95 = secs[min(len(secs) - 1, int(round(0.95 * (len(secs) - 1))))]
        lines.append(f"{kind:6} {len(mine)} requests: {sum(r.status == 200 for r in mine)} answered 200, "
                     f"{sum(r.status == 0 for r in mine)} dropped, {sum(r.status not in (0, 200) for r in mine)} other; "
                     f"p50 {statistics.median(secs):.2f} s, p95 {p95:.2f} s, max {secs[-1]:.2f} s")
    return lines


def main(argv: list[str] | None = None) -> int:
    from rag_assets.storage.paths import data_root
    from rag_assets.storage.machine import machine_line
    from rag_assets.viewer.evidence import page_url
    from rag_assets.viewer.reports import catalog_reports
    from rag_assets.viewer.server import Viewer, serve

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=None, help="data root (default: the configured one)")
    ap.add_argument("--requests", type=int, default=200, help="per kind (index, page)")
    ap.add_argument("--pages", type=int, default=8, help="distinct pages rendered")
    args = ap.parse_args(argv)
    root = args.root or data_root()
    reports = catalog_reports(root)()
    if not reports:
        print(f"error: no catalogued report under {root}: ingest one first")
        return 2
    sha1 = next(iter(sorted(reports)))
    server = serve(Viewer(root, catalog_reports(root)), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    requests = [("index", f"{base}/") for _ in range(args.requests)]
    requests += [("page", base + page_url("", sha1, i % args.pages, [f"total {i % 3}"]))
                 for i in range(args.requests)]
    print(machine_line())
    t0 = time.perf_counter()
    replies = burst(requests)
    print(f"{len(requests)} concurrent requests to {base} in {time.perf_counter() - t0:.1f} s")
    for line in summary(replies):
        print(line)
    server.shutdown()
    return 0 if all(r.status == 200 for r in replies) else 1


if __name__ == "__main__":
    raise SystemExit(main())
