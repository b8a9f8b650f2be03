"""``advisor gpus`` and ``advisor prices``: list the GPU catalog and the price offers.

Only typer is imported at module load; the catalog (pydantic, yaml) and rich are imported
inside the commands so that other commands start fast.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

_UNCERTAIN = "≈"


def register(app: typer.Typer) -> None:
    """Add the ``gpus`` and ``prices`` commands to ``app``."""
    app.command("gpus", help="List the GPU catalog: memory, dense TFLOPS, power. GPU 规格表。")(
        gpus
    )
    app.command(
        "prices", help="List price offers, cheapest per GPU-hour first. 各云厂商 GPU 价格。"
    )(prices)


def gpus(
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON document")] = False,
) -> None:
    """Every card with its memory, dense BF16/FP8 TFLOPS and TDP; ≈ marks uncertain rows."""
    from advisor.catalog import get_catalog
    from advisor.cli.common import emit_json

    cards = get_catalog().gpus
    if as_json:
        emit_json({"count": len(cards), "gpus": [g.model_dump(mode="json") for g in cards]})
        return
    from rich.table import Table

    from advisor.cli.common import console

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


def prices(
    gpu: Annotated[
        str | None, typer.Option("--gpu", help="GPU name or alias, e.g. a100, 4090")
    ] = None,
    currency: Annotated[str | None, typer.Option("--currency", help="USD or CNY")] = None,
    provider: Annotated[
        str | None, typer.Option("--provider", help="provider id or name, e.g. runpod, 腾讯云")
    ] = None,
    prices_file: Annotated[
        str | None, typer.Option("--prices", help="your own price sheet (CSV); its rows win")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON document")] = False,
) -> None:
    """Offers matching the filters: negotiated (your sheet) first, then cheapest per GPU-hour."""
    from advisor.catalog import get_catalog
    from advisor.cli.common import emit_json
    from advisor.money import normalize_currency

    catalog = get_catalog(user_prices=prices_file)
    offers = catalog.offers(gpu=gpu, currency=currency, provider=provider)
    filters = {
        "gpu": catalog.gpu(gpu).id if gpu else None,
        "currency": normalize_currency(currency) if currency else None,
        "provider": catalog.provider_id(provider) if provider else None,
        "user_prices": str(catalog.user_prices) if catalog.user_prices else None,
    }
    if as_json:
        emit_json(
            {"filters": filters, "count": len(offers), "offers": [_offer_json(o) for o in offers]}
        )
        return
    _print_offers(offers, filters)


def _offer_json(offer: Any) -> dict[str, Any]:
    data = offer.model_dump(mode="json")
    data["per_gpu_hour"] = offer.per_gpu_hour
    data["price_basis"] = offer.price_basis
    return data


def _print_offers(offers: list[Any], filters: dict[str, Any]) -> None:
    from rich.table import Table

    from advisor.cli.common import console
    from advisor.money import format_money

    shown = ", ".join(f"{k}={v}" for k, v in filters.items() if v) or "all offers"
    table = Table(title=f"Price offers ({shown}); instance prices, ranked per GPU-hour")
    columns = [
        "provider",
        "sku",
        *([] if filters.get("gpu") else ["gpu"]),
        "×",
        "/GPU-h",
        "on-dem/h",
        "spot/h",
        "monthly",
        "as of",
    ]
    numeric = {"×", "/GPU-h", "on-dem/h", "spot/h", "monthly"}
    for header in columns:
        table.add_column(
            header,
            justify="right" if header in numeric else "left",
            no_wrap=True,
            overflow="ellipsis",
            min_width=max(2, len(header)) if header in numeric else 3,
            max_width={"sku": 24, "as of": 12, "provider": 16}.get(header),
        )
    for o in offers:
        per_gpu = o.per_gpu_hour
        cells = {
            "provider": o.provider + (" *" if o.negotiated else ""),
            "sku": o.sku,
            "gpu": o.gpu,
            "×": str(o.gpu_count),
            "/GPU-h": format_money(per_gpu, o.currency, 3) if per_gpu is not None else "–",
            "on-dem/h": _num(o.on_demand_per_hour, 2),
            "spot/h": _num(o.spot_per_hour, 2),
            "monthly": _num(o.monthly, 0),
            "as of": o.as_of,
        }
        table.add_row(*(cells[c] for c in columns))
    out = console()
    out.print(table)
    out.print(
        f"{len(offers)} offer(s); * = your negotiated price. Sources: `advisor prices --json`."
    )


def _num(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:,.0f}"
