"""The house's rules: imports between domains go one way, and no function is longer than a screen."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rag_assets"

# domain -> the domains it may import (besides itself); settings (the environment, read once) is the bottom
ALLOWED = {
    "settings": set(),
    "config": {"settings"},
    "storage": {"settings"},
    "index": {"settings", "storage"},
    "llm": {"settings", "storage", "config"},
    "ingest": {"settings", "storage", "index", "llm", "config"},
    "retrieval": {"settings", "storage", "index", "llm", "config"},
    "answer": {"settings", "storage", "index", "llm", "config", "retrieval"},
    "orchestration": {"settings", "storage", "index", "llm", "config", "ingest", "retrieval", "answer"},
    "tools": {"settings", "storage", "index", "llm", "config", "ingest", "retrieval", "answer", "orchestration"},
    "cli": {"settings", "storage", "index", "llm", "config", "ingest", "retrieval", "answer", "orchestration",
            "tools"},
}


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "__init__.py":
            continue
        yield rel.parts[0].removesuffix(".py"), path, ast.parse(path.read_text())


def test_imports_between_domains_go_one_way():
    wrong = []
    for domain, path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rag_assets."):
                target = node.module.split(".")[1]
                if target != domain and target not in ALLOWED[domain]:
                    wrong.append(f"{path.relative_to(PACKAGE)}:{node.lineno} imports {node.module}")
    assert not wrong, "\n".join(wrong)


def test_no_function_is_longer_than_60_lines():
    long = [f"{path.relative_to(PACKAGE)}:{n.lineno} {n.name} ({n.end_lineno - n.lineno + 1} lines)"
            for _, path, tree in _modules() for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.end_lineno - n.lineno + 1 >= 60]
    assert not long, "\n".join(long)
