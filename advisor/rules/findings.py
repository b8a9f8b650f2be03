"""Findings as the rules layer produces them (the models live in :mod:`advisor.findings`, a
base module, because every report carries them)."""

from advisor.findings import (
    SEVERITY_ORDER,
    Assumption,
    Finding,
    FindingText,
    Language,
    Severity,
    sort_findings,
)

__all__ = ["SEVERITY_ORDER", "Assumption", "Finding", "FindingText", "Language", "Severity", "sort_findings"]
