"""Usage analysis -> view: spend, waste, utilization, one de-duplicated saving, the detail tables.

The findings' savings overlap (consolidating jobs, right-sizing and stopping idle cards all
recover the same paid-but-idle GPU time), so the headline saving is their sum capped at what
that idle time and the forgotten resources cost; the overlap is said in a note."""

from __future__ import annotations

from advisor.glossary import term
from advisor.present import fmt
from advisor.present.view import Figure, Table, View
from advisor.tools.usage import UsageReport


def saving(r: UsageReport) -> tuple[float, float, float | None]:
    """(de-duplicated saving, sum of the findings' savings, the cap) in the report's currency."""
    listed = sum(f.savings.amount for f in r.findings if f.savings and f.savings.currency == r.currency)
    caps = [x for x in (r.summary.waste_cost, r.summary.idle_cost) if x is not None]
    forgotten = sum(x.cost for x in r.inventory.forgotten if x.currency == r.currency) if r.inventory else 0.0
    cap = (max(caps) if caps else None)
    if forgotten:
        cap = (cap or 0.0) + forgotten
    return (min(listed, cap) if cap is not None else listed), listed, cap


def present_usage(r: UsageReport, lang: str) -> View:
    s, cur = r.summary, r.currency
    total, listed, cap = saving(r)
    head = Figure("saving", term("label.usage_saving", lang), fmt.money(total, cur) if listed else "—", raw=total)
    figures = []
    if s.total_cost is not None:
        figures.append(Figure("spend", term("label.usage_spend", lang), fmt.money(s.total_cost, cur), raw=s.total_cost))
    if s.waste_cost is not None:
        figures.append(Figure("waste", term("label.usage_waste", lang), fmt.money(s.waste_cost, cur), raw=s.waste_cost))
    if s.avg_utilization is not None:
        figures.append(Figure("utilization", term("label.usage_util", lang), fmt.pct(s.avg_utilization),
                              range=term("label.usage_target", lang, p=fmt.pct(s.target_utilization)), raw=s.avg_utilization))
    if s.idle_gpu_hours is not None:
        figures.append(Figure("idle", term("label.usage_idle", lang), fmt.gpu_hours(s.idle_gpu_hours, lang),
                              note=term("label.usage_gpus_needed", lang, n=s.gpus_needed_at_target)
                              if s.gpus_needed_at_target else None, raw=s.idle_gpu_hours))
    if r.billing is not None and r.billing.total_billed_cost is not None:
        figures.append(Figure("billed", term("label.usage_billed", lang),
                              fmt.money(r.billing.total_billed_cost, r.billing.currency or cur), raw=r.billing.total_billed_cost))
    notes = []
    if listed > total + 1e-9 and cap is not None:
        notes.append(term("label.usage_overlap", lang, listed=fmt.money(listed, cur), total=fmt.money(total, cur),
                          cap=fmt.money(cap, cur)))
    forgotten = sum(x.cost for x in r.inventory.forgotten) if r.inventory else 0.0
    if forgotten and s.total_cost is not None and forgotten > s.total_cost:
        notes.append(term("label.usage_forgotten_over", lang, forgotten=fmt.money(forgotten, cur),
                          total=fmt.money(s.total_cost, cur)))
    parts = [term("label.usage_summary_util", lang, n=s.gpu_count, util=fmt.pct(s.avg_utilization),
                  target=fmt.pct(s.target_utilization))] if s.gpu_count is not None and s.avg_utilization is not None else []
    if listed:
        parts.append(term("label.usage_summary_saving", lang, amount=fmt.money(total, cur)))
    summary = term("sep.clause", lang).join(parts) + term("sep.end", lang) if parts else term("label.usage_none", lang)
    understood = [term("label.usage_files", lang, n=len(r.inputs.files)) if r.inputs.mode == "files"
                  else term("label.usage_summary_mode", lang)]
    tables, charts = [], []
    if r.telemetry is not None:
        tel = r.telemetry
        low = float(next(a.value for a in r.assumptions if a.name == "utilization.low_use_line"))
        states = {k: term(w, lang) for k, w in (("forgotten", "status.forgotten"), ("low", "label.usage_low"), ("ok", "label.usage_ok"))}
        charts = [
            Table("trend", term("label.usage_trend", lang), [], [],
                  data=[x.model_dump() for x in tel.trend if x.avg_utilization is not None],
                  values={"target": tel.target_utilization,
                          "target_label": term("label.usage_target", lang, p=fmt.pct(tel.target_utilization))}),
            Table("by_gpu", term("label.usage_by_gpu", lang), [], [], values={"states": list(states.values()), "low": low},
                  data=[{"gpu": f"{g.instance} · {g.id[-4:]}", "util": g.avg_utilization,
                         "state": states["forgotten" if g.forgotten else "low" if g.avg_utilization < low else "ok"]}
                        for g in tel.gpus]),
            Table("by_hour", term("label.usage_by_hour", lang), [], [], data=[x.model_dump() for x in tel.by_hour]),
        ]
        gpus = sorted(r.telemetry.gpus, key=lambda g: (g.avg_utilization, g.instance, g.id))[:10]
        tables.append(Table("gpus", term("label.usage_least_used", lang),
                            [term(f"col.{c}", lang) for c in ("resource", "gpu", "utilization", "idle_for", "status")],
                            [[f"{g.instance}/{g.id[-12:]}", g.model or "—", fmt.pct(g.avg_utilization), fmt.hours(g.idle_hours, lang),
                              term("status.forgotten", lang) if g.forgotten else ""] for g in gpus], numeric={2}))
        if r.telemetry.idle_stretches:
            tables.append(Table("idle", term("label.usage_idle_stretches", lang),
                                [term(f"col.{c}", lang) for c in ("resource", "from", "to", "idle_for", "amount")],
                                [[f"{x.instance}/{x.gpu_id[-12:]}", fmt.date(x.start), fmt.date(x.end)
                                  + (f" ({term('status.still_idle', lang)})" if x.open else ""),
                                  fmt.hours(x.hours, lang), fmt.money(x.cost, cur) if x.cost is not None else "—"]
                                 for x in r.telemetry.idle_stretches[:8]], numeric={4}))
    if r.billing is not None:
        b = r.billing
        tables.append(Table("by_service", term("label.usage_by_service", lang),
                            [term("col.item", lang), term("col.amount", lang)],
                            [[x.name, fmt.money(x.billed_cost, x.currency)] for x in b.by_service[:12]], numeric={1},
                            data=[{"name": x.name, "cost": x.billed_cost} for x in b.by_service[:12]]))
    if r.inventory is not None:
        inv = r.inventory
        if inv.forgotten:
            tables.append(Table("forgotten", term("label.usage_forgotten", lang),
                                [term(f"col.{c}", lang) for c in ("resource", "why", "idle_for", "amount")],
                                [[x.resource, term(f"forgotten.{x.reason}", lang), fmt.hours(x.hours, lang),
                                  fmt.money(x.cost, x.currency)] for x in inv.forgotten], numeric={3}))
        if inv.chargeback:
            tables.append(Table("chargeback", term("label.usage_chargeback", lang),
                                [term(f"col.{c}", lang) for c in ("team", "project", "gpu_hours", "amount")],
                                [[x.team, x.project, fmt.number(x.gpu_hours), fmt.money(x.cost, x.currency)]
                                 for x in inv.chargeback], numeric={2, 3}))
    return View(summary=summary, headline=head, figures=figures[:4], understood=understood, notes=notes, tables=tables,
                charts=charts)
