"""One assistant turn, either mode: choose the mode, run it, check the LLM's numbers, fall
back to the offline assistant when the endpoint fails, and extend the history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.assistant import history as hist
from advisor.assistant.result import AskResult, Citation, ToolCall
from advisor.errors import InputError

GROUNDING_NOTICE = {
    "answer": {"en": "Some figures in the model's reply could not be traced to a tool result, so the calculated "
                     "explanation is shown instead.",
               "zh": "模型回答中的部分数字无法追溯到工具结果，已改为显示计算得出的说明。"},
    "args": {"en": "Some numbers the model passed to a tool did not match your question and were corrected.",
             "zh": "模型传给工具的部分数字与您的问题不符，已按问题原文更正。"},
}


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
            from advisor.assistant.config import load_config

            cfg = config if config is not None else load_config()
        if model is not None or cfg.enabled:
            from advisor.assistant.llm import EndpointFailure

            try:
                return _llm_turn(question, entries, previous, cfg=cfg, model=model, on_token=on_token, lang=lang,
                                 defaults=tool_defaults)
            except EndpointFailure as failure:
                failure_kind = failure
        elif offline is False:
            from advisor.assistant.llm import EndpointFailure

            failure_kind = EndpointFailure("not_configured")
    from advisor.assistant.offline.compose import offline_turn

    turn = offline_turn(question, previous, lang, tool_defaults)
    notice = failure_kind.notice(turn.lang) if failure_kind is not None else None
    return AskResult(
        answer=turn.answer, mode="offline", tool_calls=turn.tool_calls, findings=turn.findings,
        citations=turn.citations, notice=notice, lang=turn.lang, intent=turn.intent,  # type: ignore[arg-type]
        history=hist.extend(entries, question, turn.answer, mode="offline", intent=turn.intent,
                            tool_calls=turn.tool_calls, parsed=turn.parsed),
    )


class _Guard:
    """Argument grounding for one turn: the parser's reading projected onto each tool, the
    user's words, and the results of this turn's earlier calls (:meth:`observe`)."""

    def __init__(self, parsed: Any, question: str, words: list[str]) -> None:
        self.parsed, self.question, self.words = parsed, question, words
        self.seen: list[float] = []

    def observe(self, result: dict[str, Any]) -> None:
        from advisor.assistant.numbers import numbers_in

        self.seen.extend(numbers_in(result))

    def __call__(self, name: str, args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        from advisor.assistant.grounding import ground_args
        from advisor.assistant.offline.project import project
        from advisor.tools.langchain import request_model

        parsed = self.parsed
        if name == parsed.intent or name == parsed.pending:
            theirs = parsed.args
        else:
            theirs = project(name, parsed.context, language=parsed.language, question=self.question)
        fields = request_model(name).model_fields
        defaults = {k: f.default for k, f in fields.items()
                    if isinstance(f.default, int | float) and not isinstance(f.default, bool)}
        return ground_args(name, args, parser_args=theirs, words=self.words, schema_defaults=defaults, seen=self.seen)


def _llm_turn(
    question: str,
    entries: list[dict[str, Any]],
    previous: Any,
    *,
    cfg: Any,
    model: Any,
    on_token: Callable[[str], None] | None,
    lang: str | None,
    defaults: dict[str, Any] | None = None,
) -> AskResult:
    from advisor.assistant.grounding import known_numbers, ungrounded_figures
    from advisor.assistant.llm import build_chat_model, run_agent
    from advisor.assistant.offline.compose import attach_guides, explain, findings_of, offline_turn
    from advisor.assistant.offline.parse import parse_question

    parsed = parse_question(question, previous)
    lang = lang or parsed.language
    words = hist.user_words(entries, question)
    chat_model = model if model is not None else build_chat_model(cfg)
    steps = getattr(cfg, "max_steps", 8) if cfg is not None else 8
    turn = run_agent(question, hist.to_messages(entries), model=chat_model, lang=lang,
                     guard=_Guard(parsed, question, words), on_token=on_token, max_steps=steps, defaults=defaults)
    calls: list[ToolCall] = list(turn.tool_calls)
    notes = list(turn.arg_notes)
    notices = [GROUNDING_NOTICE["args"][lang]] if notes else []
    answer = turn.answer
    done = [c for c in calls if c.result is not None]
    known = known_numbers([c.result for c in done] + [c.args for c in done], words + hist.assistant_words(entries))
    bad = ungrounded_figures(answer, known)
    intent = done[-1].name if done else (calls[-1].name if calls else parsed.intent)
    if bad or not answer:
        if bad:
            notes.append("answer: " + ", ".join(bad[:8]) + " not found in the tool results or the user's words")
            notices = [GROUNDING_NOTICE["answer"][lang]]
        if done:
            answer = explain(done, lang)
        else:
            fallback = offline_turn(question, previous, lang, defaults)
            answer, intent = fallback.answer, fallback.intent
            calls.extend(fallback.tool_calls)
            done = [c for c in calls if c.result is not None]
    findings = findings_of(done, lang)
    citations = _citations(done) or attach_guides(question, intent, lang, findings)
    if bad and done:
        from advisor.assistant.offline.compose import sources_block

        answer = "\n\n".join(p for p in (answer, sources_block(citations, lang)) if p)
    return AskResult(
        answer=answer, mode="llm", tool_calls=calls, findings=findings, citations=citations,
        notice=" ".join(notices) or None, grounded=not notes, grounding=notes, lang=lang,  # type: ignore[arg-type]
        intent=intent,
        history=hist.extend(entries, question, answer, mode="llm", intent=intent, tool_calls=calls, parsed=parsed),
    )


def _citations(calls: list[ToolCall]) -> list[Citation]:
    out: list[Citation] = []
    for call in calls:
        if call.name != "search_knowledge" or not call.result:
            continue
        for h in call.result.get("hits", []):
            path = f"{h['path']}#{h['anchor']}" if h.get("anchor") else h["path"]
            c = Citation(title=f"{h['title']} › {h['section']}", path=path)
            if c not in out:
                out.append(c)
    return out
