"""The offline parser on the question sets: at least 95 % right on the tuning set and on
the held-out set (written before the parser and not tuned on). Failures are printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.assistant.offline import parse_question
from advisor.assistant.offline.intent import DECISION_TOOLS
from advisor.assistant.offline.project import TOOL_ARGS
from bench.question_eval import evaluate, load_turns

DATA = Path(__file__).parent / "data"
SETS = ["questions.yaml", "questions_holdout.yaml"]
TARGET = 0.95


def _report(result: dict) -> str:
    lines = [f"{result['right']}/{result['total']} right ({result['accuracy']:.1%})"]
    for name, row in result["by_intent"].items():
        lines.append(f"  {name:24s} {row['right']}/{row['total']}")
    for failure in result["failures"]:
        lines.append(f"FAIL {failure['q']!r}")
        lines.extend(f"     {p}" for p in failure["problems"])
    return "\n".join(lines)


@pytest.mark.parametrize("name", SETS)
def test_question_set_accuracy(name: str) -> None:
    result = evaluate(DATA / name)
    print(f"\n{name}: " + _report(result))
    assert result["accuracy"] >= TARGET, _report(result)


@pytest.mark.parametrize("name", SETS)
def test_question_sets_are_balanced_and_cover_every_intent(name: str) -> None:
    turns = [t for chain in load_turns(DATA / name) for t in chain]
    langs = [t["lang"] for t in turns]
    assert abs(langs.count("zh") - langs.count("en")) <= max(2, len(turns) // 10)
    intents = {t["intent"] for t in turns}
    decision_tools = set(DECISION_TOOLS)  # covered by persona_questions.yaml (test_persona_eval.py)
    assert set(TOOL_ARGS) - {"search_knowledge"} - decision_tools <= intents | {"search_knowledge"}
    assert {"clarify", "search_knowledge"} <= intents
    assert any(t.get("followup") for t in turns)


def test_sets_are_large_enough() -> None:
    tuned = sum(len(c) for c in load_turns(DATA / "questions.yaml"))
    held = sum(len(c) for c in load_turns(DATA / "questions_holdout.yaml"))
    assert tuned >= 100
    assert 0.2 <= held / (tuned + held) <= 0.4


@pytest.mark.parametrize("name", SETS)
def test_args_use_only_the_tool_request_names(name: str) -> None:
    for chain in load_turns(DATA / name):
        previous = None
        for turn in chain:
            parsed = parse_question(turn["q"], previous)
            tool = parsed.pending or parsed.intent
            if tool in TOOL_ARGS:
                assert set(parsed.args) <= set(TOOL_ARGS[tool]), (turn["q"], parsed.args)
            else:
                assert parsed.args == {}
            previous = parsed


@pytest.mark.parametrize("name", SETS)
def test_spans_point_at_the_question_text(name: str) -> None:
    for chain in load_turns(DATA / name):
        for turn in chain:
            parsed = parse_question(turn["q"])
            for span in parsed.spans:
                assert turn["q"][span.start : span.end] == span.text


def test_a_long_pasted_contract_is_taken_whole_and_not_read_for_slots() -> None:
    clause = "第{}条 合同期满后自动续约十二个月；每月费用50万元；8张H100资源释放前持续计费。\n"
    text = "帮我看看这份合同：\n" + "".join(clause.format(i) for i in range(1, 200))
    parsed = parse_question(text)
    assert parsed.intent == "review_contract" and parsed.language == "zh"
    assert parsed.args["text"].startswith("第1条") and parsed.args["text"].rstrip().endswith("持续计费。")
    assert set(parsed.args) == {"text", "lang"}
