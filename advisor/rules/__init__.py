"""Rules layer: rule packs as data, evaluated by durable-rules, returning Findings.

This package is the only importer of durable-rules, and imports it lazily: listing or
checking packs (``advisor rules``) and importing :class:`Finding` never load the engine.

::

    evaluate("sizing", facts, lang="zh") -> list[Finding]
    evaluate_packs(["sizing", "billing"], facts) -> list[Finding]
    load_packs() -> dict[str, Pack]         # raises RuleError on the first broken pack
    check_packs() -> list[str]              # every problem, one line each
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from advisor.findings import Assumption, Finding, FindingText, sort_findings
from advisor.rules.cases import check_packs
from advisor.rules.loader import Pack, Rule, get_pack, load_packs, packs_for_domain

__all__ = [
    "Assumption",
    "Finding",
    "FindingText",
    "Pack",
    "Rule",
    "check_packs",
    "evaluate",
    "evaluate_packs",
    "get_pack",
    "load_packs",
    "packs_for_domain",
    "sort_findings",
]


def evaluate(pack: str, facts: dict[str, Any], *, lang: str = "en") -> list[Finding]:
    """Findings of one pack for ``facts`` (a flat dict; unknown keys are ignored, missing
    facts match nothing), most severe first. Texts in ``lang``; both languages in ``text``."""
    # lazy: loads durable only when this runs (cold start)
    from advisor.rules.host import evaluate as run

    return run(pack, facts, lang=lang)


def evaluate_packs(packs: Iterable[str], facts: dict[str, Any], *, lang: str = "en") -> list[Finding]:
    """Findings of several packs for the same facts, most severe first."""
    # lazy: loads durable only when this runs (cold start)
    from advisor.rules.host import evaluate_packs as run

    return run(packs, facts, lang=lang)
