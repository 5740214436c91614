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


def test_killing_ui_stops_its_viewer(tmp_path):
    viewer = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "ui", "--port", str(free_port())],
                            env=_env(tmp_path, viewer), cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{viewer}/"
    try:
        deadline = time.monotonic() + 120
        while not _answers(url) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _answers(url), "the viewer never answered"
        proc.send_signal(signal.SIGKILL)  # the UI's own process (Dagster's after its exec), nothing else
        proc.wait(timeout=30)
        deadline = time.monotonic() + 5
        while _answers(url) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _answers(url), "the viewer outlived the UI"
    finally:
        try:
            stop_process_group(proc, grace=5)
        except ProcessLookupError:
            pass


def test_ui_started_in_the_background_stops_on_sigterm(tmp_path):
    """Started from a script in the background (`rag-assets ui &`, nohup), a process inherits SIGINT ignored;
    Dagster maps SIGTERM onto SIGINT's handler, so the UI ignored SIGTERM as well (to its pid and to its
    group) and only SIGKILL stopped it. Now a SIGTERM to its process group stops the UI and its viewer."""
    viewer = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "ui", "--port", str(free_port())],
                            env=_env(tmp_path, viewer), cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    url = f"http://127.0.0.1:{viewer}/"
    try:
        deadline = time.monotonic() + 120
        while not _answers(url) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _answers(url), "the viewer never answered"
        time.sleep(5)  # Dagster's own processes are up
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)  # raised TimeoutExpired before: the UI ignored SIGTERM
        deadline = time.monotonic() + 5  # the viewer notices its parent is gone
        while _answers(url) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _answers(url), "the viewer outlived the UI"
    finally:
        try:
            stop_process_group(proc, grace=5)
        except ProcessLookupError:
            pass


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
