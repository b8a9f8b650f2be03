"""The layering of DESIGN.md, enforced: only advisor/rules imports durable, only
advisor/assistant and advisor/tools import LangChain, only ui/ imports Streamlit, and no
layer imports one above it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["errors", "datafile", "progress", "units", "money", "config", "glossary", "findings", "catalog", "engine", "rules", "contracts", "usage",
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


FILES = {_module(p): p for folder in ("advisor", "ui") for p in (ROOT / folder).rglob("*.py")}


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The project's modules an import statement loads: ``from advisor.tools import plan_elastic``
    is the submodule, ``from advisor.tools.plan import StageCost`` the module it names."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in FILES}
    base = node.module or ""
    if node.level:
        package = module.split(".") if FILES[module].name == "__init__.py" else module.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
    subs = {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in FILES}
    return subs | ({base} if base in FILES and len(subs) < len(node.names) else set())


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in FILES.items():
        nodes = [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(n, ast.Import | ast.ImportFrom)]
        graph[module] = {t for n in nodes for t in _targets(module, n)} - {module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_import_cycle_between_modules() -> None:
    """No group of modules imports itself round (anywhere in their files, lazy imports included):
    rules.loader <-> rules.cases and tools.plan <-> tools.plan_elastic were two."""
    cycles = _cycles(_graph())
    assert not cycles, cycles


def test_cycle_finder_finds_a_long_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_own_imports_sit_at_the_top() -> None:
    """An import of the project's own modules inside a function is a lazy import for cold start
    (it loads a heavy library, or keeps a command or page cheap to start), and its function says so
    in a comment (``# lazy: ...``) above it."""
    bad = []
    for module, path in FILES.items():
        lines = path.read_text(encoding="utf-8").split("\n")
        tree = ast.parse("\n".join(lines))
        for func in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, ast.Import | ast.ImportFrom) and (getattr(node, "level", 0) or _targets(module, node)):
                    above = "\n".join(lines[func.lineno - 1: node.end_lineno])
                    if "# lazy" not in above.lower():
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert not bad, f"{len(bad)} in-function imports without a '# lazy: why' comment: {bad[:10]}"
