"""The Dagster instance the CLI and the tools use: ``$DAGSTER_HOME``, by default under the data root."""

from __future__ import annotations

import os
from pathlib import Path

from rag_assets.settings import read_settings
from rag_assets.storage.atomic import write_text
from rag_assets.storage.paths import data_root, package_file

INSTANCE_TEMPLATE = ("orchestration", "dagster.yaml")


def dagster_home() -> Path:
    """``$DAGSTER_HOME``, else ``<data root>/dagster``."""
    return (read_settings().dagster_home or data_root() / "dagster").expanduser().resolve()


def ensure_dagster_home() -> Path:
    """Create the instance folder (``dagster_home()``) and point ``$DAGSTER_HOME`` at it for this process and
    the processes it starts; the packaged ``dagster.yaml`` is put there when the folder has none (an
    instance's own ``dagster.yaml``, e.g. the Postgres one, is never replaced)."""
    home = dagster_home()
    os.environ["DAGSTER_HOME"] = str(home)
    home.mkdir(parents=True, exist_ok=True)
    target = home / "dagster.yaml"
    if not target.exists():
        write_text(target, package_file(*INSTANCE_TEMPLATE).read_text())
    return home
