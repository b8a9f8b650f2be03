"""Score the parser on a question set (tests/assistant/data/*.yaml): accuracy, failures,
per-intent breakdown, parse times. Used by the tests and by bench/bench_parse.py.

A turn is right when its intent, language, follow-up flag, expected arguments (numbers
within 0.1 %, names compared without case or separators) and expected missing items all
match. Chains are parsed turn by turn, each with the previous turn's result.
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

from advisor.assistant.offline.parse import Parsed, parse_question
from advisor.catalog import get_catalog

_NAME_KEYS = {"gpu", "model", "provider", "method", "billing", "precision", "currency", "lang"}


def load_turns(path: str | Path) -> list[list[dict[str, Any]]]:
    """The question set as conversations (a single question is a one-turn conversation)."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    return [item.get("chain", [item]) for item in data]


def _norm_name(value: Any) -> str:
    return re.sub(r"[\s_\-]", "", str(value)).lower()


_CATALOG_KINDS = {"gpu": "gpu", "gpus": "gpu", "model": "model", "provider": "provider"}


def _catalog_id(key: str, value: Any) -> str:
    """A GPU, model or provider name as the catalog's id (labels may use any alias)."""
    kind = _CATALOG_KINDS.get(key)
    if kind is None:
        return _norm_name(value)
    found = get_catalog().name_index(kind).find(str(value))
    return _norm_name(found if found is not None else value)


def _same(key: str, expected: Any, actual: Any) -> bool:
    if actual is None:
        return False
    if key == "text":
        return str(expected).lower() in str(actual).lower()
    if key == "stages":
        names = [s["stage"] if isinstance(s, dict) else s for s in actual]
        if all(isinstance(e, str) for e in expected):
            return names == list(expected)
        return len(actual) == len(expected) and all(
            isinstance(a, dict) and all(_same(k, v, a.get(k)) for k, v in e.items())
            for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, list):
        def ids(values: list[Any]) -> list[str]:
            return sorted(_catalog_id(key, v) for v in values)

        return isinstance(actual, list) and ids(expected) == ids(actual)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, int | float):
        return isinstance(actual, int | float) and math.isclose(actual, expected, rel_tol=1e-3, abs_tol=1e-9)
    if key in _CATALOG_KINDS:
        return _catalog_id(key, expected) == _catalog_id(key, actual)
    if key in _NAME_KEYS:
        return _norm_name(expected) == _norm_name(actual)
    return str(expected) == str(actual)


def check(expected: dict[str, Any], parsed: Parsed) -> list[str]:
    """Problems with one parsed turn (empty when it is right)."""
    problems = []
    if parsed.intent != expected["intent"]:
        problems.append(f"intent {parsed.intent} != {expected['intent']} ({parsed.reason})")
    if "lang" in expected and parsed.language != expected["lang"]:
        problems.append(f"language {parsed.language} != {expected['lang']}")
    if "followup" in expected and parsed.is_followup != expected["followup"]:
        problems.append(f"is_followup {parsed.is_followup} != {expected['followup']}")
    for key, value in (expected.get("args") or {}).items():
        if not _same(key, value, parsed.args.get(key)):
            problems.append(f"args.{key} {parsed.args.get(key)!r} != {value!r}")
    for key in expected.get("absent") or []:
        if key in parsed.args:
            problems.append(f"args.{key} should be absent, is {parsed.args[key]!r}")
    for item in expected.get("missing") or []:
        if item not in parsed.missing:
            problems.append(f"missing lacks {item!r} (has {parsed.missing})")
    return problems


def evaluate(path: str | Path) -> dict[str, Any]:
    """Accuracy, per-intent and per-language accuracy, failures and parse times (ms)."""
    total = right = 0
    by_intent: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    failures: list[dict[str, Any]] = []
    times: list[float] = []
    for turns in load_turns(path):
        previous: Parsed | None = None
        for expected in turns:
            start = time.perf_counter()
            parsed = parse_question(expected["q"], previous)
            times.append((time.perf_counter() - start) * 1000)
            problems = check(expected, parsed)
            total += 1
            ok = not problems
            right += ok
            for table, key in ((by_intent, expected["intent"]), (by_lang, expected.get("lang", "?"))):
                table[key][0] += ok
                table[key][1] += 1
            if problems:
                failures.append({"q": expected["q"], "problems": problems, "args": parsed.args})
            previous = parsed
    return {
        "total": total,
        "right": right,
        "accuracy": right / total if total else 0.0,
        "by_intent": {k: {"right": v[0], "total": v[1]} for k, v in sorted(by_intent.items())},
        "by_language": {k: {"right": v[0], "total": v[1]} for k, v in sorted(by_lang.items())},
        "failures": failures,
        "times_ms": times,
    }
