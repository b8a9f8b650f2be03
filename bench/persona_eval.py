"""Score the offline assistant on the persona question sets (tests/assistant/data/persona_questions.yaml,
persona_questions_2.yaml … persona_questions_7.yaml, :data:`SETS`), written by people who had not seen the parser. Each item: ``id``, ``lang``, ``history`` (earlier
user questions of the conversation), ``text`` and ``expect`` (``intent``, ``args``, ``verdict``,
``currency``).

The set is split into a dev half (tuned on) and a test half (only scored) by a hash of the id, so
the split never changes as items are added. A turn is right when:

- its intent is the expected one (a tool name, ``clarify``, ``onboarding`` or ``out_of_scope``);
- every expected argument is in the request with that value (numbers within 0.1 %, GPU/model/provider
  names compared as catalog ids, stages compared field by field);
- a question that asks for a verdict (``verdict: asked``) gets a verdict sentence before the figures;
- the answer is priced in the expected currency, when it prices anything.

Run ``python -m bench.eval_personas`` for dev and test scores per set and language. Test halves are
reported only as aggregates (:func:`problem_kind`: per intent and per kind of problem), never item by item.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

from advisor.assistant import ask
from bench.question_eval import _same

_DIR = Path(__file__).resolve().parents[1] / "tests" / "assistant" / "data"
DATA = _DIR / "persona_questions.yaml"
SETS = {"set1": DATA, "set2": _DIR / "persona_questions_2.yaml", "set3": _DIR / "persona_questions_3.yaml",
        "set4": _DIR / "persona_questions_4.yaml", "set5": _DIR / "persona_questions_5.yaml",
        "set6": _DIR / "persona_questions_6.yaml", "set7": _DIR / "persona_questions_7.yaml"}
"""The persona sets by name; each is split into dev and test halves by :func:`half_of`."""
VERDICT_MARKS = ("**Verdict:**", "**结论：**")


def half_of(item_id: str) -> str:
    """``dev`` or ``test``, from a hash of the id."""
    return "dev" if int(hashlib.sha256(item_id.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "test"


def load(path: str | Path = DATA, half: str | None = None) -> list[dict[str, Any]]:
    items = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    return [x for x in items if half is None or half_of(x["id"]) == half]


def _answer_currency(result: Any) -> str | None:
    for call in result.tool_calls:
        r = call.result or {}
        cur = r.get("currency") or (r.get("cost") or {}).get("currency")
        if cur:
            return str(cur)
    return None


def _args_of(result: Any) -> dict[str, Any]:
    """The request as sent; a field it left out counts as the value the tool priced by its own
    default when the report credits that default in its assumptions (e.g. ``quote.gpu_count``)."""
    parsed = result.history[-1].get("parsed") or {}
    args = dict(parsed.get("args") or {})
    if result.tool_calls:
        call = result.tool_calls[0]
        args.update(call.args)
        report = call.result or {}
        credited = {part for a in report.get("assumptions") or [] for part in str(a.get("name", "")).split(".")}
        args.update({k: v for k, v in (report.get("inputs") or {}).items() if k not in args and k in credited})
    return args


SCHEMA_INTENT = {"help": "onboarding"}
"""The sets' ``onboarding`` is "what can this tool do" (the writers' schema), which the assistant answers
with its ``help`` (what it can do); ``onboarding`` proper is the newcomer's learning path."""


def check_item(item: dict[str, Any]) -> tuple[list[str], Any]:
    """Problems with the assistant's answer to one item (empty when right), and the result."""
    history = None
    for earlier in item.get("history") or []:
        history = ask(earlier, history=history, offline=True).history
    result = ask(item["text"], history=history, offline=True)
    expect = item["expect"]
    problems = []
    if SCHEMA_INTENT.get(result.intent, result.intent) != expect["intent"]:
        problems.append(f"intent {result.intent} != {expect['intent']}")
    args = _args_of(result)
    for key, value in (expect.get("args") or {}).items():
        if not _same(key, value, args.get(key)):
            problems.append(f"args.{key} {args.get(key)!r} != {value!r}")
    if expect.get("verdict") == "asked":
        head = "\n\n".join(result.answer.split("\n\n")[:3])
        if not any(mark in head for mark in VERDICT_MARKS):
            problems.append("no verdict sentence first")
    cur = _answer_currency(result)
    if cur and expect.get("currency") and cur != expect["currency"]:
        problems.append(f"currency {cur} != {expect['currency']}")
    return problems, result


def problem_kind(problem: str) -> str:
    """A problem without its values, for aggregates: ``intent X != Y`` -> ``intent Y->X``,
    ``args.gpu_count 1 != 8`` -> ``args.gpu_count``."""
    if problem.startswith("intent "):
        got, _, want = problem[len("intent "):].partition(" != ")
        return f"intent {want}->{got}"
    if problem.startswith("args."):
        return problem.split(" ", 1)[0]
    if problem.startswith("currency "):
        return "currency"
    return problem


def evaluate(half: str | None = None, path: str | Path = DATA, *, failures: bool = True) -> dict[str, Any]:
    """Accuracy per language (and per intent, and problem kinds) on one half; failures listed
    only when asked."""
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_intent: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    kinds: dict[str, int] = defaultdict(int)
    failed: list[dict[str, Any]] = []
    for item in load(path, half):
        problems, _ = check_item(item)
        ok = not problems
        for kind in {problem_kind(p) for p in problems}:
            kinds[kind + (" (follow-up)" if item.get("history") and kind.startswith("intent") else "")] += 1
        for table, key in ((by_lang, item["lang"]), (by_intent, item["expect"]["intent"])):
            table[key][0] += ok
            table[key][1] += 1
        if problems and failures:
            failed.append({"id": item["id"], "q": item["text"], "problems": problems})
    return {
        "by_language": {k: {"right": v[0], "total": v[1], "accuracy": v[0] / v[1]} for k, v in sorted(by_lang.items())},
        "by_intent": {k: {"right": v[0], "total": v[1]} for k, v in sorted(by_intent.items())},
        "kinds": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),
        "failures": failed,
    }
