"""Billing: the same usage priced under every billing mode, sorted by cost, with the
break-even points; modes that do not suit the work are greyed out."""

from __future__ import annotations

from ui import state
from ui.components.decision_pages import tool_tab

tool_tab("compare_billing", state.ui_lang(), page=True)
