"""Budgets page under AppTest, on a ledger of the test's own (ADVISOR_DATABASE_URL, see conftest):
budget versus actual with its findings, setting a budget, saving an estimate of the session
(over the threshold it raises an approval) and deciding it with a note and its trail."""

from __future__ import annotations

import os
from pathlib import Path

from ui_helpers import ROOT, open_page, texts

from advisor import tools
from advisor.ledger import import_focus, open_ledger, set_budget, status

SAMPLE = ROOT / "tests" / "fixtures" / "usage" / "focus_1.0_sample.csv"


def _button(at, label: str):
    return next(b for b in at.button if b.label == label)


def _seed() -> None:
    with open_ledger() as led:
        import_focus(led, SAMPLE)
        set_budget(led, "PeoriaData/BrightPathMatrix", "20", "2024-09", "USD")


def test_the_ledger_is_the_tests_own() -> None:
    assert Path(os.environ["ADVISOR_DATABASE_URL"].removeprefix("sqlite:///")).parent.exists()


def test_budget_versus_actual_with_its_findings(app) -> None:
    _seed()
    at = open_page(app, "budgets")
    at.date_input(key="bud_as_of").set_value("2024-09-10").run()
    assert not at.exception, at.exception
    shown = texts(at)
    # 16 USD of 20 spent on day 9 of 30: the early warning (80 % spent, 70 % of the month left)
    assert "PeoriaData/BrightPathMatrix: 80% of the budget spent with 70% of the period left" in shown
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Actual"] == "$16.00" and metrics["Burn rate per day"] == "$1.78"
    frames = [df.value for df in at.dataframe]
    assert any("Forecast at period end" in df.columns for df in frames)


def test_set_a_budget_then_see_it(app) -> None:
    at = open_page(app, "budgets")
    at.text_input(key="bud_owner").set_value("ml/pretrain")
    at.text_input(key="bud_period").set_value("2026-12")
    at.number_input(key="bud_amount").set_value(12000.0)
    _button(at, "Set budget").click().run()
    assert not at.exception, at.exception
    assert any("Budget set: ml/pretrain, 2026-12, 12000" in s.value for s in at.success)
    with open_ledger() as led:
        [line] = status(led).budgets
    assert (line.team, line.project, line.period, line.budget) == ("ml", "pretrain", "2026-12", "12000.00")


def test_a_bad_budget_is_a_message_not_a_crash(app) -> None:
    at = open_page(app, "budgets")
    at.text_input(key="bud_owner").set_value("no-slash")
    _button(at, "Set budget").click().run()
    assert not at.exception and at.error


def test_an_estimate_over_the_threshold_is_approved_with_a_note(app) -> None:
    report = tools.estimate_training_cost(model="llama-3.1-70b", method="pretrain", tokens_b=2000, currency="USD")
    assert report.cost.total > 10000  # above the ledger's approval threshold (knowledge/catalog/ledger.yaml)
    app.session_state["records"] = [{"id": "e1", "kind": "estimate_training_cost", "title": "70B pre-train", "lang": "en",
                                     "when": "2026-12-01 10:00", "question": None, "answer": None,
                                     "result": report.model_dump(mode="json")}]
    at = app
    at = open_page(at, "budgets")
    at.text_input(key="bud_plan_owner").set_value("ml/pretrain")
    _button(at, "Save as planned spend").click().run()
    assert not at.exception, at.exception
    assert any("approval request" in w.value for w in at.warning)
    at.text_input(key="bud_approver").set_value("Li Wei")
    at.text_area(key="bud_note").set_value("fits the Q4 plan")
    _button(at, "Approve").click().run()
    assert not at.exception, at.exception
    with open_ledger() as led:
        [approval] = status(led).approvals
    assert (approval.status, approval.approver, approval.note) == ("approved", "Li Wei", "fits the Q4 plan")
    assert [e.status for e in approval.trail] == ["pending", "approved"]
    assert "Li Wei" in " ".join(str(v) for df in at.dataframe for v in df.value.astype(str).values.ravel())


def test_the_page_in_chinese(app) -> None:
    _seed()
    app.radio(key="set_lang__en").set_value("zh").run()
    at = open_page(app, "budgets")
    at.date_input(key="bud_as_of").set_value("2024-09-10").run()
    assert at.title[0].value == "预算与审批"
    assert "已用掉预算的 80%" in texts(at) and "日均消耗" in {m.label for m in at.metric}
