"""`rag-assets ui` and its evidence viewer are one process tree (issue 47, item 14): the viewer stops when the UI
process ends however it ends, a viewer that cannot bind its port is an error of `ui` (not a URL printed for
nothing), and a client that leaves early is no traceback. Real processes on 127.0.0.1."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import redirect_stderr

from rag_assets_tests.conftest import free_port, stop_process_group


def _env(tmp_path, viewer_port: int) -> dict:
    data = tmp_path / "data"
    return {**os.environ, "RAG_ASSETS_HOME": str(data), "DAGSTER_HOME": str(data / "dagster"),
            "RAG_ASSETS_DEPLOYMENT": "ci", "RAG_ASSETS_VIEWER_PORT": str(viewer_port)}


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


def test_a_viewer_port_that_cannot_be_bound_is_an_error_of_ui(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "rag_assets.cli.main", "ui", "--port", str(free_port())],
                              env=_env(tmp_path, port), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"error: the evidence viewer did not start: cannot serve on 127.0.0.1:{port}" in done.stderr
    assert "UI: http" not in done.stdout  # no address printed for a server that is not there


def _ui(tmp_path, viewer: int, **popen) -> subprocess.Popen:
    """`rag-assets ui` in a session of its own, once its viewer answers."""
    proc = subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "ui", "--port", str(free_port())],
                            env=_env(tmp_path, viewer), cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, **popen)
    deadline = time.monotonic() + 120
    while not _answers(f"http://127.0.0.1:{viewer}/") and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _answers(f"http://127.0.0.1:{viewer}/"), "the viewer never answered"
    return proc


def _gone(url: str, seconds: float = 5) -> bool:
    """The server at ``url`` stops answering within ``seconds`` (the viewer notices its parent is gone)."""
    deadline = time.monotonic() + seconds
    while _answers(url) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not _answers(url)


def _stop(proc: subprocess.Popen) -> None:
    try:
        stop_process_group(proc, grace=5)
    except ProcessLookupError:
        pass


def test_killing_ui_stops_its_viewer(tmp_path):
    viewer = free_port()
    proc = _ui(tmp_path, viewer)
    try:
        proc.send_signal(signal.SIGKILL)  # the UI's own process (Dagster's after its exec), nothing else
        proc.wait(timeout=30)
        assert _gone(f"http://127.0.0.1:{viewer}/"), "the viewer outlived the UI"
    finally:
        _stop(proc)


def test_ui_started_in_the_background_stops_on_sigterm(tmp_path):
    """Started from a script in the background (`rag-assets ui &`, nohup), a process inherits SIGINT ignored;
    Dagster maps SIGTERM onto SIGINT's handler, so the UI ignored SIGTERM as well (to its pid and to its
    group) and only SIGKILL stopped it. Now a SIGTERM to its process group stops the UI and its viewer."""
    viewer = free_port()
    proc = _ui(tmp_path, viewer, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        time.sleep(5)  # Dagster's own processes are up
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)  # raised TimeoutExpired before: the UI ignored SIGTERM
        assert _gone(f"http://127.0.0.1:{viewer}/"), "the viewer outlived the UI"
    finally:
        _stop(proc)


def test_a_client_that_leaves_early_is_no_traceback():
    from rag_assets.viewer.server import Viewer, serve

    server = serve(Viewer(os.devnull, lambda: {}), 0)
    try:
        said = io.StringIO()
        with redirect_stderr(said):
            try:
                raise BrokenPipeError(32, "Broken pipe")
            except BrokenPipeError:
                server.handle_error(None, ("127.0.0.1", 50000))
        assert said.getvalue() == ""
        with redirect_stderr(said):
            try:
                raise ValueError("a bug")
            except ValueError:
                server.handle_error(None, ("127.0.0.1", 50000))
        assert "ValueError: a bug" in said.getvalue()  # a real error still shows
    finally:
        server.server_close()
