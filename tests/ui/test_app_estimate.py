"""Estimate page under AppTest: the default estimate, what-if controls that re-price at once,
a baseline, a bad GPU name, and adding the result to the report."""

from __future__ import annotations

import re

from ui_helpers import open_page, texts

MONEY = re.compile(r"[$¥][\d,.]+")


def total(at) -> str:
    return next(m.value for m in at.metric if m.label in ("Expected total", "预计总费用"))


def test_default_estimate_shows_the_cost_card(app):
    at = open_page(app, "estimate")
    assert at.title[0].value == "Estimate a training run"
    assert MONEY.fullmatch(total(at))
    shown = texts(at)
    assert "Where the money goes" in shown and "The same job under each billing mode" in shown
    assert "Memory per GPU" in shown
    assert len(at.dataframe) >= 1


def test_what_if_gpu_count_and_mfu_reprice_the_run(app):
    at = open_page(app, "estimate")
    first = total(at)
    at.number_input(key="est_count").set_value(4).run()
    assert not at.exception
    assert "4× A100-80GB" in texts(at)
    at.slider(key="est_mfu").set_value(0.2).run()
    assert total(at) != first
    at.selectbox(key="est_gpu").set_value("H100-SXM").run()
    assert "H100-SXM" in texts(at)


def test_price_and_billing_mode_change_the_total(app):
    at = open_page(app, "estimate")
    at.number_input(key="est_price").set_value(1.0).run()
    cheap = total(at)
    at.number_input(key="est_price").set_value(3.0).run()
    assert total(at) != cheap
    at.selectbox(key="est_billing__en").set_value("spot").run()
    assert not at.exception


def test_unknown_model_is_a_clear_error_not_a_traceback(app):
    # (AppTest cannot type a new option into the GPU list; an unknown name fails the same way)
    at = open_page(app, "estimate")
    at.text_input(key="est_model").set_value("llama-99z").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert errors and "llama-99z" in errors[0] and "Traceback" not in errors[0]


def test_no_model_and_no_size_asks_for_one(app):
    at = open_page(app, "estimate")
    at.text_input(key="est_model").set_value("").run()
    assert any("model" in i.value for i in at.info)


def test_baseline_shows_the_change(app):
    at = open_page(app, "estimate")
    at.button(key="est_pin").click().run()
    at.number_input(key="est_count").set_value(8).run()
    assert any("vs baseline" in c.value for c in at.caption)


def test_add_to_report(app):
    at = open_page(app, "estimate")
    at.button(key="est_add").click().run()
    assert [r["kind"] for r in at.session_state["records"]] == ["estimate_training_cost"]


def test_chinese_page_and_currency_from_the_sidebar(app):
    app.radio(key="set_lang__en").set_value("zh").run()
    at = open_page(app, "estimate")
    assert at.title[0].value == "估算一次训练"
    assert total(at).startswith("¥")  # Chinese page without a currency setting: CNY
    at.selectbox(key="set_currency__zh").set_value("USD").run()
    assert total(at).startswith("$")


def test_price_sheet_from_the_sidebar_wins_over_list_prices(app):
    from ui_helpers import FIXTURES

    at = open_page(app, "estimate")
    list_price = total(at)
    at.session_state["prices_file"] = str(FIXTURES / "prices_negotiated.csv")  # what the sidebar upload stores
    at.session_state["prices_name"] = "prices_negotiated.csv"
    at.run()
    assert total(at) != list_price
    assert any("prices_negotiated.csv" in c.value for c in at.caption)


def test_budget_from_the_sidebar_reaches_the_rules(app):
    at = open_page(app, "estimate")
    at.number_input(key="set_budget").set_value(1.0).run()
    assert not at.exception
    titles = [m.value for m in at.markdown if "-badge[" in m.value]
    assert any("Over budget" in title for title in titles), "a budget far below the cost raises a budget finding"
