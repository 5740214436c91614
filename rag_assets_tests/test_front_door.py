"""The front door, tried as a user does: a wheel installed into a fresh virtualenv outside the repository
answers a question from another folder; the README's UI command serves the definitions from a fresh clone."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
import venv

import pytest

from rag_assets.storage.paths import PROJECT_ROOT, in_checkout
from rag_assets_tests.conftest import embedded_model, free_port, fresh_clone, stop_process_group

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not in_checkout(), reason="needs the source checkout")]

NOISE = re.compile(r"Traceback|WARNING|Warning:|UserWarning|packaged ONNX graph", re.I)


def _clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("RAG_ASSETS_", "DAGSTER_", "PYTHON", "VIRTUAL_ENV"))}
    return {**env, **extra}


def test_a_wheel_in_a_fresh_virtualenv_answers_from_another_folder(tmp_path):
    clone = fresh_clone(tmp_path / "clone")
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(wheels), str(clone)], check=True, capture_output=True, timeout=300)
    wheel = next(wheels.glob("rag_assets-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    install = subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel)],
                             capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-3000:]
    work = tmp_path / "elsewhere"  # not the repository: nothing may be read from the checkout
    work.mkdir()
    env = _clean_env(RAG_ASSETS_MODELS=str(tmp_path / "models"),  # the fused graph is built by this install
                     RAG_ASSETS_GGUF=embedded_model("qwen2.5-coder-1.5b"))  # the default model
    rag = str(env_dir / "bin" / "rag-assets")

    def run(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
        done = subprocess.run([rag, *args], cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        return done

    where = subprocess.run([str(py), "-c", "import rag_assets; print(rag_assets.__file__)"], cwd=work, env=env,
                           capture_output=True, text=True, check=True).stdout
    assert str(env_dir) in where and str(PROJECT_ROOT) not in where
    models = subprocess.run([str(py), "-c", "from rag_assets.ingest.ocr import models_version; print(models_version())"],
                            cwd=work, env=env, capture_output=True, text=True, check=True).stdout
    assert models.startswith("int8-"), f"the wheel's OCR reads with {models!r}, not its shipped int8 models"
    run("samples", "pdfs")
    ingested = run("ingest", "pdfs")
    assert not NOISE.search(ingested.stderr), ingested.stderr[-3000:]
    assert list((tmp_path / "models" / "onnx").glob("*.onnx")), "the fused embedding graph was not built"
    asked = run("ask", "What was the cash flow from operating activities (in USD) for Northwind Widgets plc "
                "according to the annual report?", "--kind", "number")
    assert "answer: 406100000" in asked.stdout, asked.stdout
    assert re.search(r"page 3 \(printed 4\) of Northwind Widgets plc", asked.stdout), asked.stdout
    assert (work / "data" / "reports").is_dir() and (work / "data" / "dagster" / "dagster.yaml").is_file()


def _graphql(port: int, query: str) -> dict:
    req = urllib.request.Request(f"http://127.0.0.1:{port}/graphql", data=json.dumps({"query": query}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())["data"]


REPOSITORY = """{ repositoriesOrError { ... on RepositoryConnection { nodes {
  jobs { name } sensors { name } schedules { name } assetNodes { assetKey { path } } } } } }"""


def test_the_ui_starts_from_a_fresh_clone_with_its_definitions(tmp_path):
    clone = fresh_clone(tmp_path / "clone")
    port = free_port()
    log = tmp_path / "ui.log"
    env = _clean_env(PYTHONPATH=str(clone))  # the clone's code, as its own editable install would give
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "ui", "--port", str(port)], cwd=clone,
                                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        repo = None
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                nodes = _graphql(port, REPOSITORY)["repositoriesOrError"]["nodes"]
                if nodes:
                    repo = nodes[0]
                    break
            except OSError:
                pass
            time.sleep(1)
        assert repo, f"the UI did not serve the definitions:\n{log.read_text()[-3000:]}"
        assert {"ingest_reports", "evaluate_config"} <= {j["name"] for j in repo["jobs"]}
        assert "inbox_sensor" in {s["name"] for s in repo["sensors"]}
        assert {s["name"] for s in repo["schedules"]} == {"nightly_inbox_schedule"}
        assets = {"/".join(a["assetKey"]["path"]) for a in repo["assetNodes"]}
        assert {"parsed_report", "report_chunks", "faiss_index", "bm25_index", "answers", "evaluation"} <= assets
        time.sleep(3)  # the daemon's first ticks
    finally:
        stop_process_group(proc, grace=60)
    text = log.read_text()
    assert (clone / "data" / "dagster" / "dagster.yaml").is_file(), text
    assert not NOISE.search(text), text[-3000:]
