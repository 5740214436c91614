"""``rag-assets ui``: the Dagster UI on the project's instance, from a fresh clone or an installed package, with the
evidence viewer beside it; ``rag-assets view``: the evidence viewer alone.

It creates the instance folder first (``$DAGSTER_HOME``, default ``<data root>/dagster``, with the packaged
``dagster.yaml``), then hands over to Dagster: ``dg dev`` in a checkout (the ``[tool.dg]`` project of
``pyproject.toml``), ``dagster dev -m rag_assets.orchestration.definitions`` in an installed package."""

from __future__ import annotations

import argparse
import os
import signal
import shutil
import sys
from pathlib import Path

from rag_assets.orchestration.instance import ensure_dagster_home
from rag_assets.settings import read_settings
from rag_assets.viewer.evidence import viewer_base
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
    import subprocess

    import dagster as dg

    from rag_assets.orchestration.partition_keys import migrate_partition_keys
    from rag_assets.orchestration.resources import ReportStore

    home = ensure_dagster_home()
    with dg.DagsterInstance.get() as instance:  # an older instance's SHA-1 partitions get readable keys
        moved = migrate_partition_keys(instance, ReportStore())
    if moved:
        print(f"{len(moved)} report partition(s) renamed to readable keys (nothing is re-ingested)")
    cmd, cwd = ui_command(args.host, args.port)
    port = read_settings().viewer_port
    # the viewer the evaluation's links open, in this process group (Ctrl-C stops both); it stops when this
    # process (Dagster's after the exec below) ends, however it ends
    viewer = subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "view", "--port", str(port),
                               "--parent", str(os.getpid())], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = viewer.stdout.readline()  # its address once it serves, or nothing when it exits
    if not started:
        said = (viewer.stderr.read().strip().splitlines() or ["it exited"])[-1]
        print(f"error: the evidence viewer did not start: {said.removeprefix('error: ')}", file=sys.stderr)
        return 1
    print(f"Dagster instance: {home}\nUI: http://{args.host}:{args.port}  evidence viewer: {viewer_base(port)}"
          "  (Ctrl-C stops them)", flush=True)
    os.chdir(cwd)
    # Dagster maps SIGTERM onto SIGINT's handler: started with SIGINT ignored (`... &` in a script, nohup) it
    # would ignore SIGTERM too and only SIGKILL would stop it. A background job never sees a terminal's Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.execve(cmd[0], cmd, os.environ)  # Dagster's own process from here: its signals, its exit code


def cmd_view(args) -> int:
    from rag_assets.storage.paths import data_root
    from rag_assets.viewer.reports import catalog_reports
    from rag_assets.viewer.server import Viewer, serve

    port = args.port or read_settings().viewer_port
    try:
        server = serve(Viewer(data_root(), catalog_reports(data_root())), port)
    except OSError as exc:
        print(f"error: cannot serve on 127.0.0.1:{port}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"evidence viewer: {viewer_base(server.server_port)}  (Ctrl-C stops it)", flush=True)
    if args.parent:  # the UI read that line and is Dagster now: nothing reads our output any more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.dup2(devnull, sys.stderr.fileno())
        _stop_with(args.parent, server)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _stop_with(parent: int, server) -> None:
    """Stop ``server`` when the process ``parent`` ends (this process is then another's child): the viewer of
    `rag-assets ui` never outlives it."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        server.shutdown()

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def add_ui_verb(sub) -> None:
    s = sub.add_parser("ui", help="the Dagster UI on the project's instance (creates it first)")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=3000)
    s.set_defaults(func=cmd_ui)

    s = sub.add_parser("view", help="the evidence viewer: cited pages with the quote or figures highlighted")
    s.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default RAG_ASSETS_VIEWER_PORT, 3100)")
    s.add_argument("--parent", type=int, default=0, help=argparse.SUPPRESS)  # stop when this process ends (ui)
    s.set_defaults(func=cmd_view)
