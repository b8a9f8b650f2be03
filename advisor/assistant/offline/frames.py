"""Typed request frames: what the offline reader understood, as the tools' own request fields,
each value with where it came from. The LLM path (advisor.assistant.grounding) checks a model's
tool arguments against these frames.

::

    from advisor.assistant.offline.frames import read
    u = read("用8张A100全参微调Llama-3-8B，1亿token，要多少钱")
    u.frames[0].tool                      # "estimate_training_cost"
    u.frames[0].args["gpu_count"]         # Value(value=8, source="question", span=(1, 3), text="8张")
    u.frames[0].values()                  # {"gpu": "A100-80GB", "gpu_count": 8, ...}
    u2 = read("卡数翻倍呢？", history=r.history)  # a follow-up: unchanged values have source "conversation"

The API is stable: ``read(question, history=None, lang=None) -> Understanding``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from advisor.assistant.offline.parse import Parsed, parse_question
from advisor.assistant.offline.understood import understood

Source = Literal["question", "conversation", "default"]

_SLOT_OF_ARG = {
    "gpu": "gpu_mention", "tokens_b": "tokens", "dataset_tokens_b": "tokens", "params_b": "params_b",
    "deadline_hours": "deadline_hours", "wall_hours": "wall_hours", "period_hours": "period_hours",
}  # fmt: skip
_FALLBACK_SLOTS = {"deadline_hours": "duration_hours", "wall_hours": "duration_hours", "period_hours": "duration_hours",
                   "tokens_b": "model", "params_b": "model", "billing": "billing_mode", "gpu_count": "gpu_mention"}


class Value(BaseModel):
    """One request field's value and its provenance."""

    value: Any
    source: Source
    span: tuple[int, int] | None = Field(None, description="offsets into the question (source=question)")
    text: str | None = Field(None, description="the words it was read from")
    note: str | None = Field(None, description="for a default: where the default comes from")


class Frame(BaseModel):
    """One tool request: the tool's field names, each with a :class:`Value`."""

    tool: str
    args: dict[str, Value] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list, description="decisive inputs neither given nor defaultable")
    confidence: float = Field(1.0, ge=0, le=1)
    priced: bool = Field(True, description="False when no installed tool can price this part")

    def values(self) -> dict[str, Any]:
        """The plain tool arguments."""
        return {k: v.value for k, v in self.args.items()}


class Understanding(BaseModel):
    """Everything read from one question (and the conversation before it)."""

    question: str
    language: Literal["zh", "en"]
    intent: str
    frames: list[Frame] = Field(default_factory=list)
    clarify: str | None = None
    out_of_scope: str | None = None
    understood: str = ""
    changed: list[str] = Field(default_factory=list)
    is_followup: bool = False
    parsed: Parsed | None = Field(None, exclude=True)


def _span_for(parsed: Parsed, arg: str, value: Any) -> tuple[int, int, str] | None:
    slots = [_SLOT_OF_ARG.get(arg, arg), _FALLBACK_SLOTS.get(arg, "")]
    for slot in slots:
        for s in parsed.spans:
            if s.slot == slot and (slot != "gpu_mention" or s.value == value or arg == "gpu_count"):
                return s.start, s.end, s.text
    return None


def frames_of(parsed: Parsed) -> list[Frame]:
    """The frames of a parsed question (one per tool asked for; none for greetings)."""
    tool = parsed.pending or parsed.intent
    if tool in ("greeting", "help", "onboarding", "clarify"):
        return []
    notes = {n["name"]: n for n in parsed.assumptions}
    args: dict[str, Value] = {}
    for name, value in parsed.args.items():
        found = _span_for(parsed, name, value)
        from_conversation = parsed.is_followup and name not in parsed.changed and found is None
        if found and not from_conversation:
            start, end, text = found
            args[name] = Value(value=value, source="question", span=(start, end), text=text)
        elif from_conversation:
            args[name] = Value(value=value, source="conversation")
        elif name in notes or name in ("lang", "query"):
            note = notes.get(name, {}).get("source")
            args[name] = Value(value=value, source="default" if note else "question", note=note)
        else:
            args[name] = Value(value=value, source="question")
    confidence = 1.0 if not parsed.missing else 0.5
    return [Frame(tool=tool, args=args, missing=list(parsed.missing), confidence=confidence)]


def read(question: str, history: list[dict[str, Any]] | None = None, lang: str | None = None) -> Understanding:
    """Read one question (with ``history`` from a previous AskResult) into frames."""
    # lazy: loads langchain_core only when this runs (cold start)
    from advisor.assistant import history as hist

    previous = hist.previous_parsed(hist.check(history))
    parsed = parse_question(question, previous)
    language = lang or parsed.language
    frames = frames_of(parsed)
    tool = parsed.pending or parsed.intent
    line = understood(tool, parsed.args, None, language) if frames else ""
    clarify = (parsed.clarify_text or {}).get(language) if parsed.intent == "clarify" else None
    return Understanding(
        question=question, language=language, intent=parsed.intent, frames=frames,  # type: ignore[arg-type]
        clarify=clarify, understood=line, changed=list(parsed.changed), is_followup=parsed.is_followup, parsed=parsed,
    )
