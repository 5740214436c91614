"""The `dg` CLI (a dev dependency) sees the project's definitions."""

import shutil
import subprocess

import pytest

from rag_assets.storage.paths import PROJECT_ROOT


@pytest.mark.skipif(shutil.which("dg") is None, reason="dagster-dg-cli not installed (pip install -e '.[dev]')")
def test_dg_check_and_list_defs():
    check = subprocess.run(["dg", "check", "defs"], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert check.returncode == 0 and "All definitions loaded successfully" in check.stdout, check.stderr[-2000:]
    listed = subprocess.run(["dg", "list", "defs", "--json"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                            timeout=300)
    assert listed.returncode == 0, listed.stderr[-2000:]
    for name in ("parsed_report", "bm25_index", "evaluation", "ingest_reports", "inbox_sensor",
                 "nightly_inbox_schedule"):
        assert name in listed.stdout
