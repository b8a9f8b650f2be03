"""`make eval-llm`: the assistant's question sets through an LLM endpoint, scored.

The endpoint comes from the environment (``ADVISOR_LLM_PRESET``, ``OPENAI_BASE_URL``,
``ADVISOR_LLM_MODEL``, ``OPENAI_API_KEY`` — docs/LLM.md). With none set, a scripted
OpenAI-compatible server on 127.0.0.1 stands in for a small model: it reads each question
with the offline parser (as a model would understand it) and then misbehaves the way small
local models do — invented numbers equal to defaults, invented text arguments, tool calls
written as text, raw tool syntax, cut-off streams, unknown tools, invented figures, a "no
issues" answer to a contract with findings. The report says which endpoint it measured.

Reported: tool choice and argument accuracy after repair (the sets' expected tool and key
arguments, tests/assistant/data/*.yaml), wrong figures shown (a figure of the answer that is
neither in the user's words nor in the results of a call with the expected arguments, nor in
the offline reference answer and its results; must be 0), non-answers shown (empty, raw tool syntax, or no
figure after a pricing tool ran; must be 0), fallbacks with and without a notice, modes and
latency. ``EVAL_LIMIT=N`` runs the first N questions. Figures: bench/out/eval_llm.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "assistant" / "data"
ENDPOINT_VARS = ("ADVISOR_LLM_PRESET", "ADVISOR_LLM_MODEL")


# --- the question sets --------------------------------------------------------------------

def load_sets(data: Path = DATA) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every conversation of every set as ``(set name, turns)``; a turn has ``q``, ``intent``
    and optionally ``args``, ``lang``, ``missing``, ``absent``, ``followup``. Reads both the
    ``q``/``chain`` form and the persona form (``text``, ``history``, ``expect``)."""
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for path in sorted(data.glob("*.yaml")):
        items = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        for item in items:
            if "text" in item and "expect" in item:
                expect = item.get("expect") or {}
                before = [{"q": h if isinstance(h, str) else h.get("q") or h.get("text") or h.get("content", ""),
                           "context_only": True} for h in item.get("history") or []
                          if isinstance(h, str) or (isinstance(h, dict) and h.get("role", "user") == "user")]
                turn = {"q": item["text"], "intent": expect.get("intent"), "args": expect.get("args") or {},
                        "lang": item.get("lang")}
                out.append((path.name, [*before, {k: v for k, v in turn.items() if v is not None}]))
            else:
                out.append((path.name, item.get("chain", [item])))
    return out


def as_parsed(result: Any) -> SimpleNamespace:
    """What the set's expectation compares, read from an ask result: the successful call of
    the job the turn did (``intent``), else the first successful call, else the first call."""
    parsed = result.history[-1].get("parsed") or {}
    done = [c for c in result.tool_calls if c.result is not None]
    first = next((c for c in reversed(done) if c.name == result.intent), done[0] if done else None)
    first = first or (result.tool_calls[0] if result.tool_calls else None)
    intent = first.name if first and result.intent not in ("clarify", "onboarding") else result.intent
    args = dict(first.args) if first else {}
    if "lang" not in (parsed.get("args") or {}):
        args.pop("lang", None)
    return SimpleNamespace(intent=intent, language=result.lang, is_followup=parsed.get("is_followup", False),
                           args=args, missing=parsed.get("missing", []), reason=parsed.get("reason", ""))


# --- a scripted stand-in for a small model ----------------------------------------------------

BEHAVIOURS = ("good", "invented_defaults", "invented_text", "tagged_call", "fenced_call", "raw_syntax",
              "cut_off", "unknown_tool", "invented_figure", "no_figures", "no_issues")


def _question(body: dict[str, Any]) -> str:
    users = [m for m in body["messages"] if m["role"] == "user"]
    text = users[-1]["content"] if users else ""
    if "<document>" in text:  # put the document back where the user had it
        ask, _, rest = text.partition("\n\n")
        doc = rest.split("<document>\n", 1)[-1].rsplit("\n</document>", 1)[0]
        text = f"{ask}\n{doc}"
    return text if isinstance(text, str) else ""


def behaviour(question: str) -> str:
    return BEHAVIOURS[int(hashlib.sha256(question.encode()).hexdigest(), 16) % len(BEHAVIOURS)]


def small_model(body: dict[str, Any]) -> dict[str, Any]:
    """One reply of the stand-in model for the request ``body``."""
    from advisor.assistant.offline.parse import parse_question
    from advisor.tools import TOOL_NAMES

    question = _question(body)
    kind = behaviour(question)
    tool_msgs = [m for m in body["messages"] if m["role"] == "tool"]
    if tool_msgs:  # the answer phase
        last = tool_msgs[-1]["content"]
        if last.startswith("Error:"):
            if kind == "unknown_tool" and len(tool_msgs) == 1:
                return _call_for(question, parse_question(question), "good")
            return {"content": "Could you tell me more about the job?"}
        data = json.loads(last)
        data = data.get("result", data)
        summary = data.get("summary") if isinstance(data.get("summary"), str) else ""
        if kind == "raw_syntax":
            return {"content": "functions.estimate_training_cost:"}
        if kind == "cut_off":
            return {"content": (summary or "The estimate is ready and it comes to") + " and then", "cut": True}
        if kind == "invented_figure":
            return {"content": f"{summary} In total about $987,654.32."}
        if kind == "no_figures":
            return {"content": "Here is the estimate."}
        if kind == "no_issues":
            return {"content": "No issues: this is safe to sign."}
        return {"content": summary or "Done — see the figures above."}
    parsed = parse_question(question)
    tool = parsed.pending or parsed.intent
    if tool not in TOOL_NAMES:
        return {"content": parsed.clarify_question or "What job should I price?"}
    return _call_for(question, parsed, kind)


def _call_for(question: str, parsed: Any, kind: str) -> dict[str, Any]:
    tool = parsed.pending or parsed.intent
    args = {k: v for k, v in parsed.args.items() if k != "lang"}
    if kind == "invented_defaults":
        args.update({"price_per_gpu_hour": 0.15, "deadline_hours": 72, "tokens_b": 0.15})
        if "model" in args:
            args["params_b"] = 1.0
    elif kind == "invented_text":
        args.update({"method": "full" if args.get("method") != "full" else "lora", "gpu": "H100", "billing": "spot",
                     "urgent": True})
    elif kind == "unknown_tool":
        tool = "estimate_cost"
    if kind == "tagged_call":
        return {"content": "<tool_call>\n" + json.dumps({"name": tool, "arguments": args}) + "\n</tool_call>"}
    if kind == "fenced_call":
        return {"content": "```json\n" + json.dumps({"name": tool, "parameters": args}) + "\n```"}
    return {"tool_calls": [{"name": tool, "arguments": args}]}


# --- scoring ------------------------------------------------------------------------------------

def _wrong_figures(result: Any, reference: Any, expected: dict[str, Any], words: list[str]) -> list[str]:
    from advisor.assistant.grounding import known_numbers, ungrounded_figures
    from bench.question_eval import check

    good = []
    for call in result.tool_calls:
        if call.result is None:
            continue
        probe = SimpleNamespace(intent=call.name, language=result.lang, is_followup=False, args=call.args,
                                missing=[], reason="")
        exp = {k: v for k, v in expected.items() if k in ("intent", "args")}
        if not expected.get("intent") or not check(exp, probe):  # type: ignore[arg-type]
            good.append(call)
    good.extend(c for c in reference.tool_calls if c.result is not None)
    known = known_numbers([c.result for c in good] + [c.args for c in good], [*words, reference.answer])
    return ungrounded_figures(result.answer, known)


def _non_answer(result: Any) -> str | None:
    from advisor.assistant.numbers import read_figures
    from advisor.assistant.repair import is_pricing
    from advisor.assistant.replies import has_tool_syntax

    if not result.answer.strip():
        return "empty"
    if has_tool_syntax(result.answer):
        return "tool syntax"
    if any(c.result and is_pricing(c.name) for c in result.tool_calls) and not read_figures(result.answer):
        return "no figures"
    return None


def evaluate(cfg: Any, limit: int | None = None) -> dict[str, Any]:
    from advisor.assistant import ask
    from bench.question_eval import check

    turns = right_tool = right_args = scored = wrong = non = 0
    fallback_notice = fallback_silent = 0
    modes: Counter[str] = Counter()
    latencies: list[float] = []
    failures: list[str] = []
    per_set: dict[str, Counter[str]] = {}
    for set_name, chain in load_sets():
        tally = per_set.setdefault(set_name, Counter())
        history = reference_history = None
        words: list[str] = []
        for expected in chain:
            if limit is not None and turns >= limit:
                break
            words.append(expected["q"])
            reference = ask(expected["q"], history=reference_history, offline=True)
            started = time.perf_counter()
            result = ask(expected["q"], history=history, config=cfg)
            latencies.append(time.perf_counter() - started)
            history, reference_history = result.history, reference.history
            if expected.get("context_only"):
                continue
            turns += 1
            modes[result.mode] += 1
            if result.mode == "offline_fallback":
                fallback_notice += bool(result.notice)
                fallback_silent += not result.notice
            got = as_parsed(result)
            if expected.get("intent"):
                scored += 1
                right_tool += got.intent == expected["intent"]
                problems = check(expected, got)  # type: ignore[arg-type]
                right_args += not problems
                tally["scored"] += 1
                tally["arguments right"] += not problems
                if problems and len(failures) < 15:
                    failures.append(f"{expected['q'][:60]!r}: {'; '.join(problems)[:160]}")
            bad = _wrong_figures(result, reference, expected, words)
            tally["wrong figures"] += len(bad)
            if bad:
                wrong += len(bad)
                failures.append(f"WRONG FIGURES {bad[:3]} in {expected['q'][:50]!r}")
            why = _non_answer(result)
            tally["non-answers"] += bool(why)
            if why:
                non += 1
                failures.append(f"NON-ANSWER ({why}) for {expected['q'][:50]!r}")
        if limit is not None and turns >= limit:
            break
    lat = sorted(latencies) or [0.0]
    return {
        "turns": turns,
        "tool choice": f"{right_tool}/{scored} ({right_tool / max(scored, 1):.1%})",
        "arguments right after repair": f"{right_args}/{scored} ({right_args / max(scored, 1):.1%})",
        "wrong figures shown (must be 0)": wrong,
        "non-answers shown (must be 0)": non,
        "fallbacks with a notice": fallback_notice,
        "fallbacks without a notice (must be 0)": fallback_silent,
        "modes": dict(modes),
        "per set": {name: f"args {t['arguments right']}/{t['scored']}, wrong figures {t['wrong figures']}, "
                           f"non-answers {t['non-answers']}" for name, t in per_set.items() if t["scored"]},
        "latency p50 s": round(statistics.median(lat), 3),
        "latency p95 s": round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 3),
        "latency max s": round(lat[-1], 3),
        "failures (first)": failures[:25],
    }


def main() -> int:
    from advisor.assistant.config import load_config

    limit = int(os.environ["EVAL_LIMIT"]) if os.environ.get("EVAL_LIMIT") else None
    server = None
    if any(os.environ.get(v) for v in ENDPOINT_VARS):
        cfg = load_config()
        endpoint = f"{cfg.base_url} model {cfg.model}"
    else:
        sys.path.insert(0, str(ROOT / "tests" / "assistant"))
        from fakes import StandIn

        server = StandIn(small_model)
        cfg = load_config(env={}, dotenv_path=None, base_url=server.url, model="scripted-small-model",
                          api_key="sk-eval-local-0000", max_retries=0)
        endpoint = ("scripted stand-in server on 127.0.0.1 (no endpoint in the environment): behaviours "
                    + ", ".join(BEHAVIOURS))
    print(f"endpoint: {endpoint}", flush=True)
    try:
        figures = evaluate(cfg, limit)
    finally:
        if server is not None:
            server.close()
    figures = {"endpoint": endpoint, **figures}
    for key, value in figures.items():
        if isinstance(value, list | dict) and key != "modes":
            print(f"{key}:")
            for line in value.items() if isinstance(value, dict) else value:
                print(f"   {line}")
        else:
            print(f"{key:44s} {value}")
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "eval_llm.json").write_text(json.dumps(figures, indent=2, ensure_ascii=False), encoding="utf-8")
    ok = (figures["wrong figures shown (must be 0)"] == 0 and figures["non-answers shown (must be 0)"] == 0
          and figures["fallbacks without a notice (must be 0)"] == 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
