"""What produced an answer, as a fingerprint: an answer is reused (a resumed run, ``evaluate`` again) only when
the same settings, model, prompts and report indexes would produce it now.

- ``settings_fingerprint``: the resolved configuration (preset and every override), the model's identity, the
  version of every prompt and of the code that answers; computed once per run.
- ``answer_key``: that, plus the reports the question is routed to and the data versions of their indexes, so
  that a re-ingested or replaced report makes its questions be answered again."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from rag_assets.config import PRESETS, RunConfig
from rag_assets.llm.prompts import load_prompt, prompts_dir
from rag_assets.settings import read_settings


def _digest(obj) -> str:
    return hashlib.sha1(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:16]


def model_identity(cfg: RunConfig) -> dict:
    """The answering model as it will be loaded: its route, name or path, and a GGUF file that replaces it."""
    gguf = read_settings().gguf if cfg.llm == "llama_cpp" else None
    return {"llm": cfg.llm, "model": cfg.answer_model, "gguf": str(gguf or ""), "base_url": cfg.base_url}


def prompt_versions() -> dict[str, str]:
    """The version (content hash) of every prompt the answering may use."""
    return {p.stem: load_prompt(p.stem).version for p in sorted(prompts_dir().glob("*.yaml"))
            if not p.stem.startswith("_")}


ANSWERING_CODE = ("answer", "retrieval", "llm", "index", "config.py")  # what turns indexes into an answer


def answering_files() -> list[Path]:
    """The answering code's source files and the data files it reads (the metric library, the lexicon)."""
    root = Path(__file__).resolve().parents[2]  # the rag_assets package
    return sorted(f for part in ANSWERING_CODE for f in (
        [*(root / part).rglob("*.py"), *(root / part).rglob("*.yaml")] if (root / part).is_dir() else [root / part]))


def code_version() -> str:
    """A hash of ``answering_files``: an upgrade or an edit of the code or of its data answers again."""
    root = Path(__file__).resolve().parents[2]
    files = answering_files()
    h = hashlib.sha1()
    for f in files:
        h.update(str(f.relative_to(root)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def settings_fingerprint(cfg: RunConfig) -> str:
    """What decides an answer besides the reports: every configuration field but its description, the model,
    the prompts and the answering code."""
    fields = cfg.model_dump(exclude={"description"})
    return _digest({"config": fields, "model": model_identity(cfg), "prompts": prompt_versions(),
                    "code": code_version()})


def answer_key(settings_fp: str, index_versions: dict[str, dict]) -> str:
    """The fingerprint of one answer: the run's settings and each routed report's index versions."""
    return _digest({"settings": settings_fp, "indexes": index_versions})


def run_label(cfg: RunConfig) -> str:
    """The configuration's name as it really ran: the preset, then every field that differs from it
    (``local+answer_model=qwen2.5-coder-0.5b,top_pages=5``)."""
    preset = PRESETS.get(cfg.name)
    if preset is None:
        return cfg.name
    changed = {k: v for k, v in cfg.model_dump().items() if getattr(preset, k) != v and k != "description"}
    if "base_url" in changed:
        changed["base_url"] = without_credentials(changed["base_url"])
    return cfg.name + ("+" + ",".join(f"{k}={v}" for k, v in sorted(changed.items())) if changed else "")


def without_credentials(url: str) -> str:
    """``url`` without a user name or key in it ('http://user:KEY@host/v1' -> 'http://host/v1'): what may be
    written into a submission, the lineage table or a log."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))
