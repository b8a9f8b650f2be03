"""The conversation as plain JSON, so that ``history=`` round-trips through files and UIs.

Entries::

    {"role": "user", "content": "..."}
    {"role": "assistant", "content": "...", "mode": "offline", "intent": "...",
     "tool_calls": [{"name": ..., "args": {...}}], "parsed": {...}}

``parsed`` is the offline parser's reading of that turn (its merged context included): the
next question is parsed as its follow-up in both modes, and the LLM's tool arguments are
checked against it.
"""

from __future__ import annotations

from typing import Any

from advisor.assistant.offline.parse import Parsed
from advisor.errors import InputError

MAX_TURNS = 12
"""Earlier turns sent to the model; older ones only matter through ``parsed``."""


def check(history: Any) -> list[dict[str, Any]]:
    """A copy of ``history`` as a list of entries; InputError naming what is wrong."""
    if history is None:
        return []
    if not isinstance(history, list):
        raise InputError("history", type(history).__name__, "a list of {role, content} entries from a previous AskResult")
    out = []
    for i, entry in enumerate(history):
        if not isinstance(entry, dict) or entry.get("role") not in ("user", "assistant") or not isinstance(
            entry.get("content"), str
        ):
            raise InputError(f"history[{i}]", entry if not isinstance(entry, dict) else entry.get("role"),
                             "{role: user|assistant, content: text}")
        out.append(dict(entry))
    return out


def previous_parsed(history: list[dict[str, Any]]) -> Any:
    """The parser's reading of the last assistant turn, or None."""
    for entry in reversed(history):
        if entry.get("role") == "assistant" and entry.get("parsed"):
            try:
                return Parsed.model_validate(entry["parsed"])
            except ValueError:
                return None
    return None


def user_words(history: list[dict[str, Any]], question: str) -> list[str]:
    """Everything the user said, this question included."""
    return [e["content"] for e in history if e.get("role") == "user"] + [question]


def assistant_words(history: list[dict[str, Any]]) -> list[str]:
    return [e["content"] for e in history if e.get("role") == "assistant"]


def extend(
    history: list[dict[str, Any]],
    question: str,
    answer: str,
    *,
    mode: str,
    intent: str | None,
    tool_calls: list[Any],
    parsed: Any,
) -> list[dict[str, Any]]:
    """``history`` with this turn appended (a new list)."""
    entry: dict[str, Any] = {
        "role": "assistant",
        "content": answer,
        "mode": mode,
        "intent": intent,
        "tool_calls": [{"name": c.name, "args": c.args} for c in tool_calls],
    }
    if parsed is not None:
        entry["parsed"] = parsed.model_dump(mode="json", exclude={"spans"})
    return [*history, {"role": "user", "content": question}, entry]


def to_messages(history: list[dict[str, Any]]) -> list[Any]:
    """LangChain messages of the last :data:`MAX_TURNS` turns. An assistant turn carries the
    tool calls it made as a short note, so the model can keep the previous request."""
    import json

    from langchain_core.messages import AIMessage, HumanMessage

    out: list[Any] = []
    for entry in history[-2 * MAX_TURNS:]:
        if entry["role"] == "user":
            out.append(HumanMessage(entry["content"]))
            continue
        text = entry["content"]
        calls = entry.get("tool_calls") or []
        if calls:
            text += "\n\n[tools called: " + "; ".join(
                f"{c['name']} {json.dumps(c.get('args', {}), ensure_ascii=False)}" for c in calls) + "]"
        out.append(AIMessage(text))
    return out
