"""Estimate report -> view: total with range, GPU-hours, wall time, memory fit, price basis."""

from __future__ import annotations

from typing import Any

from advisor.engine.billing import BillingOption
from advisor.engine.models import Component, EstimateReport
from advisor.glossary import mode, term, unit
from advisor.present import common, fmt
from advisor.present.view import Figure, Table, View


def component_label(c: Component, lang: str) -> str:
    d: dict[str, Any] = dict(c.detail)
    if "mode" in d:
        d["mode"] = mode(str(d["mode"]), lang)
    if "term" in d:
        d["term"] = term(f"term.{d['term']}", lang)
    key = f"component.{c.name}"
    if c.name == "energy" and d.get("included"):
        key = "component.energy.included"
    return term(key, lang, **d)


def billing_note(o: BillingOption, lang: str) -> str:
    v = dict(o.note_values)
    parts = [term(f"note.{o.note or o.mode}", lang, **v)]
    if o.mode == "off_peak":
        parts += [term(f"note.off_peak.{k}", lang, **v) for k in ("late", "urgent") if v.get(k)]
        if not v.get("offered", True):
            parts.append(term("note.off_peak.unoffered", lang, **v))
    if o.mode == "spot" and not v.get("interruptible", True):
        parts.append(term("note.spot.critical", lang))
    return term("sep.clause", lang).join(p for p in parts if p)


def billing_table(options: list[BillingOption], currency: str, lang: str) -> Table:
    """Modes by cost; unavailable and unsuitable modes muted, never highlighted."""
    ordered = sorted(options, key=lambda o: (not (o.available and o.suitable), o.total))
    rows, muted, data = [], [], []
    for o in ordered:
        status = ("status.recommended" if o.recommended else "status.unavailable" if not o.available
                  else "status.unsuitable" if not o.suitable else "status.cheapest" if o.cheapest else "")
        rows.append([mode(o.mode, lang), fmt.money(o.total, currency), fmt.money(o.unit_price, currency),
                     fmt.hours(o.wall_hours, lang), term(status, lang) if status else "", billing_note(o, lang)])
        muted.append(not (o.available and o.suitable))
        data.append({"mode": mode(o.mode, lang), "total": o.total,
                     "shade": "recommended" if o.recommended else "suitable" if o.available and o.suitable else "unsuitable",
                     "label": fmt.money(o.total, currency) + (f" · {term(status, lang)}" if status else "")})
    return Table("billing", term("label.billing", lang),
                 [term("col.mode", lang), term("col.total", lang), term("col.unit_price", lang), term("col.wall", lang),
                  term("col.status", lang), term("col.note", lang)], rows, numeric={1, 2}, muted=muted, data=data)


def understood(r: EstimateReport, lang: str) -> list[str]:
    inp = r.inputs
    hw = f"{fmt.gpus(r.gpu.count, r.gpu.name, lang)} · {r.gpu.precision.upper()} · {mode(str(inp.get('billing') or 'on_demand'), lang)}"
    return common.job_lines(inp, lang, term("label.tokens_value", lang, tokens=tokens(float(inp.get("tokens_b") or 0))),
                            f"{term('label.hardware', lang)}: {hw}")


def tokens(b: float) -> str:
    if b >= 1000:
        return f"{fmt.number(b / 1000)}T"
    if b >= 1:
        return f"{fmt.number(b)}B"
    return f"{fmt.number(b * 1000)}M"


def alternatives(r: EstimateReport, lang: str) -> list[str]:
    cur, a, out = r.cost.currency, r.alternatives, []
    if a.cheaper_gpu and float(a.cheaper_gpu.get("saving") or 0) > 0:
        g = a.cheaper_gpu
        out.append(term("label.cheaper_gpu", lang, count=g.get("count"), gpu=g.get("gpu"), cost=fmt.money(g.get("cost"), cur),
                        wall=fmt.hours(g.get("wall_hours"), lang), saving=fmt.money(g.get("saving"), cur)))
    if a.mixed_fleet and float(a.mixed_fleet.get("saving") or 0) > 0:
        m = a.mixed_fleet
        out.append(term("label.mixed_fleet", lang, share=fmt.pct(m.get("routine_share")), routine=m.get("routine_gpu"),
                        core=m.get("core_gpu"), total=fmt.money(m.get("mixed_total"), cur), saving=fmt.money(m.get("saving"), cur)))
    if a.fractional:
        out.append(term("label.fractional", lang, fraction=fmt.number(a.fractional.get("slice")), gpu=r.gpu.name))
    picked = str(r.inputs.get("billing") or "on_demand")
    best = next((o for o in r.billing if o.recommended and o.mode != picked), None)
    if best:
        out.append(term("label.mode_alt", lang, mode=mode(best.mode, lang), total=fmt.money(best.total, cur),
                        wall=fmt.hours(best.wall_hours, lang)))
    return out


def present_estimate(r: EstimateReport, lang: str) -> View:
    options = [o if isinstance(o, BillingOption) else BillingOption.model_validate(o) for o in r.billing]
    r = r.model_copy(update={"billing": options})  # the report holds them untyped
    cur, m = r.cost.currency, r.memory
    fits = term("status.fits" if m.fits else "status.no_fit", lang)
    head = common.money_figure("total", "label.total", r.cost.total, r.cost.low, r.cost.high, cur, lang)
    gh, wall = r.gpu_hours, r.wall_hours
    wall_fig = Figure("wall", term("label.wall", lang), fmt.hours(wall.expected, lang),
                      range=f"{fmt.hours(wall.low, lang)} – {fmt.hours(wall.high, lang)}", raw=wall.expected)
    if r.meets_deadline is not None:
        wall_fig.status = "good" if r.meets_deadline else "bad"
        wall_fig.note = term("status.deadline_ok" if r.meets_deadline else "status.deadline_miss", lang)
    price = r.inputs.get("price_per_gpu_hour")
    source = next((a.source for a in r.assumptions if a.name == "price_per_gpu_hour"), None)
    figures = [
        Figure("gpu_hours", term("label.gpu_hours", lang), fmt.number(gh.expected),
               range=f"{fmt.number(gh.low)} – {fmt.number(gh.high)}", raw=gh.expected),
        wall_fig,
        Figure("memory", term("label.memory", lang), f"{fmt.number(m.per_gpu_gb, 1)} GB",
               range=term("label.memory_value", lang, per=fmt.number(m.per_gpu_gb, 1), card=fmt.number(m.gpu_memory_gb), status=fits),
               status="good" if m.fits else "bad", note=fits, raw=m.per_gpu_gb),
    ]
    if price:
        figures.append(Figure("price", term("label.price", lang), fmt.money(price, cur),
                              note=term("label.list_price", lang) if source and "request" not in source.lower() and "user" not in source.lower() else term("label.your_price", lang),
                              raw=float(price)))
    summary = term("summary.estimate", lang, total=head.value, low=fmt.money(r.cost.low, cur), high=fmt.money(r.cost.high, cur),
                   gpu_hours=fmt.gpu_hours(gh.expected, lang), gpus=fmt.gpus(r.gpu.count, r.gpu.name, lang),
                   wall=fmt.hours(wall.expected, lang), per=fmt.number(m.per_gpu_gb, 1), fits=fits)
    comp_rows = [[component_label(c, lang), fmt.money(c.amount, cur), fmt.number(c.quantity), unit(c.unit, lang),
                  fmt.money(c.unit_price, cur)] for c in r.cost.components]
    comp_rows.append([term("col.total", lang), fmt.money(r.cost.total, cur), "", "", ""])
    tables = [
        Table("components", f"{term('label.components', lang)} ({cur})",
              [term("col.item", lang), term("col.amount", lang), term("col.quantity", lang), term("col.unit", lang),
               term("col.unit_price", lang)], comp_rows, numeric={1, 2, 4},
              data=[{"key": c.name, "amount": c.amount} for c in r.cost.components]),
        billing_table(r.billing, cur, lang),
        memory_table(r, lang),
    ]
    notes = [note(n, lang) for n in r.notes]
    return View(summary=summary, headline=head, figures=figures, understood=understood(r, lang),
                alternatives=alternatives(r, lang), notes=notes, tables=tables)


def memory_table(r: EstimateReport, lang: str) -> Table:
    m = r.memory
    parts = ("weights_gb", "gradients_gb", "optimizer_gb", "activations_gb", "overhead_gb")
    rows = [[term(f"mem.{k}", lang), fmt.number(getattr(m, k), 1)] for k in parts]
    rows.append([term("label.layout", lang), term(
        "label.layout_value", lang, tp=m.layout.tensor_parallel, dp=m.layout.data_parallel, zero=m.layout.zero_stage,
        ckpt=term("status.on" if m.layout.gradient_checkpointing else "status.off", lang))])
    return Table("memory", term("label.memory_breakdown", lang), [term("col.part", lang), term("col.gb", lang)], rows,
                 numeric={1}, data=[{"part": term(f"mem.{k}", lang), "gb": float(getattr(m, k))} for k in parts])


def note(n: dict[str, Any], lang: str) -> str:
    """One of the estimate's notes (a key and its figures) in ``lang``."""
    v = dict(n)
    for k in ("needed_gb", "usable_gb"):
        if k in v:
            v[k] = fmt.number(v[k], 1)
    for k in ("hours", "allowed"):
        if k in v:
            v[k] = fmt.hours(v[k], lang)
    return term(f"estimate.note.{v.pop('key', '')}", lang, **v)
