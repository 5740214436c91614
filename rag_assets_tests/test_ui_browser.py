"""The Dagster UI itself in a real browser (Debian's Chromium driven by Playwright), started by `rag-assets ui` as a
user starts it, on a data root with the sample reports ingested and one configuration evaluated: a report is
found by typing its company name, and a wrong answer's link in the evaluation's metadata opens the evidence
viewer with the cited page and its highlighted figure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from urllib.parse import quote
from pathlib import Path

import pytest

from rag_assets.storage.catalog import file_sha1
from rag_assets.viewer.evidence import answer_url
from rag_assets.tools.samples import NOTES_PAGE, SAMPLES
from rag_assets_tests.conftest import free_port, stop_process_group, yellow_box

CHROMIUM = Path("/usr/bin/chromium")
playwright = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]' (Playwright drives the browser)")
if not CHROMIUM.exists():
    pytest.skip("Chromium not installed (apt install chromium; .ci/run does)", allow_module_level=True)
pytestmark = pytest.mark.slow

QUESTION = ("What was the cash flow from operating activities (in USD) for Northwind Widgets plc according to the "
            "annual report?")
COMPARED = 'Which of the companies had the lowest number of employees: "Northwind Widgets plc", "Bluebird Mining Ltd"?'


def _cli(env: dict, cwd: Path, *args: str, timeout: int = 600) -> None:
    done = subprocess.run([sys.executable, "-m", "rag_assets.cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"


def _wait_for(url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{url} did not answer in {seconds:.0f} s")


@pytest.fixture(scope="module")
def ui(tmp_path_factory):
    """Samples ingested, one configuration evaluated against a gold that the answer does not match (so there
    is a wrong answer to follow), and `rag-assets ui` serving the UI and the viewer on free ports."""
    work = tmp_path_factory.mktemp("ui_work")
    data = work / "data"
    ports = {"ui": free_port(), "viewer": free_port()}
    env = {**os.environ, "RAG_ASSETS_HOME": str(data), "DAGSTER_HOME": str(data / "dagster"),
           "RAG_ASSETS_DEPLOYMENT": "ci", "RAG_ASSETS_VIEWER_PORT": str(ports["viewer"])}
    _cli(env, work, "samples", str(data / "pdfs"))
    _cli(env, work, "ingest", str(data / "pdfs"))
    northwind = next(s for s in SAMPLES if s.company == "Northwind Widgets plc")
    sha1 = file_sha1(data / "pdfs" / northwind.file_name)
    bluebird = file_sha1(data / "pdfs" / next(s for s in SAMPLES if s.company == "Bluebird Mining Ltd").file_name)
    (data / "questions.json").write_text(json.dumps([{"text": QUESTION, "kind": "number"},
                                                     {"text": COMPARED, "kind": "comparative"}]))
    (data / "answers_gold.json").write_text(json.dumps(
        {QUESTION: {"kind": "number", "answers": ["1"], "reference_pools": [[f"{sha1}:4"]]},
         COMPARED: {"kind": "comparative", "answers": ["Bluebird Mining Ltd"],
                    "reference_pools": [[f"{sha1}:{NOTES_PAGE}"], [f"{bluebird}:{NOTES_PAGE}"]]}}))
    done = subprocess.run(["dagster", "asset", "materialize", "-m", "rag_assets.orchestration.definitions",
                           "--select", "question_set,answers,evaluation", "--partition", "local"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    log = open(work / "ui.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "ui", "--port", str(ports["ui"])],
                            cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for(f"http://127.0.0.1:{ports['ui']}/server_info")
        _wait_for(f"http://127.0.0.1:{ports['viewer']}/")
        yield {"ui": f"http://127.0.0.1:{ports['ui']}", "viewer": f"http://127.0.0.1:{ports['viewer']}",
               "work": work, "env": env, "northwind": sha1, "bluebird": bluebird}
    finally:
        stop_process_group(proc)
        log.close()


@pytest.fixture(scope="module")
def changed_ui(ui):
    """Dagster's webserver alone (no daemon: nothing rebuilds behind the test) on the same instance, with the data
    root's chunking setting changed since the reports were ingested (restored after)."""
    port = free_port()
    env = ui["env"]
    _cli(env, ui["work"], "settings", "--set", "chunk_context=deterministic")
    log = open(ui["work"] / "webserver.log", "w")
    proc = subprocess.Popen(["dagster-webserver", "-m", "rag_assets.orchestration.definitions", "-h", "127.0.0.1",
                             "-p", str(port)], cwd=ui["work"], env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        _wait_for(f"http://127.0.0.1:{port}/server_info")
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process_group(proc)
        log.close()
        _cli(env, ui["work"], "settings", "--set", "chunk_context=none")


@pytest.fixture()
def page(ui):
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1400, "height": 1000})
        tab.set_default_timeout(60_000)
        yield tab
        browser.close()


def _dismiss_welcome(tab) -> None:
    """A fresh instance greets with a newsletter dialog that covers the page: skip it as a user would."""
    skip = tab.get_by_role("button", name="Skip")
    try:
        skip.wait_for(timeout=8_000)
        skip.click()
    except playwright.TimeoutError:
        pass


def test_a_report_is_found_by_typing_its_company_name_as_printed(ui, page):
    page.goto(ui["ui"] + "/assets/parsed_report?view=partitions")
    _dismiss_welcome(page)
    page.get_by_placeholder("Filter by name…").fill("Bluebird Mining")
    found = page.get_by_text("Bluebird Mining Ltd 2022 ", exact=False).first  # the company as printed, its year
    found.wait_for()
    assert "Northwind Widgets plc" not in page.inner_text("body")  # the filter left only the company typed
    found.click()
    page.wait_for_url("**partition=Bluebird*Mining*Ltd*2022*")
    page.get_by_text("Bluebird Mining Ltd").first.wait_for()  # its materialization's company_name


def test_a_wrong_answers_link_in_the_evaluation_opens_the_highlighted_cited_page(ui, page):
    page.goto(ui["ui"] + "/assets/evaluation?view=partitions&partition=local")
    _dismiss_welcome(page)
    link = page.locator(f'a[href="{answer_url(ui["viewer"], "local", QUESTION, "number")}"]')
    link.first.wait_for()
    assert link.first.inner_text() == QUESTION
    # the viewer's list of this configuration's wrong answers opens in a new tab, the Dagster UI stays
    listed = page.locator(f'a[href="{ui["viewer"]}/#local"][target="_blank"]')
    assert listed.count() >= 1
    with page.context.expect_page() as opened:
        listed.first.click()
    tab = opened.value
    tab.wait_for_load_state()
    assert QUESTION[:100] in tab.inner_text("body") and "/assets/evaluation" in page.url
    tab.close()
    t0 = time.perf_counter()
    link.first.click()  # the markdown link of wrong_answers_evidence
    page.wait_for_url(ui["viewer"] + "/answer/local*")
    page.wait_for_load_state("networkidle")
    seconds = time.perf_counter() - t0
    text = page.inner_text("body")
    assert QUESTION in text and "406100000" in text  # the answer as given, beside the gold
    shot = ui["work"] / "answer_view.png"
    page.screenshot(path=str(shot), full_page=True)
    box = yellow_box(shot.read_bytes())
    print(f"\nclick to highlighted page: {seconds:.2f} s; highlight at {box}")
    assert box is not None, "the cited page shows no highlight"
    # the highlight sits on the cited page's image, not on the gold page beside it
    images = page.locator("img").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [e.src, r.left, r.top, r.right, r.bottom]; })")
    cited = [i for i in images if "/png/" in i[0] and "/3?" in i[0]]
    assert cited, images
    _, left, top, right, bottom = cited[0]
    assert left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom, (box, cited[0])


def test_a_partition_made_with_other_settings_shows_unsynced_in_its_own_view(ui, changed_ui, page):
    """Dagster marks a stale ("unsynced") partition only in its own detail view (dagster-io/dagster#9374): after
    a chunking change, a report's chunks say so there, with the reason in the tag's tooltip; its pages do not."""
    key = quote(next(k for k in _partition_keys(ui["work"]) if k.startswith("Northwind Widgets plc 2023 ")))
    page.goto(f"{changed_ui}/assets/report_chunks?view=partitions&partition={key}")
    _dismiss_welcome(page)
    tag = page.get_by_text("Unsynced", exact=False).first
    tag.wait_for()
    tag.hover()
    page.get_by_text("has a new code version", exact=False).first.wait_for()
    page.screenshot(path=str(ui["work"] / "unsynced.png"))
    page.goto(f"{changed_ui}/assets/report_pages?view=partitions&partition={key}")
    page.get_by_text("Latest materialization", exact=False).first.wait_for()
    assert "Unsynced" not in page.inner_text("body"), "pages do not depend on chunking"


def test_a_comparisons_answer_page_highlights_every_companys_value(ui, page):
    """The comparison's viewer page shows each company's cited page with its own figure highlighted (4,210 and
    812 employees), not one company's page, nor pages with nothing marked."""
    page.goto(answer_url(ui["viewer"], "local", COMPARED))
    text = page.inner_text("body")
    assert "Bluebird Mining Ltd" in text and "Northwind Widgets plc" in text
    cited = page.locator("figure.cited img").evaluate_all("els => els.map(e => e.src)")
    companies = {src.split("/png/")[1].split("/")[0] for src in cited}
    assert companies == {ui["northwind"], ui["bluebird"]}, cited
    for src in cited:
        assert yellow_box(page.request.get(src).body()) is not None, f"nothing highlighted on {src}"


def test_stale_reports_show_in_the_asset_graph_without_opening_a_partition(ui, page):
    """report_status's check warns on the asset graph's node while any report is stale: after a change of the
    data root's chunking setting (`rag-assets settings --set`), "0 / 1 Passed" on its node in the asset graph, and
    its table names both reports; with the settings they were ingested with, "1 / 1 Passed"."""
    graph = f"{ui['ui']}/assets/report_status?view=lineage"
    try:
        for setting, shown in (("none", "1 / 1 Passed"), ("deterministic", "0 / 1 Passed")):
            _cli(ui["env"], ui["work"], "settings", "--set", f"chunk_context={setting}")
            done = subprocess.run(["dagster", "asset", "materialize", "-m", "rag_assets.orchestration.definitions",
                                   "--select", "report_status"], cwd=ui["work"], env=ui["env"], capture_output=True,
                                  text=True, timeout=900)
            assert done.returncode == 0, done.stderr[-3000:]
            page.goto(graph)
            _dismiss_welcome(page)
            page.get_by_text(shown).first.wait_for()
        page.screenshot(path=str(ui["work"] / "stale_in_graph.png"))
        page.goto(f"{ui['ui']}/assets/report_status")
        page.get_by_text("Northwind Widgets plc 2023 ", exact=False).first.wait_for()  # the stale reports, by key
        page.get_by_text("Bluebird Mining Ltd 2022 ", exact=False).first.wait_for()
    finally:
        _cli(ui["env"], ui["work"], "settings", "--set", "chunk_context=none")


def _partition_keys(work: Path) -> list[str]:
    from rag_assets.orchestration.ingest_assets import reports_partitions

    script = ("import dagster as dg, json; print(json.dumps(dg.DagsterInstance.get().get_dynamic_partitions("
              f"{reports_partitions.name!r})))")
    done = subprocess.run([sys.executable, "-c", script], cwd=work, capture_output=True, text=True,
                          env={**os.environ, "DAGSTER_HOME": str(work / "data" / "dagster")})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)

