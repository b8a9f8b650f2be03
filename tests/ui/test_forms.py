"""ui/forms.yaml against the tools' request models: every field a form fills is a field of its
tool's request, and a choice without options of its own offers the request field's Literal
values, its default first. The Usage page's fleet summary is such a form (zh and en)."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel
from ui_helpers import open_page

from advisor.glossary import has, term
from advisor.tools.langchain import request_model
from ui import services
from ui.components.decision_pages import forms


@pytest.mark.parametrize("name", sorted(forms()))
def test_every_form_field_is_a_request_field_of_its_tool(name) -> None:
    form = forms()[name]
    fields = request_model(form.get("tool", name)).model_fields
    args = [f["arg"] for f in form["fields"] if not f.get("control")]
    assert [a for a in args if a not in fields] == []


@pytest.mark.parametrize("name", sorted(forms()))
def test_every_label_is_in_the_glossary(name) -> None:
    form = forms()[name]
    for f in form["fields"]:
        label = f.get("label", f["key"])
        own = label if "." in label else f"{form['words']}.{label}"
        assert has(own) or ("label" not in f and has(f"field.{f['arg']}")), (name, f["arg"])


class _Request(BaseModel):
    mode: Literal["a", "b", "c"] = "b"
    unit: Literal["x", "y"] | None = None


def test_field_choices_read_the_literal_and_its_default(monkeypatch) -> None:
    monkeypatch.setattr("advisor.tools.langchain.request_model", lambda name: _Request)
    assert services.field_choices("any", "mode") == (["a", "b", "c"], "b")
    assert services.field_choices("any", "unit") == (["x", "y"], None)


def test_usage_billing_modes_are_the_request_models() -> None:
    choices, default = services.field_choices("analyze_usage", "billing_mode")
    assert choices == ["on_demand", "committed", "spot"] and default == "on_demand"


@pytest.mark.parametrize(("lang", "currency", "price"), [("en", "USD", 2.0), ("zh", "CNY", 10.0)])
def test_fleet_summary_form_sends_the_request_fields(app, lang, currency, price) -> None:
    if lang == "zh":
        app.radio(key="set_lang__en").set_value("zh").run()
    at = open_page(app, "usage")
    labels = {w.key: w.label for w in [*at.number_input, *at.slider]}
    assert labels["use_gpus"] == term("field.gpu_count", lang)
    assert labels[f"use_price_{currency}"] == f"{term('use.price', lang)} ({currency})"
    modes = at.get("button_group")
    assert modes, "the billing mode is a segmented control"
    at.slider(key="use_util").set_value(20).run()
    at.button(key="use_go_summary").click().run()
    assert not at.exception
    inputs = at.session_state["use_result"].result["inputs"]
    assert inputs["avg_utilization"] == 0.2 and inputs["gpu_count"] == 64
    assert inputs["price_per_gpu_hour"] == price and inputs["currency"] == currency
    assert inputs["period_hours"] == 730.0 and inputs["billing_mode"] == "on_demand"
