"""What a model's reply text is: a tool call written as text, raw tool syntax that must never
be shown, or an answer that contradicts the tools' findings (docs/LLM.md "Checked replies").

Small local models often write their tool call into the message text instead of a structured
call: a JSON object (bare or in a code fence), Hermes/Qwen ``<tool_call>`` tags, Llama's
``<|python_tag|>``, Mistral's ``[TOOL_CALLS]``, or ``functions.NAME:{...}``.
:func:`text_tool_calls` reads those forms so they are validated and run like structured calls;
:func:`has_tool_syntax` says a text still carries such syntax (it is then not an answer).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["contradicts_findings", "has_tool_syntax", "text_tool_calls"]

_TAGGED = re.compile(r"<tool_call>\s*(?P<body>.*?)\s*(?:</tool_call>|$)", re.S)
_FUNCTIONS = re.compile(r"functions\.(?P<name>[A-Za-z_]\w*)\s*[:(]?\s*(?P<body>\{.*)", re.S)
_FENCE = re.compile(r"```[a-zA-Z]*\s*(?P<body>[\[{].*?)```", re.S)
_MARKERS = re.compile(r"<\|python_tag\|>|\[TOOL_CALLS\]|</?tool_call>|<\|tool_call|<function[=>]|functions\.[A-Za-z_]\w*\s*[:({]")
_ARG_KEYS = ("arguments", "parameters", "args", "input")


def _objects(text: str) -> list[Any]:
    """The JSON values that start at each ``{`` or ``[`` of ``text`` (outermost ones only)."""
    decoder = json.JSONDecoder()
    out: list[Any] = []
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except ValueError:
                i += 1
                continue
            out.append(value)
            i = end
        else:
            i += 1
    return out


def _as_call(obj: Any, name: str | None = None) -> dict[str, Any] | None:
    if not isinstance(obj, dict):
        return None
    if name is not None:
        args = next((obj[k] for k in _ARG_KEYS if isinstance(obj.get(k), dict)), obj)
        return {"name": name, "args": args}
    inner = obj.get("function")
    fn: dict[str, Any] = inner if isinstance(inner, dict) else obj
    called = fn.get("name")
    if not isinstance(called, str) or not called:
        return None
    for key in _ARG_KEYS:
        args = fn.get(key)
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except ValueError:
                continue
        if isinstance(args, dict):
            return {"name": called, "args": args}
    return {"name": called, "args": {}} if set(fn) <= {"name", "type", "id"} else None


def text_tool_calls(text: str) -> list[dict[str, Any]]:
    """Tool calls written into a reply's text, as ``{"name", "args"}`` (names unchecked: an
    unknown name is refused by the caller like a structured call to it)."""
    if not text or ("{" not in text):
        return []
    calls: list[dict[str, Any]] = []
    for m in _FUNCTIONS.finditer(text):
        objs = _objects(m.group("body"))
        call = _as_call(objs[0], m.group("name")) if objs else None
        if call:
            calls.append(call)
    if calls:
        return calls
    bodies = [m.group("body") for m in _TAGGED.finditer(text)] or [m.group("body") for m in _FENCE.finditer(text)]
    if not bodies:
        stripped = text.strip()
        for marker in ("<|python_tag|>", "[TOOL_CALLS]"):
            stripped = stripped.replace(marker, "")
        bodies = [stripped]
    for body in bodies:
        for obj in _objects(body):
            for item in obj if isinstance(obj, list) else [obj]:
                call = _as_call(item)
                if call:
                    calls.append(call)
    return calls


def has_tool_syntax(text: str, field_names: set[str] | frozenset[str] = frozenset()) -> bool:
    """True when ``text`` carries tool-call syntax or a JSON object instead of prose: the
    markers above, a JSON object naming a tool call, or one keyed by tool argument names."""
    if _MARKERS.search(text):
        return True
    for obj in _objects(text):
        items = obj if isinstance(obj, list) else [obj]
        for item in items:
            if isinstance(item, dict) and item and (_as_call(item) or set(item) & (set(field_names) | {"name", *_ARG_KEYS})):
                return True
    return False


def contradicts_findings(text: str, findings: list[Any], phrases: dict[str, list[str]]) -> bool:
    """True when tools reported critical or warning findings and ``text`` says there are none
    (a phrase of ``knowledge/assistant/llm.yaml`` ``reply.no_issues``, either language)."""
    serious = [f for f in findings if str(getattr(f, "severity", "")).lower() in ("critical", "warning")]
    if not serious:
        return False
    low = " ".join(text.lower().split())
    for phrase in (p.lower() for lang in phrases.values() for p in lang):
        for m in re.finditer(re.escape(phrase), low):
            before = low[max(0, m.start() - 5):m.start()]
            if not re.search(r"(?:不|非|未|not |n't |never )$", before):  # "不可以签", "not safe to sign"
                return True
    return False
