"""Hardware recommendation -> view: cheapest and fastest, the options table, the Pareto front."""

from __future__ import annotations

from advisor.glossary import mode, term
from advisor.present import common, fmt
from advisor.present.view import Figure, Table, View
from advisor.tools.recommend import Option, RecommendReport


def option_line(o: Option, lang: str) -> str:
    return term("label.option_line", lang, count=o.gpu_count, gpu=o.gpu, mode=mode(o.billing, lang),
                total=fmt.money(o.total, o.currency), wall=fmt.hours(o.wall_hours, lang))


def offer_line(o: Option, lang: str) -> str:
    """The cheapest concrete offer behind an option (provider, SKU, price, date), and a word when
    the option's count is not known to be rentable."""
    if not o.offers:
        text = term("label.offer_none", lang)
    else:
        f = o.offers[0]
        date = f.as_of if f.as_of and f.as_of != "unknown" else term("label.date_unknown", lang)
        text = term("label.offer_ref", lang, provider=f.provider, sku=f.sku, price=fmt.money(f.price_per_gpu_hour, f.currency),
                    converted=term("label.offer_converted", lang) if f.converted else "", date=date)
    if not o.within_known_capacity:
        text += f"; {term('label.capacity_unknown', lang)}"
    return text


def _table(key: str, title: str, options: list[Option], lang: str, offers: bool = True) -> Table:
    cols = ["gpu", "count", "precision", "mode", "total", "wall", "memory", *(["offer"] if offers else [])]
    rows = [[o.gpu, str(o.gpu_count), o.precision.upper(), mode(o.billing, lang), fmt.money(o.total, o.currency),
             fmt.hours(o.wall_hours, lang), f"{fmt.number(o.per_gpu_gb, 1)} / {fmt.number(o.gpu_memory_gb)}",
             *([offer_line(o, lang)] if offers else [])]
            for o in options]
    data = [{"gpu": o.gpu, "count": o.gpu_count, "label": fmt.gpus(o.gpu_count, o.gpu, lang), "mode": mode(o.billing, lang),
             "total": o.total, "wall_hours": o.wall_hours,
             "offer": o.offers[0].model_dump() if o.offers else None,
             "within_known_capacity": o.within_known_capacity} for o in options]
    return Table(key, title, [term(f"col.{c}", lang) for c in cols], rows, numeric={1, 4}, data=data,
                 values={"wall": f"{term('col.wall', lang)} (h)"})


def _none_fits(r: RecommendReport, cur: str, lang: str) -> str:
    """Why no option is left: the budget, when it alone rules out setups that do the job in time."""
    over, budget = r.excluded.get("over_budget", 0), r.inputs.get("budget")
    if over and budget:
        return term("summary.recommend_over_budget", lang, n=over, budget=fmt.money(budget, cur))
    return term("summary.recommend_none", lang, n=r.evaluated)


def present_recommend(r: RecommendReport, lang: str) -> View:
    cur = r.cheapest.currency if r.cheapest else str(r.inputs.get("currency") or "USD")
    if r.cheapest:
        head = Figure("total", term("label.cheapest_option", lang), fmt.money(r.cheapest.total, cur),
                      note=f"{option_line(r.cheapest, lang)} · {offer_line(r.cheapest, lang)}", raw=r.cheapest.total)
    else:
        head = Figure("total", term("label.cheapest_option", lang), "—")
    figures = []
    if r.fastest:
        figures.append(Figure("fastest", term("label.fastest_option", lang), fmt.hours(r.fastest.wall_hours, lang),
                              note=f"{option_line(r.fastest, lang)} · {offer_line(r.fastest, lang)}",
                              raw=r.fastest.wall_hours))
    figures.append(Figure("evaluated", term("label.evaluated", lang), fmt.number(r.evaluated),
                          range=term("label.evaluated_value", lang, n=r.evaluated, f=r.feasible), raw=float(r.evaluated)))
    summary = (term("summary.recommend", lang, cheapest=option_line(r.cheapest, lang), fastest=option_line(r.fastest, lang))
               if r.cheapest and r.fastest else _none_fits(r, cur, lang))
    understood = common.job_lines(r.inputs, lang)
    shown = {(o.gpu, o.gpu_count, o.precision, o.billing) for o in (r.cheapest, r.fastest) if o is not None}
    alternatives = [option_line(o, lang) for o in r.pareto if (o.gpu, o.gpu_count, o.precision, o.billing) not in shown][:3]
    tables = [_table("options", term("label.options", lang), r.options, lang),
              _table("pareto", term("label.pareto", lang), r.pareto, lang, offers=False)]
    return View(summary=summary, headline=head, figures=figures, understood=understood, alternatives=alternatives,
                tables=tables, priced=common.price_line(r.assumptions, lang, r.cheapest.gpu if r.cheapest else None))
