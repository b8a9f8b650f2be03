"""Own vs rent -> view: which side is cheaper and by how much, each side per used GPU-hour,
the break-even utilisation, and the own-the-base, rent-the-peaks plan."""

from __future__ import annotations

from advisor.glossary import term
from advisor.present import common, fmt
from advisor.present.view import Figure, Table, View
from advisor.tools.ownership import OwnVsRentReport


def present_own(r: OwnVsRentReport, lang: str) -> View:
    cur = r.currency
    be = fmt.pct(r.break_even_utilization) if r.break_even_utilization is not None else None
    head = Figure("saving", term(f"own.cheaper.{r.cheaper}", lang), fmt.money(r.saving, cur), raw=r.saving)
    figures = [
        Figure("own", term("label.own_hour", lang), fmt.money(r.own.per_used_gpu_hour, cur), raw=r.own.per_used_gpu_hour),
        Figure("rent", term("label.rent_hour", lang), fmt.money(r.rent.per_used_gpu_hour, cur),
               note=term(f"mode.{r.rent.mode}", lang) if r.rent.mode else None, raw=r.rent.per_used_gpu_hour),
        Figure("break_even", term("label.break_even_util", lang), be or term("label.never", lang),
               raw=r.break_even_utilization),
        Figure("capex", term("label.capex", lang), fmt.money(r.capex, cur), raw=r.capex),
    ]
    gpus = fmt.gpus(r.gpu_count, r.gpu, lang)
    summary = term("summary.own", lang, util=fmt.pct(r.utilization), years=fmt.number(r.years), gpus=gpus,
                   own=fmt.money(r.own.per_used_gpu_hour, cur), rent=fmt.money(r.rent.per_used_gpu_hour, cur),
                   cheaper=term(f"own.side.{r.cheaper}", lang), saving=fmt.money(r.saving, cur),
                   even=term("own.even", lang, be=be) if be else term("own.never", lang))
    understood = [term("label.own_plan", lang, gpus=gpus, util=fmt.pct(r.utilization), years=fmt.number(r.years))]
    tables = [
        Table("own_components", f"{term('label.own_components', lang)} ({cur})",
              [term("col.item", lang), term("col.per_gpu_year", lang)],
              [[term(f"own_component.{x.name}", lang), fmt.money(x.per_gpu_year, cur)] for x in r.own_components],
              numeric={1}, data=[{"key": x.name, "amount": x.per_gpu_year} for x in r.own_components]),
        Table("curve", term("label.own_curve", lang),
              [term("col.utilization_share", lang), term("col.own", lang), term("col.rent", lang)],
              [[fmt.pct(p["utilization"]), fmt.money(p["own"], cur), fmt.money(p["rent"], cur)] for p in r.curve],
              numeric={1, 2}, values={"utilization": term("col.utilization_share", lang)},
              data=[{"utilization": p["utilization"], "side": term(f"col.{side}", lang), "cost": p[side]}
                    for p in r.curve for side in ("own", "rent")]),
    ]
    alternatives = []
    if r.hybrid:
        h = r.hybrid
        if h.owned_gpus and h.saving_vs_all_rent > 0:
            alternatives.append(term("label.hybrid", lang, owned=h.owned_gpus, total=fmt.money(h.total, cur),
                                     saving=fmt.money(h.saving_vs_all_rent, cur)))
        tables.append(common.pairs("hybrid", term("label.hybrid_table", lang), [
            ("hybrid.owned", str(h.owned_gpus)), ("hybrid.rented", fmt.number(h.rented_gpu_months)),
            ("hybrid.total", fmt.money(h.total, cur)), ("hybrid.all_rent", fmt.money(h.all_rent_total, cur)),
            ("hybrid.all_own", fmt.money(h.all_own_total, cur))], lang))
    return View(summary=summary, headline=head, figures=figures, understood=understood, alternatives=alternatives,
                tables=tables)
