"""The layering of DESIGN.md, enforced: only advisor/rules imports durable, only
advisor/assistant and advisor/tools import LangChain, only ui/ imports Streamlit, and no
layer imports one above it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["errors", "units", "money", "config", "glossary", "findings", "catalog", "engine", "rules", "contracts", "usage",
         "knowledge", "tools", "ledger", "present", "assistant", "mcp", "cli"]
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
