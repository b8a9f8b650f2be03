"""Every command and code example in the README runs: each `advisor …` line of its shell blocks
exits 0 (in process; `chat`, `ui` and `mcp` start interactive sessions or servers and are only
checked to exist), and its Python block runs as written. The assistant is forced offline, so
nothing reaches the network."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from advisor.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)
SESSIONS = {"chat", "ui", "mcp"}


def commands() -> list[list[str]]:
    out = []
    for lang, body in BLOCK.findall(README):
        if lang != "bash":
            continue
        for line in body.replace("\\\n", " ").splitlines():
            for part in line.split(" ; "):
                words = shlex.split(part, comments=True)
                if words and words[0] == ".venv/bin/advisor":
                    out.append(words[1:])
    return out


def python_blocks() -> list[str]:
    return [body for lang, body in BLOCK.findall(README) if lang == "python"]


def test_the_readme_has_examples() -> None:
    assert len(commands()) >= 10 and python_blocks()


@pytest.mark.parametrize("argv", [c for c in commands() if c[0] not in SESSIONS | {"ask"}],
                         ids=lambda a: " ".join(a)[:60])
def test_readme_command_runs(argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                             tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("ADVISOR_DATABASE_URL", f"sqlite:///{tmp_path / 'ledger.db'}")  # `budget …`: never the user's ledger
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.strip()


def test_readme_asks_run_in_order_and_the_follow_up_keeps_the_job(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import json

    calls = []
    for argv in (c for c in commands() if c[0] == "ask"):
        argv = [str(tmp_path / a) if a.endswith(".json") else a for a in argv]  # the history file, out of the checkout
        assert main([*argv, "--offline", "--json"]) == 0, capsys.readouterr().err
        calls.append(json.loads(capsys.readouterr().out)["tool_calls"][0])
    assert calls and all(c["name"] == "estimate_training_cost" for c in calls)
    if len(calls) > 1:  # the follow-up changes the GPU and keeps the rest of the job
        assert calls[-1]["args"]["gpu"].startswith("H100")
        assert calls[-1]["args"].get("model") == calls[0]["args"].get("model")


def test_readme_sessions_are_commands() -> None:
    for argv in (c for c in commands() if c[0] in SESSIONS):
        assert main([argv[0], "--help"]) == 0


def test_readme_python_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import advisor.assistant as assistant

    real = assistant.ask
    monkeypatch.setattr(assistant, "ask", lambda q, **kw: real(q, **{**kw, "offline": True}))
    for block in python_blocks():
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - the README's own example
