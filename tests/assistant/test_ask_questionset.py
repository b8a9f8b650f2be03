"""End to end through ``ask(..., offline=True)``: on every question set, the first tool call
(its name and key arguments) — or, for turns that call no tool, the turn's intent — is
right for at least 95 % of the questions. Chains run with the previous turn's history.
The expectations and their comparison rules are the parser's (bench/question_eval.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from advisor.assistant import AskResult, ask
from bench.question_eval import check, load_turns

pytestmark = pytest.mark.usefixtures("clean_llm_env")

DATA = Path(__file__).parent / "data"
SETS = sorted(p.name for p in DATA.glob("questions*.yaml"))
TARGET = 0.95


def as_parsed(result: AskResult) -> SimpleNamespace:
    """What the comparison reads, taken from the ask result (not from the parser)."""
    parsed = result.history[-1].get("parsed") or {}
    first = result.tool_calls[0] if result.tool_calls else None
    intent = first.name if first and result.intent not in ("clarify", "onboarding") else result.intent
    args = dict(first.args) if first else {}
    if "lang" not in (parsed.get("args") or {}):
        args.pop("lang", None)  # added by ask for the report's language, not read from the question
    return SimpleNamespace(intent=intent, language=result.lang, is_followup=parsed.get("is_followup", False),
                           args=args, missing=parsed.get("missing", []), reason=parsed.get("reason", ""))


def run_set(path: Path) -> tuple[int, int, list[str]]:
    total = right = 0
    failures: list[str] = []
    for chain in load_turns(path):
        history = None
        for expected in chain:
            result = ask(expected["q"], history=history, offline=True)
            problems = check(expected, as_parsed(result))  # type: ignore[arg-type]
            if not problems and result.tool_calls and result.tool_calls[0].error:
                answer_ok = "Traceback" not in result.answer and result.answer.strip()
                problems = [] if answer_ok else ["empty or broken reply to a refused call"]
            total += 1
            right += not problems
            if problems:
                failures.append(f"{expected['q']!r}: " + "; ".join(problems))
            history = result.history
    return right, total, failures


def test_sets_exist_and_are_large_enough() -> None:
    assert SETS, "no question sets in tests/assistant/data"
    assert sum(len(c) for s in SETS for c in load_turns(DATA / s)) >= 80


@pytest.mark.parametrize("name", SETS)
def test_question_set_end_to_end(name: str) -> None:
    right, total, failures = run_set(DATA / name)
    report = f"{name}: {right}/{total} ({right / total:.1%})\n" + "\n".join(failures)
    print(report)
    assert right / total >= TARGET, report
