"""Project plan -> view: the total with its range, each stage with its share."""

from __future__ import annotations

from advisor.glossary import mode, term
from advisor.present import common, fmt
from advisor.present.view import Figure, Table, View
from advisor.tools.plan import PlanReport


def present_plan(r: PlanReport, lang: str) -> View:
    cur = r.currency
    head = common.money_figure("total", "label.total", r.total, r.low, r.high, cur, lang)
    stages = sorted(r.stages, key=lambda s: -s.cost)
    figures = [Figure(f"stage.{s.stage}", term(f"stage.{s.stage}", lang), fmt.money(s.cost, cur), range=fmt.pct(s.share),
                      raw=s.cost) for s in stages[:3]]
    top = stages[0] if stages else None
    summary = term("summary.plan", lang, total=head.value, low=fmt.money(r.low, cur), high=fmt.money(r.high, cur),
                   n=len(r.stages), stage=term(f"stage.{top.stage}", lang) if top else "—",
                   share=fmt.pct(top.share) if top else "—")
    rows = [[term(f"stage.{s.stage}", lang), fmt.gpus(s.gpu_count, s.gpu, lang), fmt.number(s.gpu_hours),
             fmt.hours(s.wall_hours, lang), mode(s.billing, lang), fmt.money(s.cost, cur), fmt.pct(s.share)]
            for s in r.stages]
    table = Table("stages", f"{term('label.stages', lang)} ({cur})",
                  [term(f"col.{c}", lang) for c in ("stage", "gpu", "gpu_hours", "wall", "mode", "total", "share")], rows,
                  numeric={2, 5, 6},
                  data=[{"stage": term(f"stage.{s.stage}", lang), "cost": s.cost, "share": s.share,
                         "amount": fmt.money(s.cost, cur), "share_text": fmt.pct(s.share), "order": i}
                        for i, s in enumerate(r.stages)])
    inp = r.inputs
    understood = []
    if inp.get("model") or inp.get("params_b"):
        understood.append(f"{term('label.job', lang)}: " + common.model_name(inp, lang))
    understood.append(" · ".join(term(f"stage.{s.stage}", lang) for s in r.stages))
    alternatives = [term("label.stage_mode", lang, stage=term(f"stage.{s.stage}", lang), mode=mode(s.recommended_billing, lang))
                    for s in r.stages if s.recommended_billing and s.recommended_billing != s.billing]
    return View(summary=summary, headline=head, figures=figures, understood=understood, alternatives=alternatives,
                tables=[table])
