"""``advisor budget``: budgets per team/project/period, saved estimates and approvals, and actual
spend imported from FOCUS exports (the ledger in advisor.ledger)."""

from __future__ import annotations

import json
from argparse import Namespace
from typing import TYPE_CHECKING

import typer

from advisor.cli import args as A
from advisor.cli.common import console, emit_json
from advisor.errors import InputError
from advisor.glossary import bilingual

if TYPE_CHECKING:
    from advisor.ledger import Ledger


def register(app: typer.Typer) -> None:
    """Add the ``budget`` group to ``app`` (flags and help in options.yaml)."""
    A.group(app, "budget", {"set": set_cmd, "import": import_cmd, "status": status_cmd, "save-estimate": save_cmd,
                            "approve": approve_cmd})


def _ledger() -> Ledger:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import open_ledger

    return open_ledger()


def set_cmd(ns: Namespace) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import set_budget

    with _ledger() as led:
        row = set_budget(led, ns.owner, ns.amount, ns.period, ns.currency)
    if ns.json:
        emit_json(row)
    else:
        print(bilingual("budget.cli.set", owner=f"{row['team']}/{row['project']}", period=row["period"], amount=row["amount"],
                    currency=row["currency"]))


def import_cmd(ns: Namespace) -> None:
    from dataclasses import asdict

    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.cli.progress import tty_progress
    from advisor.ledger import import_spend

    with _ledger() as led, tty_progress(bilingual("budget.cli.importing", file=ns.file)) as sink:
        result = import_spend(led, ns.file, progress=None if ns.json else sink)
    if ns.json:
        emit_json(asdict(result))
        return
    totals = ", ".join(f"{v} {c}" for c, v in result.totals.items()) or "0"
    print(bilingual("budget.cli.imported" + ("_updated" if result.rows_updated else ""), source=result.source,
                added=result.rows_added, there=result.rows_already_there, updated=result.rows_updated, totals=totals))


def status_cmd(ns: Namespace) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import parse_as_of, status

    when = parse_as_of(ns.as_of) if ns.as_of is not None else None
    with _ledger() as led:
        report = status(led, as_of=when, lang=ns.lang, team=ns.team, project=ns.project, period=ns.period)
    if ns.json:
        emit_json(report.model_dump(mode="json"))
        return

    from advisor.cli.render import view
    from advisor.present import present

    view(present("budget_status", report, ns.lang), details=True, console=console())


def save_cmd(ns: Namespace) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import save_estimate
    from advisor.safe_read import decode, read_bytes

    estimate_json = ns.estimate_json
    try:
        report = json.loads(decode(read_bytes(estimate_json), estimate_json)[0])
    except json.JSONDecodeError as exc:
        raise InputError("--estimate-json", estimate_json, f"a JSON file ({exc.msg}, line {exc.lineno})") from None
    except OSError as exc:
        raise InputError("--estimate-json", estimate_json, f"a readable file ({exc.strerror})") from None
    if not isinstance(report, dict):
        raise InputError("--estimate-json", estimate_json, "a JSON object (a report)")
    with _ledger() as led:
        out = save_estimate(led, ns.owner, report, ns.period)
    if ns.json:
        emit_json(out)
        return
    print(bilingual("budget.cli.saved", id=out["planned_id"], amount=out["amount"], currency=out["currency"]))
    if out["approval"]:
        print(bilingual("budget.cli.approval", id=out["approval"]["id"], reason=out["approval"]["reason"]))


def approve_cmd(ns: Namespace) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.ledger import approve

    with _ledger() as led:
        view = approve(led, ns.approval_id, ns.approver, ns.note, reject=ns.reject)
    if ns.json:
        emit_json(view.model_dump(mode="json"))
    else:
        label = "rejected / 已驳回" if view.status == "rejected" else "approved / 已批准"
        print(f"approval #{view.id} {label} by {view.approver}")
