"""``advisor budget``: budgets per team/project/period, saved estimates and approvals, and actual
spend imported from FOCUS exports (the ledger in advisor.ledger)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from advisor.cli.common import console, emit_json
from advisor.errors import InputError
from advisor.glossary import bilingual

if TYPE_CHECKING:
    from advisor.ledger import Ledger


def register(app: typer.Typer) -> None:
    """Add the ``budget`` group to ``app``."""
    group = typer.Typer(
        help="Budgets, approvals and actual spend per team/project (ledger: ADVISOR_DATABASE_URL or SQLite "
             "in your data folder). 预算、审批与实际支出台账。",
        no_args_is_help=True,
        add_completion=False,
    )
    group.command("set", help="Set the budget of TEAM/PROJECT for a month. 设置团队/项目的月度预算。")(set_cmd)
    group.command("import", help="Import actual spend from a FOCUS export or a usage report's chargeback; "
                                 "re-importing adds nothing twice. 导入 FOCUS 账单或用量分析报告的分摊（重复导入不会重复计数）。")(import_cmd)
    group.command("status", help="Budget versus actual and planned spend, burn rate and forecast. "
                                 "预算与实际、计划支出、消耗速度与期末预测。")(status_cmd)
    group.command("save-estimate", help="Save an estimate's JSON as planned spend; above the threshold an approval "
                                        "is requested. 保存估算为计划支出，超过阈值自动发起审批。")(save_cmd)
    group.command("approve", help="Approve (or --reject) a pending approval. 审批（或驳回）待审请求。")(approve_cmd)
    app.add_typer(group, name="budget")


def _ledger() -> Ledger:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import open_ledger

    return open_ledger()


Period = Annotated[str, typer.Option("--period", help="month YYYY-MM 月份")]


def set_cmd(
    owner: Annotated[str, typer.Argument(metavar="TEAM/PROJECT", help="team/project 团队/项目")],
    amount: Annotated[str, typer.Argument(help="budget amount 预算金额")],
    period: Period,
    currency: Annotated[str, typer.Option("--currency", help="USD or CNY 币种")] = "USD",
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import set_budget

    with _ledger() as led:
        row = set_budget(led, owner, amount, period, currency)
    if as_json:
        emit_json(row)
    else:
        print(bilingual("budget.cli.set", owner=f"{row['team']}/{row['project']}", period=row["period"], amount=row["amount"],
                    currency=row["currency"]))


def import_cmd(
    file: Annotated[str, typer.Argument(help="FOCUS export (CSV or Parquet) or usage report (`advisor usage … --json`) "
                                             "FOCUS 账单或用量分析报告")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    from dataclasses import asdict

    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.cli.progress import tty_progress
    from advisor.ledger import import_spend

    with _ledger() as led, tty_progress(bilingual("budget.cli.importing", file=file)) as sink:
        result = import_spend(led, file, progress=None if as_json else sink)
    if as_json:
        emit_json(asdict(result))
        return
    totals = ", ".join(f"{v} {c}" for c, v in result.totals.items()) or "0"
    print(bilingual("budget.cli.imported" + ("_updated" if result.rows_updated else ""), source=result.source,
                added=result.rows_added, there=result.rows_already_there, updated=result.rows_updated, totals=totals))


def status_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    as_of: Annotated[str | None, typer.Option("--as-of", help="date YYYY-MM-DD (default: now) 截止日期")] = None,
    team: Annotated[str | None, typer.Option("--team", help="only this team 只看该团队")] = None,
    project: Annotated[str | None, typer.Option("--project", help="only this project 只看该项目")] = None,
    period: Annotated[str | None, typer.Option("--period", help="only this month YYYY-MM 只看该月")] = None,
    lang: Annotated[str, typer.Option("--lang", help="en or zh: language of the findings 语言")] = "en",
) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import parse_as_of, status

    if lang not in ("en", "zh"):
        raise InputError("--lang", lang, "en or zh")
    when = parse_as_of(as_of) if as_of is not None else None
    with _ledger() as led:
        report = status(led, as_of=when, lang=lang, team=team, project=project, period=period)
    if as_json:
        emit_json(report.model_dump(mode="json"))
        return

    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.cli.render import view
    from advisor.present import present

    view(present("budget_status", report, lang), details=True, console=console())


def save_cmd(
    owner: Annotated[str, typer.Argument(metavar="TEAM/PROJECT", help="team/project 团队/项目")],
    estimate_json: Annotated[str, typer.Option("--estimate-json", help="file with `advisor estimate --json` output "
                                                                       "估算 JSON 文件")],
    period: Period,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import save_estimate
    from advisor.safe_read import decode, read_bytes

    try:
        report = json.loads(decode(read_bytes(estimate_json), estimate_json)[0])
    except json.JSONDecodeError as exc:
        raise InputError("--estimate-json", estimate_json, f"a JSON file ({exc.msg}, line {exc.lineno})") from None
    except OSError as exc:
        raise InputError("--estimate-json", estimate_json, f"a readable file ({exc.strerror})") from None
    if not isinstance(report, dict):
        raise InputError("--estimate-json", estimate_json, "a JSON object (a report)")
    with _ledger() as led:
        out = save_estimate(led, owner, report, period)
    if as_json:
        emit_json(out)
        return
    print(bilingual("budget.cli.saved", id=out["planned_id"], amount=out["amount"], currency=out["currency"]))
    if out["approval"]:
        print(bilingual("budget.cli.approval", id=out["approval"]["id"], reason=out["approval"]["reason"]))


def approve_cmd(
    approval_id: Annotated[int, typer.Argument(metavar="ID", help="approval id 审批编号")],
    approver: Annotated[str, typer.Option("--approver", help="who decides 审批人")],
    note: Annotated[str | None, typer.Option("--note", help="note 备注")] = None,
    reject: Annotated[bool, typer.Option("--reject", help="reject instead of approve 驳回")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import approve

    with _ledger() as led:
        view = approve(led, approval_id, approver, note, reject=reject)
    if as_json:
        emit_json(view.model_dump(mode="json"))
    else:
        label = "rejected / 已驳回" if view.status == "rejected" else "approved / 已批准"
        print(f"approval #{view.id} {label} by {view.approver}")
