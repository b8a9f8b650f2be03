"""Budget versus actual as a team reads it: the budget rules fire from the ledger's figures, the
``budget_status`` tool reports the same, and the presenter words it in both languages."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from advisor import tools
from advisor.ledger import Ledger, import_focus, save_estimate, set_budget, status
from advisor.present import present
from tests.ledger.conftest import write_focus

ML = {"team": "ml", "project": "pretrain"}


def _spend(ledger: Ledger, tmp_path: Path, amounts: list[str], tags: dict[str, str] = ML, month: str = "2024-09") -> None:
    rows = [{"id": f"{month}-{tags['project']}-{i}", "cost": a, "start": f"{month}-{1 + i % 9:02d}T00:00:00Z", "tags": tags}
            for i, a in enumerate(amounts)]
    import_focus(ledger, write_focus(tmp_path / f"spend-{tags['project']}-{month}.csv", rows))


@pytest.mark.parametrize("spent, day, fired", [
    # 1000 USD budget for September (30 days); `day` = days elapsed at the as-of time.
    (["500", "350"], 12, "budget.burning_ahead_of_period"),   # 85 % spent, 60 % of the month left
    (["400", "400"], 18, "budget.burning_ahead_of_period"),   # exactly 80 % spent, exactly 40 % left
    (["400", "390"], 12, "budget.forecast_over_budget"),      # 79 %: under the early warning, still heading over
    (["500", "300"], 21, "budget.forecast_over_budget"),      # 80 % spent but only 30 % left
    (["900", "150"], 25, "budget.actual_over_budget"),        # already past the budget
    (["100", "100"], 15, None),                               # 20 % spent at half-time: on track
])
def test_budget_rules_fire_from_the_ledger(ledger: Ledger, tmp_path: Path, spent: list[str], day: int,
                                           fired: str | None) -> None:
    _spend(ledger, tmp_path, spent)
    set_budget(ledger, "ml/pretrain", "1000", "2024-09", "USD")
    report = status(ledger, as_of=datetime(2024, 9, 1 + day, tzinfo=UTC))
    [line] = report.budgets
    total = sum(Decimal(a) for a in spent)
    assert Decimal(line.actual) == total
    assert Decimal(line.forecast) == (total + total / day * (30 - day)).quantize(Decimal("0.01"))
    ids = [f.rule_id for f in line.findings]
    ledger_rules = [i for i in ids if i in {"budget.burning_ahead_of_period", "budget.forecast_over_budget",
                                            "budget.actual_over_budget"}]
    assert ledger_rules == ([fired] if fired else [])
    assert [f.rule_id for f in report.findings] == ids


def test_the_early_warning_names_the_figures_in_both_languages(ledger: Ledger, tmp_path: Path) -> None:
    _spend(ledger, tmp_path, ["850"])
    set_budget(ledger, "ml/pretrain", "1000", "2024-09")
    en = status(ledger, as_of=datetime(2024, 9, 13, tzinfo=UTC), lang="en").findings
    zh = status(ledger, as_of=datetime(2024, 9, 13, tzinfo=UTC), lang="zh").findings
    [warn] = [f for f in en if f.rule_id == "budget.burning_ahead_of_period"]
    assert "ml/pretrain" in warn.title and "85%" in warn.title and "60%" in warn.title
    assert "$2,125" in warn.detail  # 850 + 850 / 12 x 18, the straight-line forecast
    [warn_zh] = [f for f in zh if f.rule_id == "budget.burning_ahead_of_period"]
    assert "已用掉预算" in warn_zh.title and "$2,125" in warn_zh.detail


def test_planned_spend_that_does_not_fit_is_flagged(ledger: Ledger, tmp_path: Path) -> None:
    _spend(ledger, tmp_path, ["300"])
    set_budget(ledger, "ml/pretrain", "1000", "2024-09")
    save_estimate(ledger, "ml/pretrain", {"cost": {"total": 800, "currency": "USD"}}, "2024-09")
    [line] = status(ledger, as_of=datetime(2024, 9, 16, tzinfo=UTC)).budgets
    assert line.planned == "800.00"
    assert "budget.planned_exceeds_remaining" in [f.rule_id for f in line.findings]


def test_the_tool_reads_the_same_ledger_and_filters(ledger: Ledger, tmp_path: Path) -> None:
    _spend(ledger, tmp_path, ["850"])
    _spend(ledger, tmp_path, ["20"], tags={"team": "ml", "project": "eval"})
    set_budget(ledger, "ml/pretrain", "1000", "2024-09")
    set_budget(ledger, "ml/eval", "500", "2024-09", "CNY")
    set_budget(ledger, "ml/pretrain", "1000", "2024-10")
    direct = status(ledger, as_of=datetime(2024, 9, 13, tzinfo=UTC))
    via_tool = tools.budget_status(as_of="2024-09-13")
    assert via_tool.model_dump() == direct.model_dump()
    only = tools.budget_status(project="EVAL", period="2024-09", as_of="2024-09-13", lang="zh")
    assert [(b.team, b.project, b.period, b.currency) for b in only.budgets] == [("ml", "eval", "2024-09", "CNY")]
    assert only.backend == ledger.dialect and "://" not in only.model_dump_json()


def test_the_presenter_words_the_status_in_both_languages(ledger: Ledger, tmp_path: Path) -> None:
    _spend(ledger, tmp_path, ["850"])
    set_budget(ledger, "ml/pretrain", "1000", "2024-09")
    save_estimate(ledger, "ml/pretrain", {"cost": {"total": 20000, "currency": "USD"}}, "2024-09")
    report = status(ledger, as_of=datetime(2024, 9, 13, tzinfo=UTC))
    en = present("budget_status", report.model_dump(mode="json"), "en")
    zh = present("budget_status", report, "zh")
    assert en.headline.value == "$2,125 / $1,000" and en.headline.status == "bad"
    assert "1 budget(s)" in en.summary and "1 approval(s) pending" in en.summary
    assert "预算" in zh.summary and "待处理" in zh.summary
    table = zh.table("budgets")
    assert table is not None and table.columns[0] == "团队/项目" and table.rows[0][0] == "ml/pretrain"
    approvals = zh.table("approvals")
    assert approvals is not None and approvals.rows[0][4] == "待审批"
    assert en.findings[0].rule_id in {"budget.burning_ahead_of_period", "budget.planned_exceeds_remaining"}


def test_an_empty_ledger_says_how_to_start(ledger: Ledger) -> None:
    view = present("budget_status", status(ledger), "zh")
    assert "advisor budget set" in view.summary and view.tables[0].rows == []
