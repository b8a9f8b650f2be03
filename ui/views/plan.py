"""Plan: a project stage by stage (validation, pre-training, fine-tuning, serving), each
stage's cost and share of the total, with a chart."""

from __future__ import annotations

from ui import state
from ui.components.decision_pages import tool_tab

tool_tab("plan_project", state.ui_lang(), page=True)
