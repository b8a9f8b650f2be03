"""Every word a user reads comes from the one glossary (knowledge/glossary.yaml, the UI's texts
included), never from a word table or a Chinese sentence written in code: a
``{"en": …, "zh": …}`` literal of words, a Chinese f-string, or Chinese text in a branch on the
language fails here. Chinese that code reads (the parsers' regular expressions and vocabularies)
is not output and is not flagged."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from advisor import tools

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff01-\uff5e]")
REGEX = re.compile(r"\(\?|\\|\||\[")  # a pattern's syntax: what reads text, not what writes it
LANG_NAME = re.compile(r"lang|language|^zh$|^is_zh$", re.I)
# Necessary cases (file, text): text that is the same in every language, or that code reads rather than writes.
ALLOWED = {
    ("ui/sidebar.py", "中文"): "the language picker names each language in its own script",
    ("advisor/contracts/values.py", "个月"): "a duration phrase built for the duration reader, not for output",
    ("advisor/contracts/clauses.py", "（）"): "a clause number in the contract's own script: 第三条（二）",
    ("advisor/contracts/parties.py", "甲方"): "the party labels a Chinese contract is read by",
    ("advisor/contracts/parties.py", "乙方"): "the party labels a Chinese contract is read by",
    ("advisor/present/errors.py", "「」"): "the quotation marks around words an error leaves in English",
}


def _on_language(test: ast.expr) -> bool:
    return any(isinstance(n, ast.Name) and LANG_NAME.search(n.id) or isinstance(n, ast.Attribute) and LANG_NAME.search(n.attr)
               for n in ast.walk(test))


def _words(node: ast.AST) -> bool:
    """A literal that holds words (a string, an f-string's text, a tuple of strings)."""
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.strip(" ,;:.") for n in ast.walk(node))


def _found(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, what, its text) of each word written in code."""
    out: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, branch: bool) -> None:
        if isinstance(node, ast.Dict):
            keyed = {k.value: v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant)}
            if {"en", "zh"} <= set(keyed) and (_words(keyed["en"]) or _words(keyed["zh"])):
                zh = keyed["zh"]
                out.append((node.lineno, "a {en, zh} word table", str(zh.value) if isinstance(zh, ast.Constant) else ast.unparse(zh)))
        if isinstance(node, ast.If | ast.IfExp) and _on_language(node.test):
            branch = True
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            if CJK.search(text) and not REGEX.search(text):
                out.append((node.lineno, "a Chinese f-string", text))
                return
        if branch and isinstance(node, ast.Constant) and isinstance(node.value, str) and CJK.search(node.value):
            out.append((node.lineno, "Chinese text in a branch on the language", node.value))
        for child in ast.iter_child_nodes(node):
            visit(child, branch)

    visit(tree, False)
    return out


def test_no_words_are_written_in_code() -> None:
    found = {f"{path.relative_to(ROOT)}:{line}": f"{what} {text[:40]!r}"
             for folder in ("advisor", "ui") for path in sorted((ROOT / folder).rglob("*.py"))
             for line, what, text in _found(ast.parse(path.read_text(encoding="utf-8")))
             if (str(path.relative_to(ROOT)), text) not in ALLOWED}
    assert not found, f"{len(found)} words written in code (put them in knowledge/glossary.yaml): {found}"


def test_the_check_finds_each_kind() -> None:
    kinds = _found(ast.parse('''
LABELS = {"en": "cost", "zh": "费用"}
def f(lang, n):
    return f"共 {n} 张" if lang == "zh" else f"{n} cards"
def g(lang):
    if lang == "zh":
        return "费用"
    return "cost"
SETTING = {"en": 240, "zh": 120}
PATTERN = rf"(?:每天|per\\s+day)\\s*{1}"
'''))
    assert [line for line, _, _ in kinds] == [2, 4, 7]


def test_each_glossary_entry_is_written_once() -> None:
    """A key written twice keeps only its last text (YAML says nothing), so the first is lost."""
    import yaml

    root = yaml.compose((ROOT / "knowledge" / "glossary.yaml").read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    twice = []
    for key, _ in root.value:
        if key.value in seen:
            twice.append(f"{key.value} (lines {seen[key.value]} and {key.start_mark.line + 1})")
        seen[key.value] = key.start_mark.line + 1
    assert len(seen) > 1000 and not twice, twice


def _per_language(value: Any, path: str = "") -> list[str]:
    """Where a report holds text per language (a ``{en, zh}`` dict) rather than keys and numbers.
    Findings are left out: a rule's texts are written in its pack (rules/), in both languages."""
    if isinstance(value, dict):
        found = [path] if {"en", "zh"} <= set(value) else []
        return found + [p for k, v in value.items() if k != "findings" for p in _per_language(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _per_language(v, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize(("tool", "args"), [
    ("estimate_training_cost", {"model": "llama-3.1-8b", "method": "lora", "tokens_b": 0.1, "gpu": "a800", "lang": "zh"}),
    ("estimate_training_cost", {"model": "qwen2.5-7b", "method": "full", "tokens_b": 1, "gpu": "h20", "currency": "USD"}),
    ("recommend_hardware", {"model": "llama-3.1-70b", "method": "full", "tokens_b": 20, "lang": "en"}),
    ("check_quote", {"gpu": "ascend-910b", "price": 9, "currency": "USD", "term_months": 12, "lang": "zh"}),
    ("compare_billing", {"gpu": "h100", "gpu_count": 8, "wall_hours": 300, "lang": "en"}),
    ("analyze_usage", {"gpu_count": 16, "avg_utilization": 0.45, "gpu": "h100", "lang": "zh"}),
    ("plan_project", {"model": "llama-2-7b", "pretrain_tokens_b": 100, "finetune_tokens_b": 0.5, "gpu": "a800"}),
    ("estimate_serving_cost", {"model": "llama-3.1-70b", "tokens_per_day": 1e8, "lang": "zh"}),
    ("compare_own_vs_rent", {"gpu": "h100", "gpu_count": 64, "utilization": 0.7, "years": 4}),
    ("review_contract", {"path": str(ROOT / "ui" / "samples" / "contract_zh.txt"), "lang": "zh"}),
])
def test_reports_hold_keys_and_numbers_not_words_per_language(tool: str, args: dict[str, Any]) -> None:
    """The engine and the tools word nothing: a report carries word references
    (``{"term": key, **values}``) that the presenters word in the reader's language."""
    assert not _per_language(getattr(tools, tool)(**args).model_dump(mode="json"))
