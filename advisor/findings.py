"""The Finding every rule pack produces, and the Assumption every report lists (a base module:
every layer's reports carry them; the rules layer re-exports them).

A finding answers "why did you flag this?": the rule that fired, the pack it belongs to,
the facts (or the quoted clause) that triggered it, and the requirement it serves.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.money import Money

Severity = Literal["info", "warning", "critical"]
Language = Literal["zh", "en"]
SEVERITY_ORDER: dict[str, int] = {"critical": 0, "warning": 1, "info": 2}


class FindingText(BaseModel):
    model_config = ConfigDict(frozen=True)

    title: str
    detail: str
    recommendation: str


class Finding(BaseModel):
    """One piece of advice. ``title``/``detail``/``recommendation`` are in ``lang``;
    ``text`` holds both languages."""

    rule_id: str
    pack: str
    category: str
    severity: Severity
    title: str
    detail: str
    recommendation: str
    lang: Language = "en"
    text: dict[Language, FindingText]
    evidence: dict[str, Any] = Field(default_factory=dict)
    savings: Money | None = None
    requirement: list[str] = Field(default_factory=list)
    source: str | None = None

    def in_language(self, lang: Language) -> Finding:
        """The same finding with its main text fields in ``lang``."""
        t = self.text[lang]
        return self.model_copy(
            update={"lang": lang, "title": t.title, "detail": t.detail, "recommendation": t.recommendation}
        )


class Assumption(BaseModel):
    """A default or input the result depends on, with where it comes from.

    ``source`` is the maintainers' provenance in English. ``source_key`` names the glossary entry
    a user reads instead (both languages; ``source_values`` fill its placeholders): data entries
    get ``source.<their key>``, computed values a template of their own."""

    name: str
    value: Any
    source: str
    unit: str | None = None
    source_key: str | None = None
    source_values: dict[str, Any] = Field(default_factory=dict)


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Most severe first, then by pack and rule id, so reports are stable."""
    return sorted(findings, key=lambda f: (SEVERITY_ORDER[f.severity], f.pack, f.rule_id))
