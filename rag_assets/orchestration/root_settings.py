"""The settings that shape a data root's indexes live with the data root, in ``<root>/settings.json``, so every
process on it (the UI and its daemon, ``rag-assets ingest``, ``doctor``, the sensors) builds the same code
versions, whatever its environment says. The first ingestion records them (the environment's values, else the
defaults); ``rag-assets settings --set NAME=VALUE`` changes them for every process (the reports built under the
old ones then show stale); an environment variable that disagrees with the file is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore
from rag_assets.settings import ENV_OF, Settings, SettingsError, invalid
from rag_assets.storage.atomic import write_json
from rag_assets.storage.paths import data_root
from rag_assets.storage.textfiles import InputFileError, read_json_file

FILE = "settings.json"
# each setting that shapes the indexes -> the resource field it sets, whose default is the setting's default
SHAPING = {"parser": (ParserResource, "route"), "ocr_runtime": (ParserResource, "ocr_runtime"),
           "embedder": (EmbedderResource, "provider"), "table_serialization": (ReportStore, "table_serialization"),
           "chunk_context": (ReportStore, "chunk_context"), "ingest_model": (LLMResource, "ingest_model")}


def root_of(settings: Settings) -> Path:
    """The data root ``settings`` name (``RAG_ASSETS_HOME``), else the default one."""
    return settings.home.expanduser().resolve() if settings.home else data_root()


def settings_file(root: Path) -> Path:
    return root / FILE


def effective(settings: Settings) -> dict:
    """The shaping settings as ``settings`` give them, a default where unset."""
    return {name: getattr(settings, name) if getattr(settings, name) is not None else cls.model_fields[f].default
            for name, (cls, f) in SHAPING.items()}


def recorded(root: Path) -> dict:
    """The shaping settings the data root records ({} before its first ingestion); a damaged or foreign file is
    one line."""
    path = settings_file(root)
    if not path.exists():
        return {}
    try:
        values = read_json_file(path)
    except InputFileError as exc:  # (it names the file)
        raise SettingsError(str(exc)) from None
    if not isinstance(values, dict) or set(values) - set(SHAPING):
        raise SettingsError(f"{path}: not a settings file of this project (its names: {', '.join(SHAPING)})")
    try:
        Settings(**{k: v for k, v in values.items() if v is not None})
    except ValidationError as exc:
        name = exc.errors()[0]["loc"][0]
        raise SettingsError(f"{path}: {invalid(name, values[name], exc)}") from None
    return values


def rooted(settings: Settings, root: Path) -> Settings:
    """``settings`` with the data root's shaping settings: an unset one takes the root's; one the environment
    sets otherwise is refused (``SettingsError``, one line)."""
    root_values = recorded(root)
    mine = effective(settings)
    for name, value in root_values.items():
        if getattr(settings, name) is not None and mine[name] != value:
            raise SettingsError(
                f"{ENV_OF[name]}={getattr(settings, name)!r} disagrees with the data root's {name}={value!r} "
                f"({settings_file(root)}), which every process of it uses: unset the variable, or change the "
                f"root's for all with `rag-assets settings --set {name}=...`")
    return settings.model_copy(update=root_values)


def record(settings: Settings, root: Path, changes: dict | None = None) -> dict:
    """Write the root's shaping settings: those it records (else ``settings``'), with ``changes`` (name ->
    value, checked as the environment's would be); returns what was written."""
    values = {**effective(settings), **recorded(root), **(changes or {})}
    unknown = set(changes or {}) - set(SHAPING)
    if unknown:
        raise SettingsError(f"{', '.join(sorted(unknown))}: not a setting of the indexes (those are: "
                            f"{', '.join(SHAPING)})")
    try:
        checked = Settings(**{k: v for k, v in values.items() if v is not None})
    except ValidationError as exc:
        name = exc.errors()[0]["loc"][0]
        raise invalid(ENV_OF[name], values[name], exc) from None
    values = {name: getattr(checked, name) for name in SHAPING}
    root.mkdir(parents=True, exist_ok=True)
    write_json(settings_file(root), values)
    return json.loads(json.dumps(values))
