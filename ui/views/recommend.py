"""Recommend: which GPUs, how many, on which billing plan — the options table with the
offers behind them and the cost-vs-time front."""

from __future__ import annotations

from ui import state
from ui.components.decision_pages import tool_tab

tool_tab("recommend_hardware", state.ui_lang(), page=True)
