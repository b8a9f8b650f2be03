"""A tiny OpenAI-compatible chat endpoint on 127.0.0.1 for the UI tests: it answers every
request with one fixed text (streamed when asked to) and records what it received."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StandInLLM:
    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {"id": "chatcmpl-ui", "object": "chat.completion.chunk", "created": 0, "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(body)}\n\n".encode()


def _handler(stand_in: StandInLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output clean
            return

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            stand_in.requests.append(body)
            stand_in.headers.append({k.lower(): v for k, v in self.headers.items()})
            model = body.get("model", "stand-in")
            if body.get("stream"):
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                self.wfile.write(_chunk(model, {"role": "assistant", "content": ""}))
                words = stand_in.reply.split(" ")
                for i, word in enumerate(words):
                    self.wfile.write(_chunk(model, {"content": word + (" " if i < len(words) - 1 else "")}))
                self.wfile.write(_chunk(model, {}, "stop"))
                self.wfile.write(b"data: [DONE]\n\n")
                return
            data = json.dumps({"id": "chatcmpl-ui", "object": "chat.completion", "created": 0, "model": model,
                               "choices": [{"index": 0, "finish_reason": "stop",
                                            "message": {"role": "assistant", "content": stand_in.reply}}],
                               "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
