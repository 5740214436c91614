"""Shared fixtures: synthetic reports written once per session, an isolated data root per test."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rag_assets.core.paths import erc_dir
from rag_assets.samples import SAMPLES, write_samples


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


NORTHWIND = SAMPLES[0]
BLUEBIRD = SAMPLES[1]


def embedded_model(name: str) -> str:
    """The path of an assembled GGUF model; skips the test where it is absent (unless fetching is allowed)."""
    from rag_assets.core.models import ensure_model, model_path

    path = model_path(name)
    if not path.exists():
        if os.environ.get("RAG_ASSETS_FETCH_MODELS") == "1":
            return str(ensure_model(name))
        pytest.skip(f"{name} not assembled at {path} (rag-assets models --fetch {name})")
    return str(path)
