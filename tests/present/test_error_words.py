"""Errors read in the user's language: a Chinese user sees a refusal in Chinese (the field's
name, what is accepted, the hint) from the error's structured fields, and an English user sees
the error's own line unchanged."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.errors import DataError, DocumentError, InputError, UnknownNameError
from advisor.numeric import limits
from advisor.present.errors import say

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from test_zh_complete import leaks  # noqa: E402  (the Chinese-mode scan's own rule)

ROOT = Path(__file__).resolve().parents[2]
_ARG = {"InputError": 2, "UnknownNameError": 3, "DocumentError": 1}


def _strings(args: list[ast.expr]) -> set[str]:
    """The literals among ``args`` as written, each f-string with the values it formats as sample names (``v1``)."""
    texts = {a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value}
    return texts | {"".join(str(v.value) if isinstance(v, ast.Constant) else f"v{i}" for i, v in enumerate(a.values))
                    for a in args if isinstance(a, ast.JoinedStr)}


def _error_texts(kinds: dict[str, int]) -> list[str]:
    """Every "accepted" / "problem" / hint text the errors ``kinds`` are raised with in advisor/, and
    every text a helper of the same module returns into one of their f-strings (a reader's ``_problem``)."""
    texts: set[str] = set()
    for path in (ROOT / "advisor").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        helpers = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name not in kinds:
                continue
            args = [*node.args[kinds[name]:kinds[name] + 1], *(k.value for k in node.keywords if k.arg in ("hint", "accepted", "problem"))]
            texts |= _strings(args)
            called = {v.value.func.id for a in args if isinstance(a, ast.JoinedStr) for v in a.values
                      if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Call) and isinstance(v.value.func, ast.Name)}
            for helper in (helpers[n] for n in called if n in helpers):
                texts |= _strings([r.value for r in ast.walk(helper) if isinstance(r, ast.Return) and r.value is not None])
    return sorted(texts)


def _accepted_tables() -> dict[str, list[str]]:
    """Per module, the texts of its module-level ``ACCEPTED`` / ``_ACCEPTED`` table (what each field accepts: the
    validators raise with them by key, so the call sites above show only their f-string), and per request model
    the same words kept as data (limits.yaml ``request_accepted``)."""
    out: dict[str, list[str]] = {name: list(fields.values()) for name, fields in limits()["request_accepted"].items()}
    for path in (ROOT / "advisor").rglob("*.py"):
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and any(
                    getattr(t, "id", "").lstrip("_") == "ACCEPTED" for t in node.targets):
                out[path.name] = [v.value for v in node.value.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return out


def test_every_accepted_table_reads_in_chinese() -> None:
    """A refusal names what a field accepts; in Chinese that is never English quoted in 「」 — alone, or joined to
    the usage tool's "or files to analyse" (a missing utilization: 缺少利用率：需要 0 到 1 之间的比例…)."""
    tables = _accepted_tables()
    assert {"AnalyzeUsageRequest", "ReviewContractRequest", "knowledge.py", "catalog.py"} <= set(tables)
    english = re.compile(r"「[^」]*[A-Za-z]{2,}[^」]*」")
    texts = [t for texts in tables.values() for t in texts] + [f"{t}, or files to analyse" for t in tables["AnalyzeUsageRequest"]]
    bad = {t: z for t in texts if leaks([z := say(InputError("gpu_count", None, t), "zh")]) or english.search(z)}
    assert not bad, f"{len(bad)} accepted texts without a Chinese reading (add an error.says.* glossary entry): {bad}"


def _literal_texts() -> list[str]:
    return [t for t in _error_texts(_ARG) if not re.search(r"\bv\d\b", t)]


def test_every_literal_error_text_reads_in_chinese() -> None:
    texts = _literal_texts()
    assert len(texts) > 100  # the walk found the raise sites
    untranslated = {t: say(InputError("gpu_count", 3, t), "zh") for t in texts}
    bad = {t: z for t, z in untranslated.items() if leaks([z])}
    assert not bad, f"{len(bad)} error texts without a Chinese reading (add an error.says.* glossary entry): {bad}"


def test_every_error_text_built_from_values_reads_in_chinese() -> None:
    """Texts that format values (a column, a line number, a file's problem) read in Chinese too: the
    frame from an ``error.says.*`` entry whose placeholders take the values; data-file errors included."""
    literal = set(_literal_texts())
    texts = [t for t in _error_texts({**_ARG, "DataError": 1, "RuleError": 1}) if t not in literal]
    assert len(texts) > 80  # the walk found the f-strings
    english = re.compile(r"「[^」]*[A-Za-z]{2,}[^」]*」")  # a part left in English, quoted
    bad = {t: z for t in texts if leaks([z := say(InputError("gpu_count", 3, t), "zh")]) or english.search(z)}
    assert not bad, f"{len(bad)} error texts without a Chinese reading (add an error.says.* glossary entry): {bad}"


@pytest.mark.parametrize(("field", "value", "accepted", "words"), [
    ("gpu_count", 0, "a value from 1 to 4096 GPUs", ["卡数", "1 到 4096"]),
    ("--monthly-fee", -3, "a positive number", ["月费", "正数"]),
    ("tokens_b", "abc", "a positive number, optionally with a suffix: 300M, 7B", ["token 数", "正数", "后缀"]),
    ("mode", "weekly", "one of on_demand, monthly, yearly, spot", ["计费方式", "以下之一", "`monthly`"]),
    ("lang", "fr", "zh or en", ["语言", "`zh`或`en`"]),
    ("mfu", 2, "a fraction in (0, 1], e.g. 0.4", ["(0, 1] 之间的比例", "如 0.4"]),
])
def test_input_errors_name_the_field_and_what_is_accepted_in_chinese(field, value, accepted, words) -> None:
    error = InputError(field, value, accepted)
    zh = say(error, "zh")
    assert all(w in zh for w in words), zh
    assert f"「{value}」" in zh and not leaks([zh]), zh
    assert say(error, "en") == error.one_line() == say(error.parts(), "en")


def test_missing_unknown_document_and_data_errors_in_chinese() -> None:
    assert say(InputError("gpu_count", None, "a whole number of GPUs, 1 or more, or files to analyse"), "zh") == \
        "缺少卡数：需要整数张卡，至少 1，或要分析的文件"
    unknown = say(UnknownNameError("gpu", "Z9000", ["H20", "A800"]), "zh")
    assert "Z9000" in unknown and "你是不是要找" in unknown and "H20、A800" in unknown and not leaks([unknown])
    doc = say(DocumentError("合同.pdf", "the PDF is encrypted", hint="remove the password and try again"), "zh")
    assert doc == "无法读取 合同.pdf：PDF 已加密（去掉密码后再试）"
    data = say(DataError("prices.csv", "has a header but no data rows", row=3), "zh")
    assert "第 3 行" in data and "只有表头" in data
    request = say(InputError("request", "neither text nor path", "exactly one of text or path (plus lang, monthly_fee, currency)"), "zh")
    assert "应为合同文本或文件路径，二者给一个（另可给语言、月费、币种）" in request  # a specific entry beats a generic list
    free = say(InputError("price", 5, "a price the desk confirmed by phone"), "zh")
    assert "「a price the desk confirmed by phone」" in free  # text no entry reads stays English, quoted


def test_the_cli_refuses_in_the_language_asked(capsys) -> None:
    argv = ["estimate", "--model", "llama-3-8b", "--tokens", "1B", "--gpu", "Z9000"]
    assert main([*argv, "--lang", "zh"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("错误：") and "Z9000" in err and "\n" not in err and not leaks([err]), err
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("error: unknown gpu 'Z9000'")
