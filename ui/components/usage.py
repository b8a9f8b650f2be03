"""Usage charts: utilization over time, by GPU and by hour of day (the figures, tables and
findings come from the report's view)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.glossary import term
from advisor.present.fmt import pct
from advisor.present.registry import typed
from ui.components.view import chart


def _gpu_rows(gpus: list[dict[str, Any]], names: dict[str, str], low: float) -> list[dict[str, Any]]:
    rows = []
    for g in gpus:
        util = float(g.get("avg_utilization") or 0)
        state = "forgotten" if g.get("forgotten") else ("low" if util < low else "ok")
        rows.append({"gpu": f"{g.get('instance')} · {str(g.get('id'))[-4:]}", "util": util, "state": names[state]})
    return rows


def usage_charts(result: Any, lang: str) -> None:
    """The telemetry charts: utilization over time, by GPU and by hour of day."""
    report = typed("analyze_usage", result)
    tel = report.telemetry  # type: ignore[attr-defined]
    if tel is None:
        return
    data = tel.model_dump(mode="json")
    trend = [p for p in data["trend"] if p.get("avg_utilization") is not None]
    if trend:
        st.markdown(f"**{term('label.usage_trend', lang)}**")
        target = float(tel.target_utilization)
        chart("trend", trend, lang, target=target, target_label=term("label.usage_target", lang, p=pct(target)))
    names = {"forgotten": term("status.forgotten", lang), "low": term("label.usage_low", lang),
             "ok": term("label.usage_ok", lang)}
    # the low-use line the rules read (the usage defaults), drawn for reference
    low = float(next(a.value for a in report.assumptions if a.name == "utilization.low_use_line"))  # type: ignore[attr-defined]
    gpus = _gpu_rows(data["gpus"], names, low)
    left, right = st.columns(2)
    if gpus:
        with left:
            st.markdown(f"**{term('label.usage_by_gpu', lang)}**")
            chart("gpus", gpus, lang, states=list(names.values()), low=low)
    if data["by_hour"]:
        with right:
            st.markdown(f"**{term('label.usage_by_hour', lang)}**")
            chart("hours", data["by_hour"], lang)
