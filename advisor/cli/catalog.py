"""``advisor gpus`` and ``advisor prices``: list the GPU catalog and the price offers.

Only typer and modules every command loads are imported at module load; the catalog and
rich are imported inside the commands so that other commands start fast.
"""

from __future__ import annotations

from argparse import Namespace
from typing import Any

import typer

from advisor.cli import args as A
from advisor.cli.common import console, emit_json
from advisor.glossary import bilingual
from advisor.money import CURRENCIES, format_money, normalize_currency

_UNCERTAIN = "≈"


def register(app: typer.Typer) -> None:
    """Add the ``gpus`` and ``prices`` commands to ``app`` (flags and help in options.yaml)."""
    A.command(app, "gpus", gpus)
    A.command(app, "prices", prices)


def gpus(ns: Namespace) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.catalog import get_catalog

    cards = get_catalog().gpus
    if ns.json:
        emit_json({"count": len(cards), "gpus": [g.model_dump(mode="json") for g in cards]})
        return
    from rich.table import Table

    table = Table(title="GPU catalog (dense peak throughput; ≈ = uncertain figures)")
    for header in ("id", "memory GB", "BF16 TFLOPS", "FP8 TFLOPS", "TDP W", "tier", ""):
        table.add_column(
            header, justify="right" if header.endswith(("GB", "TFLOPS", "W")) else "left"
        )
    for g in cards:
        table.add_row(
            g.id,
            _num(g.memory_gb),
            _num(g.bf16_tflops),
            _num(g.fp8_tflops),
            _num(g.tdp_w),
            g.tier,
            _UNCERTAIN if g.uncertain else "",
        )
    console().print(table)


def prices(ns: Namespace) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.catalog import get_catalog
    from advisor.catalog.market import market_table

    gpu, currency, provider, mode, prices_file = ns.gpu, ns.currency, ns.provider, ns.mode, ns.prices_file
    if ns.history:
        from advisor.cli.render import show
        from advisor.tools.price_history import price_history

        report = price_history(ns.history, currency, prices_file=prices_file, lang=ns.lang)
        emit_json(report) if ns.json else show("price_history", report)
        return
    catalog = get_catalog(user_prices=prices_file)
    offers = catalog.offers(gpu=gpu, currency=currency, provider=provider)
    filters = {
        "gpu": catalog.gpu(gpu).id if gpu else None,
        "currency": normalize_currency(currency) if currency else None,
        "provider": catalog.provider_id(provider) if provider else None,
        "mode": mode,
        "user_prices": str(catalog.user_prices) if catalog.user_prices else None,
    }
    cards = [filters["gpu"]] if filters["gpu"] else [g.id for g in catalog.gpus]
    currencies = [filters["currency"]] if filters["currency"] else list(CURRENCIES)
    markets = [m for cur in currencies for m in market_table(catalog, cur, mode, gpus=cards)]
    if ns.json:
        emit_json(
            {
                "filters": filters,
                "markets": [m.model_dump(mode="json") for m in markets],
                "count": len(offers),
                "offers": [_offer_json(o) for o in offers],
            }
        )
        return
    _print_markets(markets, mode)
    if filters["gpu"]:
        _print_behind(markets)
    if filters["gpu"] or filters["provider"]:
        _print_offers(offers, filters)


def _fill(table: Any, headers: list[str], rows: list[list[str]], numeric: set[str], fold: bool = True) -> Any:
    """``table`` with its columns and rows. Numeric columns are right-aligned and never cut (as
    wide as their widest value); text columns fold (or, ``fold=False``, end in an ellipsis) and
    dates stay on one line."""
    for i, header in enumerate(headers):
        if header in numeric:
            width = max([len(header), *(len(r[i]) for r in rows)])
            table.add_column(header, justify="right", no_wrap=True, min_width=width)
        else:
            table.add_column(header, overflow="fold" if fold else "ellipsis", no_wrap=not fold or header == "as of")
    for r in rows:
        table.add_row(*r)
    return table


def _print_markets(markets: list[Any], mode: str) -> None:
    out = console()
    table = _table(bilingual("catalog.cli.market", mode=mode.replace("_", "-")))
    rows = []
    for m in markets:
        ratio = "" if m.ratio_to_on_demand is None else f"{m.ratio_to_on_demand:.2f}"
        note = ("P" if m.fallback else "") + ("S" if m.stale else "")
        rows.append(
            [
                m.gpu,
                m.currency,
                str(m.offers),
                format_money(m.p10, m.currency, 2),
                format_money(m.median, m.currency, 2),
                format_money(m.p90, m.currency, 2),
                ratio,
                _span(m),
                note,
            ]
        )
    headers = ["card", "cur", "n", "p10", "median", "p90", "×OD", "as of", ""]
    out.print(_fill(table, headers, rows, {"n", "p10", "median", "p90", "×OD"}, fold=False))
    out.print(
        "n = providers (one offer each); ×OD = median per-provider ratio to on-demand; "
        "P = pooled (fewer providers than market.min_offers: equivalent card and/or the other "
        "currency's offers converted, see --json `fallback`); S = stale rows "
        "(market.stale_after_months); u = undated rows. 无日期=u，P=合并了等效卡或换算报价，S=报价过时。"
    )


def _print_behind(markets: list[Any]) -> None:
    # lazy: a --json command loads no presenter
    from advisor.present.fmt import text_of

    out = console()
    for m in markets:
        table = _table(bilingual("catalog.cli.behind", gpu=m.gpu, currency=m.currency, mode=m.mode.replace("_", "-")))
        rows = [
            [
                r.provider,
                r.sku,
                r.gpu if r.equivalent else "",
                str(r.gpu_count),
                format_money(r.price, m.currency, 3),
                (f"{r.native_price:,.3f} {r.native_currency}" if r.converted else ""),
                r.as_of + (" S" if r.stale else ""),
            ]
            for r in m.rows
        ]
        headers = ["provider", "sku", "as card", "×", "/GPU-h", "from", "as of"]
        out.print(_fill(table, headers, rows, {"×", "/GPU-h", "from"}))
        out.print(f"  sheet: {m.sheets}")
        for line in (m.fallback, m.kinds()):
            if line:
                out.print(f"  {text_of(line, 'en')}")


def _offer_json(offer: Any) -> dict[str, Any]:
    data = offer.model_dump(mode="json")
    data["per_gpu_hour"] = offer.per_gpu_hour
    data["price_basis"] = offer.price_basis
    return data


def _print_offers(offers: list[Any], filters: dict[str, Any]) -> None:
    shown = ", ".join(f"{k}={v}" for k, v in filters.items() if v and k != "mode") or "all offers"
    table = _table(bilingual("catalog.cli.offers", shown=shown))
    columns = [
        "provider",
        "sku",
        *([] if filters.get("gpu") else ["gpu"]),
        "×",
        "/GPU-h",
        "spot",
        "month",
        "as of",
    ]
    numeric = {"×", "/GPU-h", "spot", "month"}
    rows = []
    for o in offers:
        per_gpu = o.per_gpu_hour
        rows.append({
            "provider": o.provider + (" *" if o.negotiated else "") + (" (heavy host)" if o.host else ""),
            "sku": o.sku,
            "gpu": o.gpu,
            "×": str(o.gpu_count),
            "/GPU-h": format_money(per_gpu, o.currency, 3) if per_gpu is not None else "–",
            "spot": _per(o, "spot", 3),
            "month": _per(o, "monthly", 0, hours=730),
            "as of": o.as_of,
        })
    out = console()
    out.print(_fill(table, columns, [[r[c] for c in columns] for r in rows], numeric))
    out.print(
        f"{len(offers)} offer(s); * = your negotiated price. Sources: `advisor prices --json`."
    )


def _table(title: str) -> Any:
    from rich import box
    from rich.table import Table

    return Table(title=title, box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True, pad_edge=False)


def _span(m: Any) -> str:
    """``2023-06..2026-09 +1u``: the month range of the dated rows and the undated count."""
    dated = sorted(r.as_of[:7] for r in m.rows if r.as_of != "unknown")
    span = (dated[0] if dated[0] == dated[-1] else f"{dated[0]}..{dated[-1]}") if dated else ""
    undated = len(m.rows) - len(dated)
    return (f"{span} +{undated}u" if span else f"{undated}u") if undated else span


def _per(offer: Any, billing: str, digits: int, hours: float = 1.0) -> str:
    value = offer.per_gpu_hour_for(billing)
    return "–" if value is None else format_money(value * hours, offer.currency, digits)


def _num(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:,.0f}"
