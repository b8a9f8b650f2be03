"""The LLM agent: LangChain ``create_agent`` over any OpenAI-compatible chat model, with the
seven tools, token streaming, and endpoint failures turned into :class:`EndpointFailure`.

The chat model is injected (tests pass a fake one); :func:`build_chat_model` builds a
``ChatOpenAI`` from :class:`~advisor.assistant.config.LLMConfig` with its timeout and retries.
LangChain is imported inside the functions: ``import advisor.assistant`` stays cheap.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.assistant.config import LLMConfig, scrub
from advisor.assistant.prompts import system_prompt
from advisor.assistant.result import ToolCall
from advisor.errors import ServiceError

__all__ = ["EndpointFailure", "LLMTurn", "build_chat_model", "run_agent"]

log = logging.getLogger("advisor.assistant")

NOTICES: dict[str, dict[str, str]] = {
    "unreachable": {"en": "LLM endpoint unreachable; answered offline.", "zh": "无法连接 LLM 服务，本次由离线助手回答。"},
    "timeout": {"en": "LLM endpoint timed out; answered offline.", "zh": "LLM 服务响应超时，本次由离线助手回答。"},
    "auth": {"en": "LLM endpoint refused the API key; answered offline.", "zh": "LLM 服务拒绝了 API 密钥，本次由离线助手回答。"},
    "failed": {"en": "LLM endpoint failed ({detail}); answered offline.", "zh": "LLM 服务出错（{detail}），本次由离线助手回答。"},
    "unfinished": {"en": "The model did not finish the turn; answered offline.", "zh": "模型未能完成本轮回答，本次由离线助手回答。"},
    "not_configured": {"en": "No LLM is configured; answered offline.", "zh": "未配置 LLM，本次由离线助手回答。"},
    "no_key": {"en": "No API key is set for the LLM endpoint; answered offline.",
               "zh": "未设置 LLM 服务的 API 密钥，本次由离线助手回答。"},
}


class EndpointFailure(Exception):
    """The model could not answer: ``kind`` is a key of :data:`NOTICES`; ``detail`` is safe to show."""

    def __init__(self, kind: str, detail: str = "") -> None:
        self.kind, self.detail = kind, scrub(detail)
        super().__init__(f"{kind}: {self.detail}" if self.detail else kind)

    def notice(self, lang: str) -> str:
        return NOTICES[self.kind][lang].format(detail=self.detail or self.kind)


@dataclass
class LLMTurn:
    """What the agent did: its final text, the tool calls with their reports, the guard's notes."""

    answer: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    arg_notes: list[str] = field(default_factory=list)


def build_chat_model(cfg: LLMConfig) -> Any:
    """A ``ChatOpenAI`` for the configured endpoint (timeout and retries from the config);
    :class:`EndpointFailure` when it cannot be built (no model, no key)."""
    if not cfg.enabled:
        raise EndpointFailure("not_configured")
    if cfg.api_key is None:
        raise EndpointFailure("no_key")
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=cfg.model or "",
        base_url=cfg.base_url,
        api_key=cfg.api_key,
        timeout=cfg.timeout_s,
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
    from langgraph.errors import GraphRecursionError

    if isinstance(exc, GraphRecursionError):
        return EndpointFailure("unfinished")
    return None


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content
                       if not isinstance(b, dict) or b.get("type") in (None, "text"))
    return ""


def run_agent(
    question: str,
    history_messages: list[Any],
    *,
    model: Any,
    lang: str,
    guard: Callable[[str, dict[str, Any]], tuple[dict[str, Any], list[str]]] | None = None,
    on_token: Callable[[str], None] | None = None,
    max_steps: int = 8,
    defaults: dict[str, Any] | None = None,
) -> LLMTurn:
    """Run one turn of the agent; raises :class:`EndpointFailure` when the model cannot answer."""
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage

    from advisor.tools.langchain import make_tools

    tools = make_tools(lang=lang, guard=guard, defaults=defaults)
    agent = create_agent(model, tools, system_prompt=system_prompt(lang))
    messages = [*history_messages, HumanMessage(question)]
    state: Any = None
    data: Any
    try:
        for mode, data in agent.stream({"messages": messages}, stream_mode=["messages", "values"],
                                       config={"recursion_limit": 2 * max_steps + 1}):
            if mode == "values":
                state = data
            elif on_token is not None:
                chunk, meta = data
                if isinstance(chunk, AIMessageChunk) and meta.get("langgraph_node") == "model":
                    text = _text(chunk.content)
                    if text:
                        on_token(text)
    except Exception as exc:  # sorted below: endpoint failures fall back, our own bugs do not
        failure = classify(exc)
        if failure is None:
            raise
        log.warning("LLM turn failed: %s", scrub(f"{type(exc).__name__}: {exc}"))
        raise failure from None
    new = (state or {}).get("messages", [])[len(messages):]
    return _collect(new, AIMessage, ToolMessage)


def _collect(new: list[Any], ai_type: Any, tool_type: Any) -> LLMTurn:
    msg: Any
    requested: dict[str, dict[str, Any]] = {}
    calls: list[ToolCall] = []
    notes: list[str] = []
    answer = ""
    for msg in new:
        if isinstance(msg, ai_type):
            for tc in getattr(msg, "tool_calls", []) or []:
                requested[tc.get("id") or ""] = tc
            if not getattr(msg, "tool_calls", None):
                answer = _text(msg.content)
        elif isinstance(msg, tool_type):
            art = getattr(msg, "artifact", None)
            asked = requested.get(msg.tool_call_id or "", {})
            name = msg.name or asked.get("name", "")
            if getattr(msg, "status", "success") == "error" or not isinstance(art, dict):
                calls.append(ToolCall(name=name, args=asked.get("args", {}), error=_text(msg.content)[:500]))
            else:
                calls.append(ToolCall(name=name, args=art.get("args", {}), result=art.get("result")))
                notes.extend(art.get("grounding", []))
    return LLMTurn(answer=answer.strip(), tool_calls=calls, arg_notes=notes)
