"""``advisor learn``: listing, opening a module, the quiz (given answers and interactive),
search, JSON output and one-line errors."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

import advisor.cli.learn as learn_cli
from advisor.errors import InputError
from advisor.knowledge.onboarding import onboarding_path

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """test host"""

    learn_cli.register(app)
    return app


def invoke(*args: str, **kwargs):
    return runner.invoke(_app(), ["learn", *args], **kwargs)


def test_list_modules_json() -> None:
    result = invoke("--json", "--lang", "en")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["lang"] == "en" and data["next"] == "start-here"
    assert [m["id"] for m in data["modules"]] == [m.id for m in onboarding_path("en")]


def test_list_modules_table() -> None:
    result = invoke("--lang", "zh")
    assert result.exit_code == 0 and "入门路径" in result.stdout and "cost-anatomy" in result.stdout


def test_open_module_json_hides_answers() -> None:
    result = invoke("cost-anatomy", "--json", "--lang", "zh")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["module"]["id"] == "cost-anatomy" and data["module"]["checklist"]
    assert data["guide_markdown"].startswith("# 钱花在哪里")
    assert "```advisor-example" not in data["guide_markdown"]
    assert all("answer" not in q and "explanation" not in q for q in data["module"]["quiz"])


def test_open_module_text_shows_checklist() -> None:
    result = invoke("2", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "Module checklist" in result.stdout and "--quiz" in result.stdout


def test_quiz_with_answers_json_and_progress() -> None:
    module = onboarding_path("en")[1]
    answers = ",".join(str(q.answer + 1) for q in module.quiz)
    result = invoke(module.id, "--quiz", "--answers", answers, "--json", "--lang", "en")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["result"]["passed"] and data["progress"]["passed"]
    listing = json.loads(invoke("--json", "--lang", "en").stdout)
    assert listing["modules"][1]["progress"]["passed"]


def test_quiz_text_explains_wrong_answers() -> None:
    module = onboarding_path("en")[1]
    wrong = ",".join(str((q.answer + 1) % len(q.choices) + 1) for q in module.quiz)
    result = invoke(module.id, "--quiz", "--answers", wrong, "--lang", "en")
    assert result.exit_code == 0
    assert "✗" in result.stdout and "See:" in result.stdout
    assert "not passed yet" in result.stdout
    for q in module.quiz:  # every choice is shown, the right one ticked, the given one marked
        assert all(c in result.stdout for c in q.choices)
        assert f"✓ {q.answer + 1}) {q.choices[q.answer]}" in result.stdout
    assert result.stdout.count("← your answer") == len(module.quiz)
    assert "knowledge/guides" not in result.stdout


def test_interactive_quiz(monkeypatch) -> None:
    monkeypatch.setattr(learn_cli, "_interactive", lambda: True)
    module = onboarding_path("zh")[0]
    replies = "9\n" + "".join(f"{q.answer + 1}\n" for q in module.quiz)  # one invalid reply first
    result = invoke(module.id, "--quiz", "--lang", "zh", input=replies)
    assert result.exit_code == 0, result.output
    assert "请输入选项编号" in result.stdout and "通过" in result.stdout


def test_quiz_without_terminal_or_answers_is_an_error() -> None:
    result = invoke("cost-anatomy", "--quiz")
    assert isinstance(result.exception, InputError) and "--answers" in str(result.exception)


def test_search_json() -> None:
    result = invoke("--search", "spot reclaim notice", "--json", "--k", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["lang"] == "en" and data["hits"][0]["path"].endswith("05-off-peak-and-spot.md")


def test_search_table_in_chinese() -> None:
    result = invoke("--search", "包年包月什么时候划算")
    assert result.exit_code == 0 and "检索" in result.stdout


@pytest.mark.parametrize("args", [["--lang", "fr"], ["nope-module"], ["--quiz"], ["--search", " "]])
def test_bad_input_raises_advisor_errors(args) -> None:
    result = invoke(*args)
    assert result.exit_code != 0 and isinstance(result.exception, InputError)
