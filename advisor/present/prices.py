"""Price history -> view: the latest dated median against the first, the moves, the alerts."""

from __future__ import annotations

from advisor.glossary import term
from advisor.present import fmt
from advisor.present.view import Figure, Table, View
from advisor.tools.price_history import PriceHistoryReport


def present_history(r: PriceHistoryReport, lang: str) -> View:
    cur, pts = r.currency, r.points
    first, last = (pts[0], pts[-1]) if pts else (None, None)
    head = Figure("latest", term("label.latest_median", lang), fmt.money(last.median, cur) if last else "—",
                  range=last.month if last else None, raw=last.median if last else None)
    figures = [Figure("first", term("label.first_median", lang), fmt.money(first.median, cur), range=first.month,
                      raw=first.median)] if first and first is not last else []
    figures.append(Figure("alerts", term("label.price_alerts", lang), str(len(r.alerts)),
                          range=term("label.price_threshold", lang, p=fmt.pct(r.alert_threshold)), raw=float(len(r.alerts))))
    summary = (term("summary.history", lang, gpu=r.gpu, cur=cur, n=len(pts), first=first.month, last=last.month,
                    low=fmt.money(first.median, cur), high=fmt.money(last.median, cur), alerts=len(r.alerts),
                    p=fmt.pct(r.alert_threshold)) if first and last
               else term("summary.history_none", lang, gpu=r.gpu, cur=cur))
    table = Table("history", term("label.price_history", lang),
                  [term(f"col.{c}", lang) for c in ("month", "median", "p10", "p90", "offers", "providers")],
                  [[p.month, fmt.money(p.median, cur), fmt.money(p.low, cur), fmt.money(p.high, cur), str(p.offers),
                    ", ".join(p.providers)] for p in pts], numeric={1, 2, 3, 4},
                  data=[{"month": p.month, "median": p.median} for p in pts])
    moves = [term("label.price_move", lang, start=m["from"], end=m["to"], change=f"{m['change']:+.1%}") for m in r.moves]
    return View(summary=summary, headline=head, figures=figures, understood=[fmt.gpus(1, r.gpu, lang) + f" · {cur}"],
                alternatives=moves[-3:], tables=[table])
