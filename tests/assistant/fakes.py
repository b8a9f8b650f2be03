"""Test doubles for the LLM path: a scripted chat model that calls tools, and one whose
endpoint is down. Both are injected through ``ask(..., model=...)``; nothing here touches
the network."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from pydantic import Field

Step = AIMessage | str | Callable[[list[BaseMessage]], AIMessage | str]
_IDS = itertools.count(1)


def call(name: str, **args: Any) -> AIMessage:
    """An assistant message that calls one tool."""
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{next(_IDS)}", "type": "tool_call"}])


def last_tool_result(messages: list[BaseMessage]) -> dict[str, Any]:
    """The JSON the last tool returned to the model (unwrapping a grounding note)."""
    msg = next(m for m in reversed(messages) if isinstance(m, ToolMessage))
    data = json.loads(msg.content)
    return data.get("result", data) if isinstance(data, dict) and "note" in data else data


class ScriptedChatModel(GenericFakeChatModel):
    """Plays back a script, one step per model call. A step is a message, a text, or a
    function of the messages the model received (to answer from a tool's result).
    Tool calls survive streaming (GenericFakeChatModel streams text only)."""

    messages: Iterator[Any] = Field(default_factory=lambda: iter(()))
    received: list[list[BaseMessage]] = Field(default_factory=list)
    bound_tools: list[str] = Field(default_factory=list)
    bound_kwargs: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def of(cls, *steps: Step) -> ScriptedChatModel:
        return cls(messages=iter(steps))

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        self.bound_tools[:] = [getattr(t, "name", None) or t.get("name") or t["function"]["name"] for t in tools]
        self.bound_kwargs.update(kwargs)
        return self

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        self.received.append(list(messages))
        step = next(self.messages)
        if callable(step):
            step = step(messages)
        message = AIMessage(step) if isinstance(step, str) else step
        if "finish_reason" not in message.response_metadata:  # as an OpenAI-compatible server reports it
            message.response_metadata["finish_reason"] = "tool_calls" if message.tool_calls else "stop"
        return message

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        from langchain_core.outputs import ChatGeneration

        return ChatResult(generations=[ChatGeneration(message=self._next(messages))])

    def _stream(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                **kw: Any) -> Iterator[ChatGenerationChunk]:
        message = self._next(messages)
        if message.tool_calls:
            chunks = [{"name": tc["name"], "args": json.dumps(tc["args"]), "id": tc["id"], "index": i}
                      for i, tc in enumerate(message.tool_calls)]
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=chunks,
                                                             response_metadata=dict(message.response_metadata),
                                                             chunk_position="last"))
            return
        pieces = [p for p in re.split(r"(\s)", str(message.content)) if p] or [""]
        for i, piece in enumerate(pieces):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
            if i == len(pieces) - 1:
                chunk.message.chunk_position = "last"  # type: ignore[attr-defined]
                chunk.message.response_metadata = dict(message.response_metadata)
            if run_manager:
                run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk


class DownChatModel(GenericFakeChatModel):
    """A model whose endpoint cannot be reached (raises what the OpenAI client raises)."""

    messages: Iterator[Any] = Field(default_factory=lambda: iter(()))
    error: str = "connection"

    def bind_tools(self, tools: Any, **kwargs: Any) -> DownChatModel:  # type: ignore[override]
        return self

    def _raise(self) -> None:
        import httpx
        import openai

        request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
        if self.error == "timeout":
            raise openai.APITimeoutError(request=request)
        raise openai.APIConnectionError(request=request)

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        self._raise()
        raise AssertionError("unreachable")

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        self._raise()
        yield from ()


# --- a stand-in OpenAI-compatible server -------------------------------------------------

Reply = dict[str, Any]
"""{"content": str} or {"tool_calls": [{"name": str, "arguments": dict}]} or {"status": int}; with
optional "sleep" (seconds before answering), "chunk_sleep" (seconds between streamed chunks), "finish" (the finish_reason sent, default stop /
tool_calls) and "cut" (a stream that stops after the first half of its text, with no
finish_reason and no [DONE], as a dropped connection does)."""


class StandIn:
    """``POST /v1/chat/completions`` on 127.0.0.1 (random port), answering from a script of
    functions ``request body -> reply``; streams SSE when asked to. Records every request."""

    def __init__(self, *script: Callable[[dict[str, Any]], Reply]) -> None:
        import threading
        from http.server import ThreadingHTTPServer

        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def reply(self, body: dict[str, Any]) -> Reply:
        self.requests.append(body)
        step = self.script[min(len(self.requests), len(self.script)) - 1]
        return step(body)


def _completion(reply: Reply, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.get("content")}
    finish = reply.get("finish", "stop")
    if reply.get("tool_calls"):
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                  "function": {"name": t["name"], "arguments": json.dumps(t["arguments"])}}
                                 for i, t in enumerate(reply["tool_calls"])]
        finish = reply.get("finish", "tool_calls")
    return {"id": "chatcmpl-standin", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def _chunks(reply: Reply, model: str) -> Iterator[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": 0, "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": ""})
    if reply.get("tool_calls"):
        for i, t in enumerate(reply["tool_calls"]):
            yield chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                         "function": {"name": t["name"], "arguments": ""}}]})
            text = json.dumps(t["arguments"])
            for start in range(0, len(text), 16):
                yield chunk({"tool_calls": [{"index": i, "function": {"arguments": text[start:start + 16]}}]})
        yield chunk({}, "tool_calls")
        return
    pieces = [p for p in re.split(r"(?<=\s)", reply.get("content") or "") if p]
    if reply.get("cut"):
        for piece in pieces[: max(1, len(pieces) // 2)]:
            yield chunk({"content": piece})
        return
    for piece in pieces:
        yield chunk({"content": piece})
    yield chunk({}, reply.get("finish", "stop"))


def _handler(stand_in: StandIn) -> type:
    from http.server import BaseHTTPRequestHandler

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            if not self.path.endswith("/chat/completions"):
                self.send_error(404)
                return
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            stand_in.headers.append({k.lower(): v for k, v in self.headers.items()})
            reply = stand_in.reply(body)
            if reply.get("sleep"):
                time.sleep(reply["sleep"])
            if reply.get("status"):
                data = json.dumps({"error": {"message": "stand-in failure", "type": "server_error"}}).encode()
                self.send_response(reply["status"])
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            model = body.get("model", "stand-in")
            if body.get("stream"):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                try:
                    for c in _chunks(reply, model):
                        self.wfile.write(f"data: {json.dumps(c)}\n\n".encode())
                        self.wfile.flush()
                        if reply.get("chunk_sleep"):
                            time.sleep(reply["chunk_sleep"])
                    if not reply.get("cut"):
                        self.wfile.write(b"data: [DONE]\n\n")
                except (BrokenPipeError, ConnectionResetError):  # the client gave up: that is the point
                    pass
                self.close_connection = True
                return
            data = json.dumps(_completion(reply, model)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
