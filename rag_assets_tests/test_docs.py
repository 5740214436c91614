"""The documentation follows the code: the configuration page is generated, the README is a front door whose
verb table is the CLI's."""

from __future__ import annotations

import re

from rag_assets.cli.main import build_parser
from rag_assets.settings import ENV_OF
from rag_assets.storage.paths import PROJECT_ROOT
from rag_assets.tools import config_doc


def _verbs() -> set[str]:
    (sub,) = [a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction"]
    return set(sub.choices)


def test_the_configuration_page_is_generated_from_the_code():
    assert config_doc.main(["--check"]) == 0, "docs/configuration.md is stale: python -m rag_assets.tools.config_doc"
    text = config_doc.TARGET.read_text(encoding="utf-8")
    assert all(f"`{var}`" in text for var in ENV_OF.values())


def test_a_new_setting_makes_the_page_stale(monkeypatch):
    from pydantic.fields import FieldInfo

    from rag_assets.settings import Settings

    extra = FieldInfo(default=None, description="new", json_schema_extra={"env": "RAG_ASSETS_NEW", "group": "paths"})
    monkeypatch.setitem(Settings.model_fields, "new", extra)
    assert "`RAG_ASSETS_NEW`" in config_doc.render()
    assert config_doc.main(["--check"]) == 1


def test_the_readme_is_a_front_door_listing_every_verb():
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 220
    listed = set(re.findall(r"^\| `([a-z-]+)` \|", readme, re.M))
    assert listed == _verbs()
    assert 'pip install -e ".[dev]" && rag-assets quickstart' in readme
    assert "python -m pytest rag_assets_tests" in readme
    assert "python -m pytest rag_assets_tests" in (PROJECT_ROOT / ".ci" / "run").read_text()
    for link in re.findall(r"\]\((docs/[a-z]+\.md)\)", readme):
        assert (PROJECT_ROOT / link).is_file(), link


def test_no_module_reads_the_environment_but_settings():
    """Writing a variable for the processes a command starts is allowed; reading one is settings.py's job."""
    offenders = []
    for path in (PROJECT_ROOT / "rag_assets").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            reads = re.search(r"os\.environ\.get|os\.getenv", line) or (
                "os.environ[" in line and not re.search(r"\]\s*=[^=]", line))
            if reads and path.name != "settings.py":
                offenders.append(f"{path.relative_to(PROJECT_ROOT)}:{n}")
    assert offenders == []
