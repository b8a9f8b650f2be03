"""The shape of a rule pack file, checked with pydantic before the rules are compiled.

Structure only: field names, types, required keys, enumerations. The meaning of each field
(known facts, placeholders, operators, savings) is checked by :mod:`advisor.rules.loader`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.datafile import read_mapping

_DATA = read_mapping(Path(__file__).with_name("schema.yaml"))
REQUIREMENT_IDS: frozenset[str] = frozenset(f"{letter}{i or ''}" for letter, most in _DATA["requirements"].items()
                                            for i in (range(1, most + 1) if most else [0]))
TOOL_REQUIREMENTS: dict[str, tuple[str, ...]] = {tool: tuple(ids) for tool, ids in _DATA["tool_requirements"].items()}
CONTRACT_CATEGORIES: tuple[str, ...] = tuple(_DATA["contract_categories"])
CONTRACT_EXTRA_CATEGORIES: tuple[str, ...] = tuple(_DATA["contract_extra_categories"])
SNAKE = r"^[a-z][a-z0-9_]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TextSpec(_Strict):
    title: str = Field(min_length=1)
    detail: str = Field(min_length=1)
    recommendation: str = Field(min_length=1)


class TextPair(_Strict):
    en: TextSpec
    zh: TextSpec


class Description(_Strict):
    en: str = Field(min_length=1)
    zh: str = Field(min_length=1)


class RuleSpec(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*\.[a-z0-9_]+$")
    category: str = Field(pattern=SNAKE)
    severity: Literal["info", "warning", "critical"]
    requirement: list[str] = Field(min_length=1)
    source: str = Field(min_length=1)
    when: dict[str, Any]
    savings: str | None = None
    evidence: list[str] = Field(default_factory=list)
    text: TextPair


class PackSpec(_Strict):
    pack: str = Field(pattern=SNAKE)
    domain: str = Field(pattern=SNAKE)
    description: Description
    rules: list[dict[str, Any]] = Field(min_length=1)


def first_error(exc: ValidationError) -> tuple[str, str]:
    """``(field path, message)`` of a pydantic error, e.g. ``("text.zh", "Field required")``."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown field"
    elif err["type"] == "missing":
        msg = "field required"
    return loc or "(file)", msg
