"""What one assistant turn returns: the ``advisor ask --json`` object (DESIGN.md).

Both assistants (LLM and offline) fill the same model, so faces render one shape.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from advisor.findings import Finding

Lang = Literal["zh", "en"]
Mode = Literal["llm", "llm+repaired", "offline_fallback", "offline"]
"""``llm``: the model's answer, its tool calls unchanged. ``llm+repaired``: the model's answer,
with tool arguments repaired from the question (``repairs``). ``offline_fallback``: the LLM
was asked but the offline path produced the answer (``notice`` says why). ``offline``: no
LLM was asked for."""


class ToolCall(BaseModel):
    """One tool call of the turn: arguments as validated by the tool's schema, and its report."""

    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    result: dict[str, Any] | None = Field(default=None, description="report.model_dump(mode='json'); None when the call failed.")
    error: str | None = Field(default=None, description="One-line error when the tool refused the arguments.")
    problem: dict[str, Any] | None = Field(default=None, description="The refusal's structured fields (AdvisorError.parts()), "
                                                                       "worded in the user's language by advisor.present.errors.say.")


class Citation(BaseModel):
    """A guide section the answer draws on."""

    title: str
    path: str

    @classmethod
    def of_hits(cls, hits: list[dict[str, Any]]) -> list[Citation]:
        """The guide sections a ``search_knowledge`` report found (its ``hits``), in order."""
        return [cls(title=f"{h['title']} › {h['section']}", path=f"{h['path']}#{h['anchor']}" if h.get("anchor") else h["path"])
                for h in hits]


class AskResult(BaseModel):
    """One assistant turn. ``history`` passed back as ``history=`` continues the conversation."""

    answer: str
    mode: Mode
    tool_calls: list[ToolCall] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    history: list[dict[str, Any]] = Field(default_factory=list)
    notice: str | None = Field(default=None, description="Shown with the answer, e.g. the LLM endpoint was unreachable.")
    grounded: bool = Field(default=True, description="False when a figure or a tool argument could not be traced and was replaced.")
    grounding: list[str] = Field(default_factory=list, description="What the grounding check replaced, one line each.")
    repairs: list[str] = Field(default_factory=list, description="LLM path: each change made to the model's tool calls "
                                                                  "from the question's reading, one line each.")
    lang: Lang = "en"
    intent: str | None = Field(default=None, description="The job the turn did: a tool name, onboarding, clarify, greeting or help.")
