"""A throwaway Redis server on 127.0.0.1 from Debian's ``redis-server``, the Celery broker of the cluster test
and of a cluster tried on one machine:

    python -m rag_assets.tools.local_redis /tmp/redis   # runs in the foreground, prints its URL
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path


def available() -> bool:
    return shutil.which("redis-server") is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port: int, proc: subprocess.Popen, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"redis-server did not listen on 127.0.0.1:{port} within {seconds:.0f} s")


@contextmanager
def local_redis(folder: Path):
    """A Redis server (no persistence) for the duration of the block; yields its URL."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                             "--appendonly", "no", "--dir", str(folder)],
                            stdout=open(folder / "redis.log", "w"), stderr=subprocess.STDOUT)
    try:
        _wait(port, proc)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    with local_redis(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/rag_assets_redis")) as url:
        print(url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
