"""Shared parts of the decision pages (serving, quote check, own vs rent): run a tool with the
sidebar's settings, and show its summary, findings and assumptions."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui import services, state
from ui.components.common import assumptions_expander, error_box
from ui.components.findings import findings_section


def run(tool: str, args: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """The tool's report for ``args`` (sidebar currency and price sheet filled in); None after a
    clear error box on bad input."""
    s = state.settings()
    args = services.with_settings(tool, args, s)
    args.setdefault("currency", s.currency or ("CNY" if lang == "zh" else "USD"))
    args["lang"] = lang
    outcome = services.cached_tool(tool, lang, services.args_key(args))  # type: ignore[arg-type]
    if not outcome.ok:
        error_box(outcome.error or "")
        return None
    return outcome.result or {}


def summary(report: dict[str, Any], lang: str) -> None:
    text = (report.get("summary") or {}).get(lang) or (report.get("summary") or {}).get("en")
    if text:
        st.markdown(f"**{text}**")


def footer(report: dict[str, Any], lang: str, key: str) -> None:
    findings_section(report.get("findings") or [], lang, key)
    assumptions_expander(report.get("assumptions") or [], lang)
