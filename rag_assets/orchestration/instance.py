"""The Dagster instance the CLI and the tools use: ``$DAGSTER_HOME``, by default under the data root."""

from __future__ import annotations

import os
from pathlib import Path

from rag_assets.storage.paths import PROJECT_ROOT, data_root


def ensure_dagster_home() -> Path:
    """``$DAGSTER_HOME`` (default ``<data root>/dagster``); the repository's ``dagster.yaml`` is put there when
    the folder has none (an instance's own ``dagster.yaml``, e.g. the Postgres one, is never replaced)."""
    home = Path(os.environ.get("DAGSTER_HOME") or data_root() / "dagster").expanduser().resolve()
    os.environ["DAGSTER_HOME"] = str(home)
    home.mkdir(parents=True, exist_ok=True)
    template, target = PROJECT_ROOT / "dagster.yaml", home / "dagster.yaml"
    if template.exists() and not target.exists():
        target.write_text(template.read_text())
    return home
