"""The house's rules: imports between domains go one way, no module imports itself back through others, and
modules, classes and functions stay short enough to read at once."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rag_assets"
MAX_MODULE, MAX_CLASS, MAX_FUNCTION = 350, 150, 50

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
    "viewer": {"settings", "storage", "index", "llm", "config", "retrieval", "answer"},
    "orchestration": {"settings", "storage", "index", "llm", "config", "ingest", "retrieval", "answer", "viewer"},
    "tools": {"settings", "storage", "index", "llm", "config", "ingest", "retrieval", "answer", "orchestration",
              "viewer"},
    "cli": {"settings", "storage", "index", "llm", "config", "ingest", "retrieval", "answer", "orchestration",
            "viewer", "tools"},
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


def _named_modules():
    """(dotted module name, its syntax tree) of every module of the package."""
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(("rag_assets", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        yield name, ast.parse(path.read_text(encoding="utf-8"))


def _imports(tree: ast.Module) -> set[str]:
    """Every rag_assets module ``tree`` imports, at module level or inside a function."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rag_assets"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("rag_assets")}
    return found


def test_no_import_cycle():
    graph = {m: {d for d in _imports(t) if d != m} for m, t in _named_modules()}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        if m in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(m):] + (m,)))
        if m in done or m not in graph:
            return
        for d in sorted(graph[m]):
            visit(d, path + (m,))
        done.add(m)

    for m in sorted(graph):
        visit(m, ())


def _too_long() -> set[str]:
    out = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE:
            out.add(rel)
        for node in ast.walk(ast.parse(text)):
            size = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
            if isinstance(node, ast.ClassDef) and size > MAX_CLASS or \
                    isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and size > MAX_FUNCTION:
                out.add(f"{rel}:{node.name}")
    return out


def test_modules_classes_and_functions_fit_their_limits():
    assert _too_long() == set(), f"over {MAX_MODULE} lines a module, {MAX_CLASS} a class, {MAX_FUNCTION} a function"
