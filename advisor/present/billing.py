"""Billing comparison -> view: the best-fitting mode, on-demand, break-even, modes by cost."""

from __future__ import annotations

from advisor.glossary import mode, term
from advisor.present import fmt
from advisor.present.estimate import billing_table
from advisor.present.view import Figure, View
from advisor.tools.billing import BillingReport


def present_billing(r: BillingReport, lang: str) -> View:
    cur = r.currency
    by = {o.mode: o for o in r.options}
    od = by["on_demand"]
    best = by.get(r.recommended or "")
    n, gpu = int(r.inputs.get("gpu_count") or 1), str(r.inputs.get("gpu"))
    gpus = fmt.gpus(n, gpu, lang)
    be = r.break_even
    m, y = fmt.number(be.monthly_hours_per_month), fmt.number(be.yearly_hours_per_year)
    shown = best or od
    head = Figure("total", term("label.best_mode", lang) + f" · {mode(shown.mode, lang)}", fmt.money(shown.total, cur),
                  raw=shown.total)
    figures = [
        Figure("on_demand", term("label.on_demand_total", lang), fmt.money(od.total, cur), raw=od.total),
        Figure("price", term("label.price", lang), fmt.money(r.unit_prices.get("hour", od.unit_price), cur),
               raw=float(r.unit_prices.get("hour", od.unit_price))),
        Figure("break_even", term("label.break_even", lang), f"{m} h", range=term("label.break_even_value", lang, m=m, y=y),
               raw=be.monthly_hours_per_month),
    ]
    summary = (term("summary.billing", lang, gpus=gpus, mode=mode(best.mode, lang), total=fmt.money(best.total, cur),
                    on_demand=fmt.money(od.total, cur), m=m)
               if best else term("summary.billing_none", lang, gpus=gpus, on_demand=fmt.money(od.total, cur)))
    hours = float(r.inputs.get("wall_hours") or od.wall_hours)
    understood = [f"{term('label.usage', lang)}: " + term("label.usage_value", lang, n=n, gpu=gpu, hours=fmt.hours(hours, lang))]
    flags = [term(f"label.{k}", lang) for k in ("interruptible", "urgent") if r.inputs.get(k)]
    if flags:
        understood.append(" · ".join(flags))
    alternatives = [term("label.mode_alt", lang, mode=mode(o.mode, lang), total=fmt.money(o.total, cur),
                         wall=fmt.hours(o.wall_hours, lang))
                    for o in sorted(r.options, key=lambda o: o.total)
                    if o.available and o.suitable and o is not shown][:3]
    return View(summary=summary, headline=head, figures=figures, understood=understood, alternatives=alternatives,
                tables=[billing_table(r.options, cur, lang)])
