"""The LLM agent loop over any OpenAI-compatible chat model (a LangChain chat model), with
the tools' compact schemas, bounded round trips, and endpoint failures turned into
:class:`EndpointFailure`.

One round trip: send the conversation with ``tools`` and ``tool_choice: "auto"``; read the
reply (streamed or not, per endpoint); run its tool calls — structured ones, or ones the
model wrote as text (:mod:`advisor.assistant.replies`) — through the caller's executor, and
send the results back. A reply without calls ends the turn. Nothing here shows text to a
user: the caller checks the final text first (docs/LLM.md "What one turn does").

The chat model is injected (tests pass a fake one); :func:`build_chat_model` builds a
``ChatOpenAI`` that never sends ``content: null``. LangChain is imported inside functions.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.assistant.config import LLMConfig, scrub
from advisor.assistant.replies import text_tool_calls
from advisor.assistant.result import ToolCall
from advisor.errors import ServiceError
from advisor.glossary import term

__all__ = ["EndpointFailure", "LLMTurn", "bounded", "build_chat_model", "run_agent"]

log = logging.getLogger("advisor.assistant")

FINISHED = ("stop", "tool_calls", "function_call", "eos", "end_turn", "stop_sequence")
"""``finish_reason`` values of a complete reply; anything else (``length``, a filter, none on
a stream) means the reply was cut off."""

_IDS = itertools.count(1)


class EndpointFailure(Exception):
    """The model could not answer: ``kind`` names a glossary ``notice.*`` entry; ``detail`` is safe to show."""

    def __init__(self, kind: str, detail: str = "") -> None:
        self.kind, self.detail = kind, scrub(detail)
        super().__init__(f"{kind}: {self.detail}" if self.detail else kind)

    def notice(self, lang: str) -> str:
        return term(f"notice.{self.kind}", lang, detail=self.detail or self.kind)


@dataclass
class LLMTurn:
    """What the agent did: its final text, whether the reply finished, the tool calls."""

    answer: str
    finished: bool = True
    tool_calls: list[ToolCall] = field(default_factory=list)
    round_trips: int = 0


Executor = Callable[[str, dict[str, Any]], tuple[str, ToolCall]]
"""``execute(tool_name, args) -> (content for the model, the recorded call)``."""


def _compat_class() -> type:
    from langchain_openai import ChatOpenAI

    class CompatChatOpenAI(ChatOpenAI):
        """``ChatOpenAI`` whose requests never carry ``content: null`` (llama.cpp, some vLLM
        and Ollama versions refuse it on assistant messages that call tools)."""

        def _get_request_payload(self, input_: Any, *, stop: Any = None, **kwargs: Any) -> dict[str, Any]:
            payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
            for message in payload.get("messages", []):
                if isinstance(message, dict) and message.get("content") is None:
                    message["content"] = ""
            return payload

    return CompatChatOpenAI


def build_chat_model(cfg: LLMConfig) -> Any:
    """A chat model for the configured endpoint (timeout within the turn's deadline, retries
    from the config); :class:`EndpointFailure` when it cannot be built (no model, no key)."""
    if not cfg.enabled:
        raise EndpointFailure("not_configured")
    if cfg.api_key is None:
        raise EndpointFailure("no_key")
    return _compat_class()(
        model=cfg.model or "",
        base_url=cfg.base_url,
        api_key=cfg.api_key,
        timeout=min(cfg.timeout_s, cfg.turn_timeout_s),
        max_retries=cfg.max_retries,
        temperature=cfg.temperature,
    )


def classify(exc: BaseException) -> EndpointFailure | None:
    """The failure an exception stands for, or None when it is not the endpoint's fault."""
    import openai

    if isinstance(exc, EndpointFailure):
        return exc
    if isinstance(exc, openai.APITimeoutError | TimeoutError):
        return EndpointFailure("timeout")
    if isinstance(exc, openai.APIConnectionError):
        return EndpointFailure("unreachable")
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return EndpointFailure("auth")
    if isinstance(exc, openai.APIStatusError):
        return EndpointFailure("failed", f"HTTP {exc.status_code}")
    if isinstance(exc, openai.OpenAIError | ServiceError):
        return EndpointFailure("failed", type(exc).__name__)
    try:
        import httpx

        if isinstance(exc, httpx.HTTPError):
            return EndpointFailure("unreachable")
    except ImportError:  # pragma: no cover - httpx comes with openai
        pass
    return None


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content
                       if not isinstance(b, dict) or b.get("type") in (None, "text"))
    return ""


def bounded(work: Callable[[threading.Event], LLMTurn], seconds: float, *, label: float | None = None) -> LLMTurn:
    """``work(cancel)`` in a worker thread; after ``seconds`` the turn is given up: ``cancel``
    is set (the loop stops reading and closes its request) and ``EndpointFailure("deadline")``
    (naming ``label`` seconds, the whole turn's deadline) is raised at once, whatever the
    worker is blocked on."""
    cancel = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["turn"] = work(cancel)
        except BaseException as exc:  # handed to the caller's thread below
            box["error"] = exc

    worker = threading.Thread(target=run, name="advisor-llm-turn", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        cancel.set()
        raise EndpointFailure("deadline", f"{label if label is not None else seconds:g}")
    if "error" in box:
        raise box["error"]
    return box["turn"]  # type: ignore[no-any-return]


def run_agent(
    messages: list[Any],
    *,
    model: Any,
    tools: list[dict[str, Any]],
    execute: Executor,
    max_steps: int = 6,
    stream: bool = True,
    cancel: threading.Event | None = None,
    deadline: float | None = None,
) -> LLMTurn:
    """Run the turn's round trips; raises :class:`EndpointFailure` when the model cannot answer
    (endpoint errors, the round-trip cap, ``cancel`` set or ``deadline`` — a ``time.monotonic``
    value — passed)."""
    from langchain_core.messages import AIMessage, ToolMessage


    cancel = cancel or threading.Event()
    bound = model.bind_tools(tools, tool_choice="auto") if tools else model
    messages = list(messages)
    calls: list[ToolCall] = []
    try:
        for step in range(max_steps):
            _check(cancel, deadline)
            text, requested, finish = _reply(bound, messages, stream, cancel, deadline)
            written = [] if requested else text_tool_calls(text)
            if not requested and not written:
                finished = finish in FINISHED or (finish is None and not stream and bool(text.strip()))
                return LLMTurn(answer=text.strip(), finished=finished, tool_calls=calls, round_trips=step + 1)
            todo = requested or [{"name": c["name"], "args": c["args"], "id": f"text_call_{next(_IDS)}"} for c in written]
            messages.append(AIMessage(content="", tool_calls=[{"name": c["name"], "args": c["args"], "id": c["id"],
                                                               "type": "tool_call"} for c in todo]))
            for c in todo:
                _check(cancel, deadline)
                content, record = execute(c["name"], c["args"])
                calls.append(record)
                messages.append(ToolMessage(content, tool_call_id=c["id"], name=c["name"],
                                            status="error" if record.error else "success"))
    except Exception as exc:  # sorted here: endpoint failures fall back, our own bugs do not
        failure = classify(exc)
        if failure is None:
            raise
        if failure.kind != "deadline" and not cancel.is_set():  # after the deadline nobody waits for it
            log.warning("LLM turn failed: %s", scrub(f"{type(exc).__name__}: {exc}"))
        raise failure from None
    raise EndpointFailure("unfinished")


def _check(cancel: threading.Event, deadline: float | None) -> None:
    if cancel.is_set() or (deadline is not None and time.monotonic() > deadline):
        raise EndpointFailure("deadline")


def _reply(bound: Any, messages: list[Any], stream: bool, cancel: threading.Event,
           deadline: float | None) -> tuple[str, list[dict[str, Any]], str | None]:
    """One model call: its text, its structured tool calls (``invalid`` ones included, with
    their raw arguments) and its ``finish_reason``."""
    if stream:
        merged: Any = None
        for chunk in bound.stream(messages):
            _check(cancel, deadline)  # leaving the loop closes the stream and its connection
            merged = chunk if merged is None else merged + chunk
        if merged is None:
            return "", [], None
        message = merged
    else:
        message = bound.invoke(messages)
    meta = getattr(message, "response_metadata", None) or {}
    finish = meta.get("finish_reason")
    calls = [{"name": c.get("name") or "", "args": c.get("args") or {}, "id": c.get("id") or f"call_{next(_IDS)}"}
             for c in getattr(message, "tool_calls", None) or []]
    for bad in getattr(message, "invalid_tool_calls", None) or []:
        calls.append({"name": bad.get("name") or "", "args": {"__invalid__": bad.get("args") or ""},
                      "id": bad.get("id") or f"call_{next(_IDS)}"})
    return text_of(message.content), calls, finish
