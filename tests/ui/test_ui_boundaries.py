"""The UI stays a thin face: it imports only the advisor's public API, holds no cost or rule
logic, and every UI string exists in Chinese and English."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
ALLOWED = ("advisor.tools", "advisor.assistant", "advisor.knowledge.onboarding", "advisor.knowledge.render",
           "advisor.money", "advisor.findings", "advisor.errors", "advisor.redact", "advisor.present",
           "advisor.glossary", "advisor.safe_read", "advisor.ledger")
KEY_CALL = re.compile(r"""\b(?:term|listed)\(\s*f?["']([a-z_]+\.[a-z_.]+)["']""")


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_ui_imports_only_the_public_api():
    bad = []
    for path in UI.rglob("*.py"):
        for name in imports(path):
            if name.startswith("advisor") and not (name in ALLOWED or name.startswith(ALLOWED)):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, bad


def test_no_rule_logic_or_rulesets_in_ui():
    for path in UI.rglob("*"):
        if path.suffix in (".py", ".yaml", ".yml", ".json"):
            text = path.read_text(encoding="utf-8")
            assert "durable" not in text, path
            assert not re.search(r"^\s*when:\s*$", text, re.M), f"{path}: looks like a rule"
            assert not re.search(r"""["']operator["']\s*:""", text), f"{path}: looks like a rule condition"


def test_streamlit_is_imported_only_under_ui():
    for path in (ROOT / "advisor").rglob("*.py"):
        assert not any(n.split(".")[0] == "streamlit" for n in imports(path)), path


def test_every_key_the_ui_uses_exists_in_both_languages():
    """The UI has no word file of its own: its texts are glossary entries."""
    assert not list(UI.rglob("*strings*.yaml"))
    strings = yaml.safe_load((ROOT / "knowledge" / "glossary.yaml").read_text(encoding="utf-8"))
    used = set()
    for path in UI.rglob("*.py"):
        used.update(m for m in KEY_CALL.findall(path.read_text(encoding="utf-8")) if not m.endswith("."))
    missing = sorted(k for k in used if k not in strings)
    assert not missing, missing
    for key in used:
        entry = strings[key]
        assert isinstance(entry, dict) and entry.get("en") and entry.get("zh"), key
        assert type(entry["en"]) is type(entry["zh"]), key
