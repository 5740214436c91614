"""A throwaway PostgreSQL server on 127.0.0.1 from the Debian package's binaries, for the Postgres deployment
test and for trying that deployment on one machine:

    python -m rag_assets.tools.local_postgres start /tmp/pg   # prints the DAGSTER_PG_* variables to export
    python -m rag_assets.tools.local_postgres stop /tmp/pg
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

DB = "dagster"
USER = "dagster"


def binaries_available() -> bool:
    return all(shutil.which(b) for b in ("initdb", "pg_ctl"))


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the ``postgres`` user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _run(cmd: list[str]) -> None:
    done = subprocess.run(_as_postgres(cmd), capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{cmd[0]} failed: {(done.stderr or done.stdout).strip()[-500:]}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(base: Path) -> dict[str, str]:
    """Create (if needed) and start a server under ``base``; returns the DAGSTER_PG_* environment
    (``DAGSTER_PG_URL`` is what deploy/dagster.postgres.yaml reads)."""
    base = Path(base).resolve()
    data = base / "data"
    base.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
    if not (data / "PG_VERSION").exists():
        _run(["initdb", "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8"])
    port = _free_port()
    _run(["pg_ctl", "-D", str(data), "-l", str(base / "server.log"), "-w", "-o", f"-h 127.0.0.1 -p {port} -k {base}",
          "start"])
    env = {"DAGSTER_PG_HOST": "127.0.0.1", "DAGSTER_PG_PORT": str(port), "DAGSTER_PG_USER": USER,
           "DAGSTER_PG_DB": DB, "DAGSTER_PG_URL": f"postgresql+psycopg2://{USER}:local@127.0.0.1:{port}/{DB}"}
    _create_db(env)
    (base / "env").write_text("".join(f"export {k}={v}\n" for k, v in env.items()))
    return env


def _create_db(env: dict[str, str], tries: int = 20) -> None:
    import psycopg2

    for _ in range(tries):
        try:
            con = psycopg2.connect(host=env["DAGSTER_PG_HOST"], port=env["DAGSTER_PG_PORT"], user=USER,
                                   dbname="postgres")
            break
        except psycopg2.OperationalError:
            time.sleep(0.25)
    con.autocommit = True
    with con.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DB,))
        if not cur.fetchone():
            cur.execute(f"CREATE DATABASE {DB}")
    con.close()


def stop(base: Path) -> None:
    subprocess.run(_as_postgres(["pg_ctl", "-D", str(Path(base).resolve() / "data"), "-m", "fast", "stop"]),
                   check=False, capture_output=True)


@contextmanager
def local_postgres(base: Path):
    """A running server for the ``with`` block: yields its DAGSTER_PG_* environment."""
    env = start(base)
    try:
        yield env
    finally:
        stop(base)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        sys.exit("usage: python -m rag_assets.tools.local_postgres start|stop DIR")
    if sys.argv[1] == "start":
        print((Path(sys.argv[2]) / "env").read_text() if start(Path(sys.argv[2])) else "", end="")
    else:
        stop(Path(sys.argv[2]))
