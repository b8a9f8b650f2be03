"""The offline assistant's language understanding: Chinese and English questions to tool
calls, deterministically (no model needed). See :func:`parse_question`."""

from advisor.assistant.offline.parse import Parsed, parse_question
from advisor.assistant.offline.text import Span

__all__ = ["Parsed", "Span", "parse_question"]
