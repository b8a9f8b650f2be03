"""``advisor ask`` and ``advisor chat`` in-process (the console script's ``main``)."""

from __future__ import annotations

import io
import json

import pytest

from advisor.cli import main

pytestmark = pytest.mark.usefixtures("clean_llm_env")

Q = "用8张A100全参微调Llama-3-8B，1亿token，要多少钱"


def test_ask_json_prints_the_design_shape(capsys) -> None:
    assert main(["ask", "--json", "--offline", Q]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"answer", "mode", "tool_calls", "findings", "citations", "history"} <= set(data)
    assert data["mode"] == "offline" and data["tool_calls"][0]["name"] == "estimate_training_cost"
    assert data["tool_calls"][0]["result"]["cost"]["total"] > 0


def test_ask_text_and_language_override(capsys) -> None:
    assert main(["ask", "--offline", "--lang", "en", Q]) == 0
    out = capsys.readouterr().out
    assert "What I understood" in out and "Expected total:" in out


def test_bad_lang_exits_2_with_one_line(capsys) -> None:
    assert main(["ask", "--lang", "fr", "hi"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "zh or en" in err and "\n" not in err


def test_chat_keeps_history_resets_and_quits_on_piped_input(capsys, monkeypatch) -> None:
    lines = f"{Q}\n换成H100呢？\n/reset\n换成H100呢？\n/quit\nhello\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["chat", "--offline"]) == 0
    out = capsys.readouterr().out
    turns = out.split("> ")[1:]
    assert len(turns) == 3  # "hello" after /quit is never read
    assert "H100" in turns[1] and "沿用上一个问题的条件" in turns[1]
    assert "（对话已清空）" in turns[1] or "(conversation cleared)" in turns[1]
    assert "沿用上一个问题的条件" not in turns[2]  # after /reset there is nothing to follow


def test_ask_history_file_carries_a_follow_up(capsys, tmp_path) -> None:
    path = tmp_path / "chat.json"
    assert main(["ask", "--offline", "--history", str(path), Q]) == 0
    capsys.readouterr()
    assert main(["ask", "--json", "--offline", "--history", str(path), "卡数翻倍呢？"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tool_calls"][0]["args"]["gpu_count"] == 16
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert [e["role"] for e in saved] == ["user", "assistant", "user", "assistant"]
    assert saved[-1]["tool_calls"][0]["args"]["gpu_count"] == 16 and saved[-1]["tool_calls"][0]["args"]["model"] == "llama-3-8b"


def test_ask_history_file_that_is_not_json_exits_2(capsys, tmp_path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("not json", encoding="utf-8")
    assert main(["ask", "--offline", "--history", str(path), Q]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--history" in err[0]
