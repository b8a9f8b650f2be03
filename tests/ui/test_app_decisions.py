"""The decision pages under AppTest: serving, quote check and own vs rent show the engine's
figures in both languages, and bad input is a message, not a traceback."""

from __future__ import annotations

import re

from ui_helpers import open_page, texts

MONEY = re.compile(r"[$¥][\d,.]+")


def metric(at, *labels: str) -> str:
    return next(m.value for m in at.metric if m.label in labels)


def test_serving_page_prices_a_70b_model(app):
    at = open_page(app, "decide")
    assert "Serving cost" in [h.value for h in at.subheader]
    assert MONEY.fullmatch(metric(at, "Per month"))
    assert "×" in metric(at, "GPUs")
    at.number_input(key="serve_tokens").set_value(1000.0).run()
    assert not at.exception


def test_quote_page_gives_a_verdict(app):
    at = open_page(app, "decide")
    assert metric(at, "Verdict") in {"below the market", "at the market", "above the market"}
    assert MONEY.fullmatch(metric(at, "Per GPU-hour"))
    at.selectbox(key="quote_unit").set_value("node_month").run()
    at.number_input(key="quote_price").set_value(90000.0).run()
    assert not at.exception and MONEY.fullmatch(metric(at, "Per GPU-hour"))


def test_own_page_shows_break_even_and_the_hybrid_plan(app):
    at = open_page(app, "decide")
    assert metric(at, "Break-even utilisation")
    assert "Own the base, rent the peaks" in texts(at)
    assert MONEY.fullmatch(metric(at, "Own, per used GPU-hour"))


def test_page_in_chinese(app):
    from ui.state import K_LANG

    app.session_state[K_LANG] = "zh"
    at = open_page(app, "decide")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in at.title[0].value)
    assert {"每月费用", "结论", "盈亏平衡利用率"} <= {m.label for m in at.metric}


def test_serving_page_unknown_model_is_a_message(app):
    at = open_page(app, "decide")
    at.text_input(key="serve_model").set_value("no-such-model-9000").run()
    assert not at.exception
    assert at.error and "no-such-model-9000" in at.error[0].value


def test_estimate_page_sets_hidden_costs(app):
    at = open_page(app, "estimate")
    first = metric(at, "Expected total", "预计总费用")
    at.number_input(key="est_support_cost").set_value(500.0).run()
    assert not at.exception and metric(at, "Expected total", "预计总费用") != first
    at.selectbox(key="est_hosting__en").set_value("owned").run()
    assert not at.exception
