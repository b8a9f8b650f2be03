"""The assistant: one question in, one answer out — from an LLM agent when one is configured,
otherwise from the built-in offline assistant (Chinese and English, no model needed).

::

    from advisor.assistant import ask
    r = ask("用8张A100全参微调Llama-3-8B，1亿token，要多少钱")
    r.answer, r.tool_calls, r.findings, r.citations
    r2 = ask("换成H100呢？", history=r.history)      # a follow-up keeps the rest of the request

Importing this package is cheap: the parser, the tools and LangChain load on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from advisor.assistant.config import load_config
from advisor.assistant.result import AskResult, Citation, ToolCall
from advisor.safe_read import path_policy

__all__ = ["AskResult", "Citation", "ToolCall", "ask"]


def ask(
    question: str,
    history: list[dict[str, Any]] | None = None,
    offline: bool | None = None,
    *,
    config: Any = None,
    model: Any = None,
    on_token: Callable[[str], None] | None = None,
    lang: str | None = None,
    tool_defaults: dict[str, Any] | None = None,
    read_paths: bool = True,
    allowed_paths: list[str] | tuple[str, ...] = (),
) -> AskResult:
    """Answer one question.

    ``history``: the ``history`` of a previous result, to continue the conversation.
    ``offline``: True forces the offline assistant; None uses the LLM when one is configured
    (or ``model`` is given); False asks for the LLM and says so in ``notice`` when there is none.
    ``config``: an :class:`~advisor.assistant.config.LLMConfig` (or a mapping of its fields)
    instead of the environment. ``model``: a LangChain chat model to use instead of building
    one (tests inject fakes here). ``on_token``: called with each streamed piece of the LLM's
    reply. ``lang``: answer in ``"zh"`` or ``"en"`` whatever the question's language.
    ``tool_defaults``: arguments from the user's settings (``currency``, ``budget``,
    ``approval_threshold``, ``prices_file``) for every tool that takes them, where the
    question does not say otherwise.
    ``read_paths``: False (the web UI) reads no file named in the question (``--prices``,
    contract or usage paths): only ``allowed_paths`` (the user's uploads) may be read; any
    other path is answered with a one-line "upload the file instead".
    An LLM endpoint that fails is answered offline with a ``notice``.
    """
    # lazy: loads langchain_core only when this runs (cold start)
    from advisor.assistant.session import ask_turn

    if isinstance(config, dict):
        config = load_config(env={}, dotenv_path=None, **config)
    with nullcontext() if read_paths else path_policy(allowed=allowed_paths):
        return ask_turn(question, history, offline, config=config, model=model, on_token=on_token, lang=lang,
                        tool_defaults=tool_defaults)
