"""Serving cost -> view: the month's cost, the cards, cost per million tokens, the load."""

from __future__ import annotations

from advisor.glossary import mode, term
from advisor.present import common, fmt
from advisor.present.estimate import billing_table, tokens
from advisor.present.view import Figure, View
from advisor.tools.serving import ServingReport


def present_serving(r: ServingReport, lang: str) -> View:
    cur, inp = r.currency, r.inputs
    gpus = fmt.gpus(r.gpu_count, r.gpu, lang)
    layout = term("label.gpus_layout", lang, replicas=r.replicas, tp=r.gpus_per_replica, batch=r.batch_per_replica)
    head = Figure("monthly", term("label.monthly_cost", lang), fmt.money(r.monthly_cost, cur),
                  note=mode(r.billing, lang), raw=r.monthly_cost)
    figures = [
        Figure("gpus", term("label.gpus_needed", lang), gpus, range=layout, raw=float(r.gpu_count)),
        Figure("per_million", term("label.per_million", lang), fmt.money(r.cost_per_million_tokens, cur),
               raw=r.cost_per_million_tokens),
        Figure("load", term("label.load", lang), fmt.pct(r.load_share), range=term("label.load_value", lang),
               status="bad" if r.load_share > 1 else None, raw=r.load_share),
        Figure("daily", term("label.daily_cost", lang), fmt.money(r.daily_cost, cur), raw=r.daily_cost),
    ]
    per_day = tokens(float(inp.get("tokens_per_day") or 0) / 1e9)
    model = common.model_name(inp, lang)
    summary = term("summary.serving", lang, model=model, tokens=per_day, gpus=gpus, replicas=r.replicas,
                   tp=r.gpus_per_replica, monthly=fmt.money(r.monthly_cost, cur), mode=mode(r.billing, lang),
                   per_million=fmt.money(r.cost_per_million_tokens, cur))
    understood = [f"{term('label.model', lang)}: {model} · {str(inp.get('precision') or 'bf16').upper()}",
                  term("label.tokens_per_day", lang, tokens=per_day) + " · "
                  + term("label.latency", lang, ms=fmt.number(inp.get("tpot_ms")))]
    alternatives = []
    if r.fractional:
        key = "label.slice_short" if r.fractional.get("fits") is False else "label.slice"
        alternatives.append(term(key, lang, slice=fmt.pct(r.fractional.get("slice")),
                                 need=fmt.pct(max(r.fractional.get("share", 0), r.fractional.get("memory_share", 0))),
                                 monthly=fmt.money(r.fractional.get("monthly_cost"), cur)))
    alternatives += [term("label.serve_option", lang, count=o.gpu_count, gpu=o.gpu, replicas=o.replicas,
                          tp=o.gpus_per_replica, monthly=fmt.money(o.monthly_cost, cur)) for o in r.alternatives[:3]]
    fleet = common.pairs("fleet", term("label.serving_detail", lang), [
        ("serve.replicas", f"{r.replicas} × {r.gpus_per_replica}"), ("serve.batch", fmt.number(r.batch_per_replica)),
        ("serve.tps", fmt.number(r.tokens_per_second_per_gpu)), ("serve.weights", fmt.number(r.weights_gb, 1)),
        ("serve.capacity", fmt.number(r.capacity_tokens_per_day)),
        ("serve.gpu_hours", f"{fmt.number(r.gpu_hours_per_day)} / {fmt.number(r.gpu_hours_per_month)}")], lang)
    month = billing_table(r.billing_options, cur, lang)
    month.title = term("label.serving_month", lang)
    return View(summary=summary, headline=head, figures=figures, understood=understood, alternatives=alternatives,
                tables=[fleet, month])
