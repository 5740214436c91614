"""Prompts from ``prompts/*.yaml``: instruction + answer schema + one-shot example + template, assembled
by one function. Shared rules live once in ``prompts/_shared.yaml`` and are included as ``{shared.NAME}``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel

from rag_assets.settings import read_settings
from rag_assets.storage.paths import package_file
from rag_assets.llm.schemas import SCHEMAS

PLACEHOLDER_RE = re.compile(r"\{([a-z_]+(?:\.[a-z_]+)?)\}")


def prompts_dir() -> Path:
    """``$RAG_ASSETS_PROMPTS``, else the prompts shipped in the package (``rag_assets/prompts/``)."""
    return read_settings().prompts or package_file("prompts")


def fill(template: str, values: dict[str, str]) -> str:
    """Replace ``{name}`` placeholders that have a value; leave every other brace alone (JSON examples)."""
    return PLACEHOLDER_RE.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


@dataclass(frozen=True)
class Prompt:
    name: str
    instruction: str
    example: dict
    template: str
    schema: type[BaseModel] | None
    extra: dict

    @property
    def version(self) -> str:
        import hashlib

        blob = json.dumps([self.instruction, self.example, self.template, self.extra], sort_keys=True)
        return hashlib.sha1(blob.encode()).hexdigest()[:10]


def load_shared(folder: str | None = None) -> dict:
    """The shared rules of ``_shared.yaml`` in ``folder`` (default ``prompts_dir()``), read once per folder."""
    return _load_shared(str(folder or prompts_dir()))


@lru_cache(maxsize=None)
def _load_shared(folder: str) -> dict:
    return yaml.safe_load((Path(folder) / "_shared.yaml").read_text(encoding="utf-8")) or {}


def load_prompt(name: str, folder: str | None = None) -> Prompt:
    """Prompt ``name`` of ``folder`` (default ``prompts_dir()``), read once per folder."""
    return _load_prompt(name, str(folder or prompts_dir()))


@lru_cache(maxsize=None)
def _load_prompt(name: str, folder: str) -> Prompt:
    path = Path(folder) / f"{name}.yaml"
    if not path.exists():
        raise FileNotFoundError(f"prompt {name!r} not found at {path}")
    shared = _load_shared(folder)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    values = {f"shared.{k}": v.strip() for k, v in shared.items()}
    schema_name = raw.get("schema") or ""
    schema = next((s for s in SCHEMAS.values() if s.__name__ == schema_name), None) if schema_name else None
    known = {"schema", "instruction", "example", "template"}
    return Prompt(
        name=name,
        instruction=fill(raw["instruction"], values).strip(),
        example=raw.get("example") or {},
        template=raw["template"],
        schema=schema,
        extra={k: v for k, v in raw.items() if k not in known},
    )


def schema_text(schema: type[BaseModel]) -> str:
    """A compact JSON schema for the prompt (the full one goes to constrained decoders)."""
    full = schema.model_json_schema()
    return json.dumps(_compact(full, full.get("$defs", {})), ensure_ascii=False)


def _compact(node: dict, defs: dict) -> dict:
    if "$ref" in node:
        node = defs[node["$ref"].split("/")[-1]]
    out: dict = {}
    if "properties" in node:
        out["type"] = "object"
        out["properties"] = {k: _compact(v, defs) for k, v in node["properties"].items()}
        out["required"] = node.get("required", [])
        return out
    for key in ("type", "description", "maxLength", "maxItems", "minimum", "maximum", "enum"):
        if key in node:
            out[key] = node[key]
    if "items" in node:
        out["items"] = _compact(node["items"], defs)
    if "anyOf" in node:
        out["anyOf"] = [_compact(x, defs) for x in node["anyOf"]]
    return out


def build_messages(name: str, **values: str) -> tuple[list[dict], type[BaseModel] | None]:
    """System + user messages for prompt ``name`` and the schema its answer must match."""
    prompt = load_prompt(name)
    shared = load_shared()
    system = fill(prompt.instruction, values)
    if prompt.schema is not None:
        system += "\n\n" + fill(shared["json_rules"], {"schema": schema_text(prompt.schema)}).strip()
    if prompt.example:
        ex = prompt.example
        label, shown = ("Question", ex["question"]) if "question" in ex else ("Input", ex["input"].strip())
        answer = ex["answer"] if isinstance(ex["answer"], str) else json.dumps(ex["answer"], ensure_ascii=False)
        system += f"\n\nExample\n{label}: {shown}\nAnswer:\n{answer}"
    user = fill(prompt.template, values).strip()
    return [{"role": "system", "content": system}, {"role": "user", "content": user}], prompt.schema
