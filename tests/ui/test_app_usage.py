"""Usage page under AppTest: a telemetry log (the sample) and a fleet summary, each giving
figures, charts, idle resources and findings."""

from __future__ import annotations

from ui_helpers import open_page, texts


def test_sample_fleet_log_shows_utilization_waste_and_idle_cards(app):
    at = open_page(app, "usage")
    at.button(key="use_sample_btn").click().run()
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Average utilization"].endswith("%")
    assert metrics["Paid time without work"].startswith("$")
    assert metrics["Saving within reach"].startswith("$")
    shown = texts(at)
    assert "Utilization over time" in shown and "Longest idle stretches" in shown
    assert len(at.get("vega_lite_chart")) >= 2
    rules = {f["rule_id"] for f in at.session_state["use_result"].result["findings"]}
    assert any("forgotten" in r for r in rules)
    assert [r["kind"] for r in at.session_state["records"]] == ["analyze_usage"]


def test_fleet_summary_in_yuan(app):
    app.radio(key="set_lang__en").set_value("zh").run()
    at = open_page(app, "usage")
    at.number_input(key="use_gpus").set_value(64).run()
    at.slider(key="use_util").set_value(35).run()
    at.button(key="use_go_summary").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["无产出的计费时间"].startswith("¥")
    assert metrics["平均利用率"] == "35%"


def test_analyze_without_a_file_asks_for_one(app):
    at = open_page(app, "usage")
    at.button(key="use_go_files").click().run()
    assert not at.exception
    assert at.warning
