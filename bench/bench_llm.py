"""LLM path figures: the prompt one request sends (system prompt plus tool schemas), compact
against the full request schemas the agent sent before, in characters and estimated tokens;
and how far a whole turn overruns its deadline against slow scripted servers on 127.0.0.1
(a server that sleeps before answering, one that trickles its stream, one that never ends).

Tokens are estimated (words, numbers, CJK characters and punctuation each count one): no
tokenizer vocabulary can be downloaded here. The ratio compact/full is what the target reads.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_PIECE = re.compile(r"[\u4e00-\u9fff]|[A-Za-z]+|\d+|[^\sA-Za-z\d\u4e00-\u9fff]")
Q = "LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s, how much?"


def tokens(text: str) -> int:
    return len(_PIECE.findall(text))


def _full_tools() -> list[dict[str, Any]]:
    """Every tool with its whole request model as the schema (the agent's former request)."""
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import ConfigDict, create_model

    from advisor.tools import TOOL_NAMES
    from advisor.tools.langchain import HIDDEN_FIELDS, request_model, tool_description

    out = []
    for name in TOOL_NAMES:
        req = request_model(name)
        fields: dict[str, Any] = {k: (f.annotation, f) for k, f in req.model_fields.items() if k not in HIDDEN_FIELDS}
        model = create_model(f"{req.__name__}Full", __config__=ConfigDict(extra="forbid"), __doc__=req.__doc__, **fields)
        tool = convert_to_openai_tool(model)
        tool["function"]["name"], tool["function"]["description"] = name, tool_description(name)
        out.append(tool)
    return out


def prompt_sizes() -> dict[str, Any]:
    from advisor.assistant.prompts import system_prompt
    from advisor.tools.langchain import openai_tools

    system = system_prompt("en")

    def size(tools: list[dict[str, Any]]) -> tuple[int, int]:
        body = json.dumps(tools, ensure_ascii=False, separators=(",", ":"))
        return len(system) + len(body), tokens(system) + tokens(body)

    full_c, full_t = size(_full_tools())
    compact_c, compact_t = size(openai_tools())
    strict_c, strict_t = size(openai_tools(strict=True))
    return {
        "tools": len(openai_tools()),
        "prompt chars, full schemas (before)": full_c,
        "prompt tokens est., full schemas (before)": full_t,
        "prompt chars, compact": compact_c,
        "prompt tokens est., compact": compact_t,
        "prompt tokens est., compact strict": strict_t,
        "compact / full (tokens)": round(compact_t / full_t, 3),
        "strict / full (tokens)": round(strict_t / full_t, 3),
        "prompt chars, compact strict": strict_c,
    }


def deadline_overruns(seconds: float = 2.0) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "tests" / "assistant"))
    from fakes import StandIn

    from advisor.assistant import ask
    from advisor.assistant.config import load_config

    cases = {
        "sleeps 10 s, then answers": lambda body: {"sleep": 10, "content": "late"},
        "trickles its stream (50 ms a word)": lambda body: {"content": "word " * 2000, "chunk_sleep": 0.05},
        "sleeps 10 s, not streamed": lambda body: {"sleep": 10, "content": "late"},
    }
    out: dict[str, Any] = {}
    worst = 0.0
    for label, script in cases.items():
        server = StandIn(script)
        try:
            cfg = load_config(env={}, dotenv_path=None, base_url=server.url, model="stand-in", api_key="sk-bench-0000",
                              timeout_s=30, max_retries=2, turn_timeout_s=seconds, stream="not streamed" not in label)
            started = time.perf_counter()
            r = ask(Q, config=cfg)
            wall = time.perf_counter() - started
        finally:
            server.close()
        over = wall - seconds
        worst = max(worst, over)
        out[f"overrun s, {label}"] = round(over, 3)
        out[f"mode, {label}"] = f"{r.mode} / notice: {bool(r.notice)}"
    out[f"worst overrun of a {seconds:g} s deadline (target <= 2 s)"] = round(worst, 3)
    return out


def run() -> dict[str, Any]:
    from advisor.assistant import ask

    ask(Q, offline=True)  # warm the catalog and the parser: the deadline covers the model, not the import
    return {**prompt_sizes(), **deadline_overruns()}


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:60s} {value}")
