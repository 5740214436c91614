"""Atomic writes: write to a temporary sibling, then rename over the target."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from rag_assets.settings import read_settings


def current_umask() -> int:
    """The process's umask, read without changing it (Linux: /proc/self/status; elsewhere set and reset)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temp file path beside ``target``; rename it over ``target`` only if the block succeeds. The
    temp name carries the writer's PID, so a later run can tell a dead writer's leftover from a live one."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
    os.fchmod(fd, 0o666 & ~current_umask())  # mkstemp makes 0600 whatever the umask; files follow the umask
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        _fault("before-replace", target)
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


@contextmanager
def atomic_dir(target: Path) -> Iterator[Path]:
    """Yield a fresh temp directory beside ``target``; on success it becomes ``target`` without a moment
    with no ``target``: ``target`` is a symlink to a version folder ``.<name>.v<pid>-<id>``, and the swap is
    one atomic rename of a new symlink over it. The previous version is removed afterwards."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent))
    os.chmod(tmp, 0o777 & ~current_umask())
    try:
        yield tmp
        version = target.parent / f".{target.name}.v{os.getpid()}-{uuid.uuid4().hex[:8]}"
        os.replace(tmp, version)
        _fault("version-written", target)
        _swap_link(target, version)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _swap_link(target: Path, version: Path) -> None:
    previous = target.parent / os.readlink(target) if target.is_symlink() else None
    link = target.parent / f".{target.name}.{os.getpid()}.link.tmp"
    link.unlink(missing_ok=True)
    os.symlink(version.name, link)
    legacy = None
    if target.exists() and not target.is_symlink():  # a folder written before versioned swaps: moved once
        legacy = target.parent / f".{target.name}.old.{os.getpid()}"
        os.replace(target, legacy)
    _fault("before-swap", target)
    os.replace(link, target)
    _fault("after-swap", target)
    for old in (previous, legacy):
        if old is not None and old != version:
            shutil.rmtree(old, ignore_errors=True)


def remove_index(target: Path) -> None:
    """Remove an index folder written by ``atomic_dir`` (the symlink and its version, or a plain folder)."""
    target = Path(target)
    if target.is_symlink():
        version = target.parent / os.readlink(target)
        target.unlink()
        shutil.rmtree(version, ignore_errors=True)
    elif target.exists():
        shutil.rmtree(target, ignore_errors=True)


# -- recovery of what a killed writer left behind ---------------------------------------------------------

LEFTOVER_RE = re.compile(r"^\.(?P<name>.+?)\.(?:(?P<pid>\d+)\..*\.tmp|old\.(?P<old_pid>\d+)|v(?P<v_pid>\d+)-[0-9a-f]+)$")
LEGACY_TMP_RE = re.compile(r"^\.(?P<name>.+?)\.[a-z0-9_]+\.tmp$")


def pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover_leftovers(folder: Path, depth: int = 2, apply: bool = True) -> list[str]:
    """Finish or undo what killed writers left in ``folder`` (and its subfolders, to ``depth``): temp files
    and folders are removed, a folder moved aside by an interrupted swap is put back if nothing replaced it,
    and version folders no symlink points to are removed. Leftovers of a live writer are not touched.
    Returns what was done, one line each; with ``apply=False`` nothing is changed and the lines say what
    would be done."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    done = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            done += _recover_one(entry, apply)
        elif depth > 1 and entry.is_dir() and not entry.is_symlink():
            done += recover_leftovers(entry, depth - 1, apply)
    return done


def _recover_one(entry: Path, apply: bool = True) -> list[str]:
    def act(action, done: str, would: str) -> list[str]:
        if apply:
            action()
        return [done if apply else would]

    m = LEFTOVER_RE.match(entry.name)
    if m is None:
        if LEGACY_TMP_RE.match(entry.name) is None:
            return []
        return act(lambda: _remove(entry), f"removed temp {entry}", f"would remove temp {entry}")
    pid = int(m["pid"] or m["old_pid"] or m["v_pid"])
    if pid_alive(pid):
        return []
    target = entry.parent / m["name"]
    if m["old_pid"] and not os.path.lexists(target):
        return act(lambda: os.replace(entry, target), f"restored {target} from {entry.name} (a swap was interrupted)",
                   f"would restore {target} from {entry.name} (a swap was interrupted)")
    if m["v_pid"] and target.is_symlink() and os.readlink(target) == entry.name:
        return []
    if m["v_pid"] and not os.path.lexists(target):
        return act(lambda: os.symlink(entry.name, target), f"restored {target} -> {entry.name} (a swap was "
                   "interrupted)", f"would restore {target} -> {entry.name} (a swap was interrupted)")
    return act(lambda: _remove(entry), f"removed leftover {entry}", f"would remove leftover {entry}")


def _remove(entry: Path) -> None:
    if entry.is_dir() and not entry.is_symlink():
        shutil.rmtree(entry, ignore_errors=True)
    else:
        entry.unlink(missing_ok=True)


# -- fault injection (tests and the soak script) ---------------------------------------------------------

def _fault(point: str, target: Path) -> None:
    """Kill this process at ``point`` when ``$RAG_ASSETS_FAULT`` is ``<point>:<target name>`` (the soak
    script and the fault tests use it to stop a writer between two renames); otherwise nothing."""
    want = read_settings().fault
    if want and want == f"{point}:{target.name}":
        os.kill(os.getpid(), signal.SIGKILL)


def write_text(target: Path, text: str) -> None:
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(target: Path, obj: Any) -> None:
    write_text(target, json.dumps(obj, indent=2, ensure_ascii=False, default=str))


def _json_object(path: Path) -> tuple[dict | None, str | None]:
    """The state file ``path`` read once: (its JSON object, None), or (None, why it is not one: cut by a crash,
    overwritten with garbage). ``path`` exists."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        return None, f"not valid JSON ({str(exc)[:80]})"
    return (data, None) if isinstance(data, dict) else (None, f"a JSON {type(data).__name__}, not an object")


def json_problem(path: Path) -> str | None:
    """Why the state file ``path`` is not a JSON object, or None (it is one, or it is missing). Only reads."""
    path = Path(path)
    return _json_object(path)[1] if path.exists() else None


def read_json(path: Path, default: Any = None, what: str = "", then: str = "") -> Any:
    """A state file's JSON object, or ``default`` when the file is missing. A file that is not a JSON object
    (cut by a crash, overwritten with garbage) is moved aside to ``<name>.damaged`` and read as ``default``,
    said in one warning: the ``what`` it held is rebuilt (``then``: how)."""
    path = Path(path)
    if not path.exists():
        return default
    data, problem = _json_object(path)
    if problem is None:
        return data
    aside = path.with_name(path.name + ".damaged")
    os.replace(path, aside)
    logging.getLogger(__name__).warning("%s is damaged: %s; moved to %s%s%s", path, problem, aside.name,
                                        f"; its {what} is rebuilt" if what else "", f" ({then})" if then else "")
    return default
