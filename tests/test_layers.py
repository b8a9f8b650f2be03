"""The layering of DESIGN.md, enforced: only advisor/rules imports durable, only
advisor/assistant and advisor/tools import LangChain, only ui/ imports Streamlit, and no
layer imports one above it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["errors", "units", "money", "config", "glossary", "findings", "catalog", "engine", "rules", "contracts", "usage",
         "knowledge", "ledger", "tools", "present", "assistant", "mcp", "cli"]
RANK = {name: i for i, name in enumerate(ORDER)}
# Same-rank siblings that may use each other (documents and telemetry are peers).
PEERS = {("contracts", "usage"), ("usage", "contracts"), ("knowledge", "contracts"), ("knowledge", "usage")}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _layer(path: Path) -> str:
    rel = path.relative_to(ROOT / "advisor").parts
    return rel[0].removesuffix(".py") if rel[0] != "__init__.py" else "root"


def test_third_party_boundaries() -> None:
    allowed = {"durable": {"rules"}, "langchain": {"tools", "assistant"}, "langchain_core": {"tools", "assistant"},
               "langchain_openai": {"tools", "assistant"}, "langgraph": {"assistant"}, "streamlit": set(),
               "mcp": {"mcp"}, "mcp_types": {"mcp"}}
    bad = []
    for path in (ROOT / "advisor").rglob("*.py"):
        layer = _layer(path)
        for name in _imports(path):
            top = name.split(".")[0]
            if top in allowed and layer not in allowed[top]:
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, bad


def test_layers_only_import_downwards() -> None:
    bad = []
    for path in (ROOT / "advisor").rglob("*.py"):
        layer = _layer(path)
        if layer not in RANK:
            continue
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] != "advisor" or len(parts) < 2:
                continue
            target = parts[1]
            if target in RANK and RANK[target] > RANK[layer] and (layer, target) not in PEERS:
                bad.append(f"{path.relative_to(ROOT)} ({layer}) imports {name} ({target})")
    assert not bad, bad


def test_ui_holds_no_cost_or_rule_logic() -> None:
    ui = ROOT / "ui"
    if not ui.exists():
        return
    for path in ui.rglob("*.py"):
        for name in _imports(path):
            assert not name.startswith(("advisor.engine", "advisor.rules.host", "durable")), f"{path}: {name}"


def _dynamic(path: Path) -> list[str]:
    """Imports the AST cannot follow: ``importlib.import_module``, ``__import__``, ``importlib`` itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "importlib" or a.name == "importlib.util" for a in node.names):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports importlib")
        elif isinstance(node, ast.ImportFrom) and node.module in ("importlib", "importlib.util") and node.level == 0:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports from importlib")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} calls __import__")
    return found


def test_every_import_is_visible() -> None:
    """No dynamic imports in the package or the UI, so the layer checks above see every import."""
    bad = [x for folder in ("advisor", "ui") for path in (ROOT / folder).rglob("*.py") for x in _dynamic(path)]
    assert not bad, bad


def test_the_faces_sit_on_top() -> None:
    """The UI and the CLI are the top rank: nothing in advisor/ imports them, and the UI does not
    reach into the CLI (or the CLI into the UI's modules)."""
    bad = []
    for path in (ROOT / "advisor").rglob("*.py"):
        for name in _imports(path):
            if name == "ui" or name.startswith("ui."):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
            if name.startswith("advisor.cli") and _layer(path) != "cli":
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    for path in (ROOT / "ui").rglob("*.py"):
        bad += [f"{path.relative_to(ROOT)} imports {n}" for n in _imports(path) if n.startswith("advisor.cli")]
    assert not bad, bad


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_cycle_between_modules() -> None:
    """Module A imports B (anywhere in its file) and B imports A: a cycle (rules.loader <-> rules.cases was one)."""
    files = {_module(p): p for p in (ROOT / "advisor").rglob("*.py")}
    graph = {m: {n for n in _imports(p) if n in files and n != m} for m, p in files.items()}
    cycles = sorted({tuple(sorted((a, b))) for a, deps in graph.items() for b in deps
                     if a in graph.get(b, set()) and not a.startswith(b + ".") and not b.startswith(a + ".")})
    assert not cycles, cycles
