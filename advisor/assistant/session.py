"""One assistant turn, either mode: choose the mode, run it, check the LLM's reply before any
of it is shown, fall back to the offline assistant with a notice, and extend the history.

The LLM path (docs/LLM.md "What one turn does"): the offline frame reads the question; the
model's tool calls are repaired against it (:mod:`advisor.assistant.repair`); the whole turn
runs under a deadline; the final text is checked (finished, not empty, no tool syntax, every
figure traced, agrees with the findings, delivers the figures it was asked for) and only then
handed to ``on_token``. A reply that fails a check is replaced by the offline path's answer
with a ``notice``; ``mode`` says which path produced the answer.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from advisor.assistant import history as hist
from advisor.assistant.config import load_config
from advisor.assistant.grounding import known_numbers, money_numbers, ungrounded_figures
from advisor.assistant.guides import cite_for
from advisor.assistant.numbers import read_figures
from advisor.assistant.offline.compose import (
    explain,
    findings_of,
    offline_turn,
    run_tool,
    sources_block,
)
from advisor.assistant.prompts import system_prompt, user_message
from advisor.assistant.repair import is_pricing, read_frame, repair_call, repair_line, seen_values
from advisor.assistant.replies import contradicts_findings, has_tool_syntax
from advisor.assistant.result import AskResult, Citation, ToolCall
from advisor.errors import InputError
from advisor.glossary import term
from advisor.tools import TOOL_NAMES


def ask_turn(
    question: str,
    history: list[dict[str, Any]] | None = None,
    offline: bool | None = None,
    *,
    config: Any = None,
    model: Any = None,
    on_token: Callable[[str], None] | None = None,
    lang: str | None = None,
    tool_defaults: dict[str, Any] | None = None,
) -> AskResult:
    if not isinstance(question, str) or not question.strip():
        raise InputError("question", question, "a non-empty question")
    if lang is not None and lang not in ("zh", "en"):
        raise InputError("lang", lang, "zh or en")
    entries = hist.check(history)
    previous = hist.previous_parsed(entries)
    failure_kind = None
    if offline is not True:
        cfg = config
        if model is None:
            cfg = config if config is not None else load_config()
        if model is not None or cfg.enabled:
            # lazy: loads httpx, langchain_openai, openai only when this runs (cold start)
            from advisor.assistant.llm import EndpointFailure

            try:
                result = _llm_turn(question, entries, previous, cfg=cfg, model=model, lang=lang, defaults=tool_defaults)
            except EndpointFailure as failure:
                result = _offline(question, entries, previous, lang, tool_defaults, failure=failure)
            _stream(result.answer, on_token)
            return result
        if offline is False:
            # lazy: loads httpx, langchain_openai, openai only when this runs (cold start)
            from advisor.assistant.llm import EndpointFailure

            failure_kind = EndpointFailure("not_configured")
    # offline=False asked for the LLM: without one configured the answer is a fallback, and says so
    return _offline(question, entries, previous, lang, tool_defaults, failure=failure_kind,
                    asked=failure_kind is not None)


def _offline(question: str, entries: list[dict[str, Any]], previous: Any, lang: str | None,
             defaults: dict[str, Any] | None, *, failure: Any = None, asked: bool = True) -> AskResult:
    """The offline answer; ``asked``: the LLM was asked for (so the mode is a fallback)."""
    turn = offline_turn(question, previous, lang, defaults)
    notice = failure.notice(turn.lang) if failure is not None else None
    mode = "offline_fallback" if asked else "offline"
    return AskResult(
        answer=turn.answer, mode=mode, tool_calls=turn.tool_calls, findings=turn.findings,  # type: ignore[arg-type]
        citations=turn.citations, notice=notice, lang=turn.lang, intent=turn.intent,  # type: ignore[arg-type]
        history=hist.extend(entries, question, turn.answer, mode=mode, intent=turn.intent,
                            tool_calls=turn.tool_calls, parsed=turn.parsed),
    )


def _stream(answer: str, on_token: Callable[[str], None] | None) -> None:
    """Hand the checked answer to ``on_token`` in word-sized pieces (nothing before the checks)."""
    if on_token is None:
        return
    for piece in re.split(r"(?<=\s)", answer):
        if piece:
            on_token(piece)


class _Executor:
    """Runs the model's tool calls for one turn: unknown tools and malformed arguments are
    refused with a message the model can act on; every call is repaired against the frame."""

    def __init__(self, frame: Any, lang: str, defaults: dict[str, Any] | None) -> None:
        self.frame, self.lang = frame, lang
        self.defaults = dict(defaults or {})
        if lang == "zh":
            self.defaults.setdefault("currency", "CNY")  # as the offline assistant: a Chinese question is priced in yuan
        self.seen: list[Any] = []
        self.run: list[str] = []
        self.repairs: list[Any] = []

    def __call__(self, name: str, args: dict[str, Any]) -> tuple[str, ToolCall]:
        # lazy: loads openai only when this runs (cold start)
        from advisor.tools.langchain import compact

        if name not in TOOL_NAMES:
            message = f"Error: there is no tool {name!r}. Tools: {', '.join(TOOL_NAMES)}. Call one of them or answer."
            return message, ToolCall(name=name or "?", args=_jsonable(args), error=f"unknown tool {name!r}")
        if not isinstance(args, dict) or "__invalid__" in args:
            message = f"Error: the arguments of {name} are not a JSON object. Call {name} again with valid JSON."
            return message, ToolCall(name=name, args={}, error="arguments are not valid JSON")
        tool, fixed, repairs = repair_call(name, args, self.frame, seen=self.seen, tools_run=self.run)
        self.repairs.extend(repairs)
        call = run_tool(tool, fixed, self.lang, self.defaults)
        self.run.append(tool)
        if call.error:
            return f"Error: {call.error}. Fix that argument and call {tool} again, or ask the user for it.", call
        assert call.result is not None
        self.seen.extend(seen_values(call.result))
        content: Any = compact(call.result, self.lang)
        if repairs:
            content = {"note": "arguments were corrected to match the question: " + "; ".join(r.line() for r in repairs),
                       "tool": tool, "result": content}
        return json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=str), call


def _jsonable(args: Any) -> dict[str, Any]:
    if not isinstance(args, dict):
        return {}
    return json.loads(json.dumps(args, ensure_ascii=False, default=str))


def _llm_turn(
    question: str,
    entries: list[dict[str, Any]],
    previous: Any,
    *,
    cfg: Any,
    model: Any,
    lang: str | None,
    defaults: dict[str, Any] | None = None,
) -> AskResult:
    from langchain_core.messages import HumanMessage, SystemMessage

    # lazy: loads httpx, langchain_openai, openai only when this runs (cold start)
    from advisor.assistant.llm import EndpointFailure, bounded, build_chat_model, run_agent
    from advisor.tools.langchain import openai_tools

    started = time.monotonic()
    words = hist.user_words(entries, question)
    frame = read_frame(question, previous, words)
    lang = lang or frame.language
    chat_model = model if model is not None else build_chat_model(cfg)
    seconds = float(getattr(cfg, "turn_timeout_s", 45.0) if cfg is not None else 45.0)
    steps = int(getattr(cfg, "max_steps", 6) if cfg is not None else 6)
    stream = bool(getattr(cfg, "stream", True) if cfg is not None else True)
    strict = bool(getattr(cfg, "strict", False) if cfg is not None else False)
    messages = [SystemMessage(system_prompt(lang)), *hist.to_messages(entries),
                HumanMessage(user_message(question, frame.document, lang))]
    execute = _Executor(frame, lang, defaults)
    tools = openai_tools(strict=strict)
    try:
        turn = bounded(lambda cancel: run_agent(messages, model=chat_model, tools=tools, execute=execute,
                                                max_steps=steps, stream=stream, cancel=cancel,
                                                deadline=started + seconds),
                       max(0.0, started + seconds - time.monotonic()), label=seconds)
    except EndpointFailure as failure:
        if failure.kind == "deadline" and not failure.detail:  # stopped inside the loop: say which deadline
            raise EndpointFailure("deadline", f"{seconds:g}") from None
        raise
    return _checked(question, entries, previous, frame, turn, execute, lang, defaults)


def _problem(answer: str, finished: bool, frame: Any, done: list[ToolCall], findings: list[Any],
             entries: list[dict[str, Any]]) -> tuple[str | None, list[str]]:
    """Why the model's final text cannot be shown (a glossary ``notice.*`` key), and the
    figures that failed the trace."""
    # lazy: loads openai only when this runs (cold start)
    from advisor.tools.langchain import llm_settings, shown_fields

    results = [c.result for c in done] + [c.args for c in done]
    serious = any(str(getattr(f, "severity", "")) in ("critical", "warning") for f in findings)
    texts = [frame.user_text()] if (serious or frame.document) else [*frame.words, *hist.assistant_words(entries)]
    bad = ungrounded_figures(answer, known_numbers(results, texts), money_numbers(results, texts))
    if frame.confident and is_pricing(frame.intent) and not any(is_pricing(c.name) for c in done):
        return "no_tool", bad  # whatever the reply says, it is not the job the question asks for
    if not finished:
        return "cut_off", []
    if not answer.strip():
        return "empty", []
    fields = {f for name in TOOL_NAMES for f in shown_fields(name)}
    if has_tool_syntax(answer, fields):
        return "tool_syntax", []
    if contradicts_findings(answer, findings, llm_settings().get("reply", {}).get("no_issues", {})):
        return "contradicts", bad
    if bad:
        return "ungrounded", bad
    priced = [c for c in done if is_pricing(c.name)]
    if priced and not read_figures(answer):
        return "no_figures", []
    return None, []


def _checked(question: str, entries: list[dict[str, Any]], previous: Any, frame: Any, turn: Any, execute: _Executor,
             lang: str, defaults: dict[str, Any] | None) -> AskResult:

    calls: list[ToolCall] = list(turn.tool_calls)
    done = [c for c in calls if c.result is not None]
    findings = findings_of(done, lang)
    problem, bad = _problem(turn.answer, turn.finished, frame, done, findings, entries)
    repairs = execute.repairs
    grounding = ["answer: " + ", ".join(bad[:8]) + " not found in the tool results or the user's words"] if bad else []
    intent = done[-1].name if done else frame.intent  # a refused call is not the job the turn did
    if problem is None:
        answer = "\n\n".join(p for p in (turn.answer, repair_line(repairs, lang)) if p)
        mode = "llm+repaired" if repairs else "llm"
        notice = term("notice.repaired", lang) if repairs else None
        citations = _citations(done) or cite_for(question, intent, lang, findings)
    elif done and problem != "no_tool" and (explained := explain(done, lang).strip()):
        citations = _citations(done) or cite_for(question, intent, lang, findings)
        answer = "\n\n".join(p for p in (explained, repair_line(repairs, lang), sources_block(citations, lang)) if p)
        mode, notice = "offline_fallback", term(f"notice.{problem}", lang)
    else:  # no result to explain, or not the job the question asks for: the offline answer
        fallback = offline_turn(question, previous, lang, defaults)
        answer, intent, citations = fallback.answer, fallback.intent, fallback.citations
        calls.extend(fallback.tool_calls)
        done = [c for c in calls if c.result is not None]
        findings = fallback.findings
        mode, notice = "offline_fallback", term(f"notice.{problem}", lang)
    return AskResult(
        answer=answer, mode=mode, tool_calls=calls, findings=findings, citations=citations,  # type: ignore[arg-type]
        notice=notice, grounded=not (bad or repairs), grounding=grounding, repairs=[r.line() for r in repairs],
        lang=lang, intent=intent,  # type: ignore[arg-type]
        history=hist.extend(entries, question, answer, mode=mode, intent=intent, tool_calls=calls, parsed=frame.parsed),
    )


def _citations(calls: list[ToolCall]) -> list[Citation]:
    found = Citation.of_hits([h for c in calls if c.name == "search_knowledge" and c.result for h in c.result.get("hits", [])])
    return [c for i, c in enumerate(found) if c not in found[:i]]
