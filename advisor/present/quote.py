"""Quote check -> view: the quote per GPU-hour against the market, the verdict, what to ask for."""

from __future__ import annotations

from advisor.glossary import mode, term
from advisor.present import fmt
from advisor.present.view import Figure, Table, View
from advisor.tools.quote import QuoteReport


def present_quote(r: QuoteReport, lang: str) -> View:
    cur, m, inp = r.currency, r.market, r.inputs
    n = int(inp.get("gpu_count") or 1)
    verdict = term(f"verdict.{r.verdict}", lang)
    head = Figure("price", term("label.quote_price", lang), fmt.money(r.price_per_gpu_hour, cur), raw=r.price_per_gpu_hour)
    rng = term("label.market_range", lang, p10=fmt.money(m.p10, cur), p90=fmt.money(m.p90, cur))
    figures = [
        Figure("verdict", term("label.quote_verdict", lang), verdict, raw=r.premium_share),
        Figure("median", term("label.market_median", lang), fmt.money(m.median, cur), range=rng, raw=m.median),
        Figure("target", term("label.target_price", lang), fmt.money(r.target_price, cur),
               range=term("label.target_saving", lang, amount=fmt.money(r.saving_per_month_at_target, cur)),
               raw=r.target_price),
        Figure("monthly", term("label.monthly_total", lang), fmt.money(r.monthly_total, cur), raw=r.monthly_total),
    ]
    gpus = fmt.gpus(n, r.gpu, lang)
    summary = term("summary.quote", lang, price=fmt.money(r.price_per_gpu_hour, cur), gpus=gpus, verdict=verdict,
                   median=fmt.money(m.median, cur), p10=fmt.money(m.p10, cur), p90=fmt.money(m.p90, cur), offers=m.offers,
                   target=fmt.money(r.target_price, cur))
    unit = term(f"unit.{inp.get('unit') or 'gpu_hour'}", lang)
    said = [term("label.quote_unit", lang, price=fmt.money(inp.get("price"), cur), unit=unit), gpus]
    if inp.get("term_months"):
        said.append(term("label.quote_term", lang, n=fmt.number(inp["term_months"])))
    if float(inp.get("utilization") or 1) < 1:
        said.append(term("label.quote_util", lang, p=fmt.pct(inp.get("utilization"))))
    understood = [" · ".join(said), term("label.quote_compute", lang, compute=fmt.money(r.compute_per_gpu_hour, cur),
                                          used=fmt.money(r.per_used_gpu_hour, cur))]
    notes = [fmt.text_of(m.fallback, lang)] if m.fallback else []
    if m.term_adjustment is not None:
        notes.append(term("label.quote_term_fallback", lang, mode=mode(m.mode, lang), gpu=r.gpu,
                          factor=fmt.number(m.term_adjustment, 2)))
    alternatives = []
    if r.lock:
        gain = float(r.lock.get("expected_saving") or 0)
        alternatives.append(term("label.lock.gain" if gain >= 0 else "label.lock.cost", lang, months=r.lock.get("months"),
                                 amount=fmt.money(abs(gain), cur),
                                 chance=fmt.pct(r.lock.get("probability_above_at_end"))))
    dates = f"{fmt.date(m.as_of_min)} – {fmt.date(m.as_of_max)}" if m.as_of_min or m.as_of_max else "—"
    market = Table("market", term("label.market", lang),
                   [term(f"col.{c}", lang) for c in ("mode", "p10", "median", "p90", "offers", "dates")],
                   [[mode(m.mode, lang), fmt.money(m.p10, cur), fmt.money(m.median, cur), fmt.money(m.p90, cur),
                     str(m.offers), dates]], numeric={1, 2, 3, 4})
    return View(summary=summary, headline=head, figures=figures, understood=understood, notes=notes, alternatives=alternatives,
                tables=[market])
