"""Budgets: budget versus actual per team and project (burn rate, forecast to period end, the
budget rules' findings), setting a month's budget, importing actual spend (a FOCUS export or a
usage report), saving this session's estimates as planned spend, and deciding approvals with a
note and their trail. Everything lives in the ledger (``ADVISOR_DATABASE_URL`` or the local SQLite)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import streamlit as st

import advisor.ledger as ledger
from advisor.glossary import term
from advisor.present import present
from ui import services
from ui.components.common import error_box, page, shown
from ui.components.progress import progress_sink
from ui.components.view import table as draw
from ui.components.view import view_card
from ui.state import Lang

FILE_TYPES = ["csv", "gz", "parquet", "json"]
ESTIMATE_TOOLS = ("estimate_training_cost", "plan_project")


def write(fn: Callable[..., Any], lang: Lang, *args: Any, **kwargs: Any) -> Any:
    """Run one ledger write; a bad value or an unreachable database shows as a message."""
    try:
        with ledger.open_ledger() as led:
            return fn(led, *args, **kwargs)
    except Exception as exc:  # every failure becomes a message on the page
        error_box(services.error_text(exc, lang))
        return None


def status_tab(lang: Lang) -> None:
    c1, c2, c3 = st.columns(3)
    as_of = c1.date_input(term("bud.as_of", lang), value=date.today(), key="bud_as_of", format="YYYY-MM-DD")
    team = c2.text_input(term("bud.team_filter", lang), key="bud_team_filter").strip() or None
    project = c3.text_input(term("bud.project_filter", lang), key="bud_project_filter").strip() or None
    when = as_of.isoformat() if isinstance(as_of, date) else None
    result = shown(services.run_tool("budget_status", lang, as_of=when, team=team, project=project, lang=lang))
    if result is None:
        return
    view_card(present("budget_status", result, lang), "bud", open_details=True)
    if result.get("budgets"):
        st.caption(term("bud.backend", lang, backend=result.get("backend", "")))


def owner_and_period(lang: Lang, key: str) -> tuple[str, str]:
    """A form's budget line (team/project) and month."""
    c1, c2 = st.columns(2)
    return (c1.text_input(term("bud.owner", lang), placeholder="ml-platform/llm-pretrain", key=f"{key}_owner"),
            c2.text_input(term("bud.period", lang), value=date.today().strftime("%Y-%m"), key=f"{key}_period"))


def set_tab(lang: Lang) -> None:
    with st.form("bud_set_form"):
        owner, period = owner_and_period(lang, "bud")
        c3, c4 = st.columns(2)
        amount = c3.number_input(term("bud.amount", lang), min_value=0.0, value=50000.0, step=1000.0, key="bud_amount")
        currency = c4.selectbox(term("bud.currency", lang), ["CNY", "USD"] if lang == "zh" else ["USD", "CNY"],
                                key="bud_currency")
        go = st.form_submit_button(term("bud.set", lang), type="primary")
    if go:
        row = write(ledger.set_budget, lang, owner, amount, period, currency)
        if row:
            st.success(term("bud.set_done", lang, owner=f"{row['team']}/{row['project']}", period=row["period"],
                         amount=row["amount"], currency=row["currency"]))


def import_tab(lang: Lang) -> None:
    st.caption(term("bud.import_intro", lang))
    uploads = st.file_uploader(term("bud.upload", lang), type=FILE_TYPES, accept_multiple_files=True, key="bud_upload")
    if not st.button(term("bud.import", lang), type="primary", key="bud_import_go", icon=":material/upload:"):
        return
    if not uploads:
        st.warning(term("bud.import_none", lang))
        return
    paths = services.save_uploads([(u.name, u.getvalue()) for u in uploads])
    try:
        with st.status(term("bud.importing", lang), expanded=True) as box:
            for upload, path in zip(uploads, paths, strict=True):
                st.caption(upload.name)
                bar = st.progress(0.0)
                result = write(ledger.import_spend, lang, path, progress=progress_sink(bar, lang))
                if result is None:
                    box.update(state="error")
                    return
                totals = ", ".join(f"{v} {c}" for c, v in result.totals.items()) or "0"
                st.write(term("bud.import_done", lang, name=upload.name, added=result.rows_added,
                           there=result.rows_already_there, updated=result.rows_updated, totals=totals))
            box.update(label=term("bud.import_finished", lang), state="complete")
    finally:
        services.discard_uploads(paths)


def plan_tab(lang: Lang) -> None:
    records = [r for r in st.session_state.get("records", []) if r.get("kind") in ESTIMATE_TOOLS]
    if not records:
        st.info(term("bud.no_estimates", lang), icon=":material/info:")
        return
    labels = {r["id"]: f"{r['when']} · {r['title']}" for r in records}
    with st.form("bud_plan_form"):
        pick = st.selectbox(term("bud.estimate", lang), list(labels), format_func=labels.__getitem__, key="bud_estimate")
        owner, period = owner_and_period(lang, "bud_plan")
        go = st.form_submit_button(term("bud.save_estimate", lang), type="primary")
    if not go:
        return
    record = next(r for r in records if r["id"] == pick)
    out = write(ledger.save_estimate, lang, owner, record["result"], period, tool=record["kind"])
    if out is None:
        return
    st.success(term("bud.saved", lang, id=out["planned_id"], amount=out["amount"], currency=out["currency"]))
    if out["approval"]:
        st.warning(term("bud.approval_raised", lang, id=out["approval"]["id"]), icon=":material/approval:")


def approvals_tab(lang: Lang) -> None:
    result = shown(services.run_tool("budget_status", lang, lang=lang))
    if result is None:
        return
    pending = [a for a in result.get("approvals", []) if a["status"] == "pending"]
    if pending:
        labels = {a["id"]: f"#{a['id']} · {a['team']}/{a['project']} · {a['period']} · {a['amount']} {a['currency']}"
                  for a in pending}
        with st.form("bud_decide_form"):
            pick = st.selectbox(term("bud.pending", lang), list(labels), format_func=labels.__getitem__, key="bud_pick")
            approver = st.text_input(term("bud.approver", lang), key="bud_approver")
            note = st.text_area(term("bud.note", lang), key="bud_note")
            c1, c2 = st.columns(2)
            yes = c1.form_submit_button(term("bud.approve", lang), type="primary")
            no = c2.form_submit_button(term("bud.reject", lang))
        if yes or no:
            view = write(ledger.approve, lang, int(pick), approver, note or None, reject=bool(no))
            if view is not None:
                st.success(term("bud.decided", lang, id=view.id, status=term(f"status.{view.status}", lang),
                             approver=view.approver or ""))
                result = services.run_tool("budget_status", lang, lang=lang).result or result
    else:
        st.info(term("bud.no_pending", lang), icon=":material/info:")
    table = present("budget_status", result, lang).table("approvals")
    if table is not None and table.rows:
        st.subheader(table.title)
        draw(table)


def main() -> None:
    lang = page("bud")
    drawn = {"status": status_tab, "set": set_tab, "import": import_tab, "plan": plan_tab, "approvals": approvals_tab}
    tabs = dict(zip(drawn, st.tabs([term(f"bud.tab_{name}", lang) for name in drawn]), strict=True))
    for name in sorted(drawn, key=lambda n: n == "status"):  # status last: a budget set or an import on this run shows at once
        with tabs[name]:
            drawn[name](lang)


main()
