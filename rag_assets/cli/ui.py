"""``rag-assets ui``: the Dagster UI on the project's instance, from a fresh clone or an installed package.

It creates the instance folder first (``$DAGSTER_HOME``, default ``<data root>/dagster``, with the packaged
``dagster.yaml``), then hands over to Dagster: ``dg dev`` in a checkout (the ``[tool.dg]`` project of
``pyproject.toml``), ``dagster dev -m rag_assets.orchestration.definitions`` in an installed package."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from rag_assets.orchestration.instance import ensure_dagster_home
from rag_assets.storage.paths import PROJECT_ROOT, in_checkout

DEFINITIONS_MODULE = "rag_assets.orchestration.definitions"


def ui_command(host: str, port: int) -> tuple[list[str], Path]:
    """The command that serves the UI, and the folder to run it in."""
    address = ["--host", host, "--port", str(port)]
    beside = Path(sys.executable).parent / "dg"  # this environment's dg before any other on the PATH
    dg = str(beside) if beside.exists() else shutil.which("dg")
    if in_checkout() and dg:
        return [dg, "dev", *address], PROJECT_ROOT
    return [sys.executable, "-m", "dagster", "dev", "-m", DEFINITIONS_MODULE, *address], Path.cwd()


def cmd_ui(args) -> int:
    home = ensure_dagster_home()
    cmd, cwd = ui_command(args.host, args.port)
    print(f"Dagster instance: {home}\nUI: http://{args.host}:{args.port}  (Ctrl-C stops it)", flush=True)
    os.chdir(cwd)
    os.execve(cmd[0], cmd, os.environ)  # Dagster's own process from here: its signals, its exit code


def add_ui_verb(sub) -> None:
    s = sub.add_parser("ui", help="the Dagster UI on the project's instance (creates it first)")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=3000)
    s.set_defaults(func=cmd_ui)
