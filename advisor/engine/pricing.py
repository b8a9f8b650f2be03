"""Which price per GPU-hour an estimate uses, and the term, spot and daily prices around it.

Order of preference: a price given in the request; a negotiated price from the user's sheet;
the list prices of one named provider; otherwise the market model
(:mod:`advisor.catalog.market`): the median over providers of each provider's cheapest
per-GPU offer, spot and term prices from per-provider ratios.

Which market prices a currency (``market``): ``"local"`` uses that currency's offers,
``"convert"`` keeps the other currency's offers and converts them at the dated rate of
``knowledge/catalog/fx.yaml``. Without one, the market follows the question's language
(``market.default_currency_by_lang``), and the report says which it used.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from advisor.catalog.market import MarketStats, find_market, without_hashes
from advisor.engine.params import Params
from advisor.errors import AdvisorError, InputError
from advisor.money import CURRENCIES, convert
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR


@dataclass(frozen=True)
class Quote:
    """Per-GPU prices in one currency. Term prices are per GPU per hour of the term."""

    currency: str
    on_demand: float
    spot: float
    daily: float
    monthly: float
    yearly: float
    increment_s: float
    source: str
    provider: str | None = None
    offers: int = 0
    low: float | None = None
    high: float | None = None
    negotiated: bool = False
    offpeak_discount: float | None = None  # only when a provider publishes one or the user states it
    storage_per_gb_month: float | None = None  # the provider's own, when one provider is named
    egress_per_gb: float | None = None
    market: MarketStats | None = None  # the market behind a list-price quote (its own currency)
    stale: bool = False


def _per_gpu(offer: Any, amount: float | None) -> float | None:
    if amount is None:
        return None
    count = max(int(getattr(offer, "gpu_count", 1) or 1), 1)
    return float(amount) / count


def _to(amount: float, src: str, dst: str, fx: Any) -> float:
    return convert(amount, src, dst, fx)  # type: ignore[arg-type]


def _median(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None and v > 0]
    return float(statistics.median(vals)) if vals else None


_REMARK = re.compile(r"\s*[(（][^)）]*[)）]")  # a price sheet's remark after a SKU name


def _dated(as_of: str) -> dict[str, str] | str:
    """An offer's date (a word reference when the offer is undated)."""
    return {"term": "value.undated"} if as_of in ("", "unknown") else as_of


def note_fx(p: Params, fx: Any) -> None:
    p.note("fx.rate", f"1 {fx.base} = {fx.rate} {fx.quote}", f"{fx.source}, as of {fx.as_of}", key="source.fx.rate",
           as_of=fx.as_of)


def note_market(p: Params, home: str, choice: str, currency: str, why: str) -> None:
    """Which market priced the report: ``price.market`` with its value and source readable in both languages."""
    p.note("price.market", f"{choice}: {home} offers" + ("" if home == currency else f" converted to {currency}"), why,
           key="source.price.market.request" if why.startswith("request") else "source.price.market.default",
           choice=choice, home=home, currency=currency)


def resolve_market(catalog: Any, currency: str, market: str | None, lang: str = "en") -> tuple[str, str, str]:
    """(market currency, "local" | "convert", why) for pricing ``currency``."""
    other = next(c for c in CURRENCIES if c != currency)
    if market == "local":
        return currency, "local", f"request: the {currency} market (local offers)"
    if market == "convert":
        return other, "convert", f"request: {other} offers converted to {currency} at the dated rate"
    if market is not None:
        raise InputError("market", market, "'local' (that currency's offers) or 'convert' (converted offers)")
    entry = catalog.defaults.get("market.default_currency_by_lang")
    home = str(entry.value.get(lang, entry.value.get("en", currency)))
    choice = "local" if home == currency else "convert"
    why = f"default for a question in {lang!r}: the {home} market ({entry.source})"
    return home, choice, why


def quote(
    catalog: Any,
    gpu_id: str,
    currency: str,
    p: Params,
    *,
    provider: str | None = None,
    price_per_gpu_hour: float | None = None,
    offpeak_discount: float | None = None,
    market: str | None = None,
    lang: str = "en",
) -> Quote:
    """The prices an estimate uses for ``gpu_id`` in ``currency``; records them in ``p``.
    ``offpeak_discount`` is a night discount the user has been offered (0-1); ``market``
    is ``"local"`` / ``"convert"`` / None (follow ``lang``). Memoized per catalog, inputs and
    day, with what it records (replayed into ``p``) or the error it raised."""
    if p.defaults is not catalog.defaults:  # layered defaults (the decision tools) are read through
        return _priced(catalog, gpu_id, currency, p, provider, price_per_gpu_hour, offpeak_discount, market, lang)
    memo = catalog.memo("quote")
    key = (gpu_id, currency, provider, price_per_gpu_hour, offpeak_discount, market, lang, date.today())
    hit = memo.get(key)
    if hit is None:
        sub = Params(catalog.defaults)
        try:
            hit = (_priced(catalog, gpu_id, currency, sub, provider, price_per_gpu_hour, offpeak_discount, market,
                           lang), sub.assumptions())
        except AdvisorError as exc:
            hit = (exc, [])
        memo[key] = hit
    if isinstance(hit[0], AdvisorError):
        raise hit[0].with_traceback(None)
    p.replay(hit[1])
    return hit[0]  # type: ignore[no-any-return]


def _priced(catalog: Any, gpu_id: str, currency: str, p: Params, provider: str | None,
            price_per_gpu_hour: float | None, offpeak_discount: float | None, market: str | None, lang: str) -> Quote:
    if price_per_gpu_hour is not None:
        if price_per_gpu_hour <= 0:
            raise InputError("price_per_gpu_hour", price_per_gpu_hour, "a positive price per GPU-hour")
        q = _with_default_terms(
            p, currency, float(price_per_gpu_hour), source="request (price per GPU-hour given)", provider=provider
        )
    elif market is not None and market not in ("local", "convert"):
        raise InputError("market", market, "'local' (that currency's offers) or 'convert' (converted offers)")
    elif provider or any(o.negotiated and o.on_demand_per_hour for o in catalog.offers(gpu=gpu_id)):
        q = _sheet_quote(catalog, gpu_id, currency, p, provider=provider)
    else:
        q = _market_quote(catalog, gpu_id, currency, p, market=market, lang=lang)
    if offpeak_discount is not None:
        if not 0 <= offpeak_discount < 1:
            raise InputError("offpeak_discount", offpeak_discount, "a share between 0 and 1, e.g. 0.4")
        p.note("offpeak_discount", offpeak_discount, "request (night discount offered to the user)")
        q = replace(q, offpeak_discount=float(offpeak_discount))
    return q


def _market_quote(catalog: Any, gpu_id: str, currency: str, p: Params, *, market: str | None, lang: str) -> Quote:
    home, choice, why = resolve_market(catalog, currency, market, lang)
    m = find_market(gpu_id, home, "on_demand", catalog=catalog)
    if m is None:
        raise InputError("gpu", gpu_id, "a card with a list price, or give price_per_gpu_hour (CLI: --price)")
    fx = None if home == currency else catalog.fx
    k = _to(1.0, home, currency, fx)
    ratios = {mode: _market_ratio(gpu_id, home, mode, catalog) for mode in ("spot", "monthly", "yearly")}
    source = (f"list prices: {gpu_id} {home} on-demand market, median of {m.offers} provider(s) ({', '.join(m.providers[:8])}),"
              f" sheet {m.sheets}, price dates {m.span}")
    described: dict[str, Any] = {"market": m.words(), "rate": ""}
    if fx is not None:
        source += f"; converted to {currency} at {fx.rate} ({fx.as_of}, 1 {fx.base} = {fx.rate} {fx.quote}, {fx.source})"
        described["rate"] = f"1 {fx.base} = {fx.rate} {fx.quote} ({fx.as_of})"
        note_fx(p, fx)
    note_market(p, home, choice, currency, why)
    cheapest = m.cheapest
    p.note(
        "price.cheapest_offer",
        f"{cheapest.provider} {_REMARK.sub('', cheapest.sku)}".strip() + f" {cheapest.price * k:.2f}",
        f"{cheapest.citation}; as of {without_hashes(cheapest.as_of)}",
        unit=f"{currency} per GPU-hour", key="source.price.cheapest_offer", provider=cheapest.provider,
        as_of=_dated(without_hashes(cheapest.as_of)), sku=_REMARK.sub("", cheapest.sku).strip(),
        price=f"{cheapest.price * k:.2f}",
    )
    p.note("price.as_of", m.span, f"price dates of the {m.offers} offer(s) behind the {home} median",
           key="source.price.as_of", n=m.offers, home=home, dates=m.dates())
    if m.stale:
        p.note(
            "price.stale",
            ", ".join(m.stale_providers),
            f"offers dated more than {m.stale_after_months} months ago (market.stale_after_months)",
            key="source.price.stale", months=m.stale_after_months,
        )
    spot = ratios["spot"]
    monthly = 1 - ratios["monthly"] if ratios["monthly"] is not None else None
    yearly = 1 - ratios["yearly"] if ratios["yearly"] is not None else None
    increments = [
        float(catalog.providers[pid].billing_increment_s.value)
        for pid in m.providers
        if pid in catalog.providers and catalog.providers[pid].billing_increment_s is not None
    ]
    q = _with_default_terms(
        p,
        currency,
        m.median * k,
        source=source,
        provider=None,
        spot_ratio=spot,
        spot_source=f"median over providers of each provider's spot / on-demand price for {gpu_id} ({home} market)",
        described=described,
        monthly_discount=monthly,
        yearly_discount=yearly,
        increment_s=statistics.median_low(increments) if increments else None,
        offers=m.offers,
        low=m.p10 * k,
        high=m.p90 * k,
    )
    return replace(q, market=m, stale=m.stale)


def _market_ratio(gpu_id: str, currency: str, mode: str, catalog: Any) -> float | None:
    """Per-provider ratio to on-demand for ``mode``, summarised; None when no provider lists
    both or the ratio is not a discount (a sheet error the data tests catch)."""
    found = find_market(gpu_id, currency, mode, catalog=catalog)
    ratio = found.ratio_to_on_demand if found is not None else None
    return ratio if ratio is not None and 0 < ratio < 1 else None


def _sheet_quote(catalog: Any, gpu_id: str, currency: str, p: Params, *, provider: str | None) -> Quote:
    """A named provider's own list prices, or the user's negotiated sheet."""
    offers = [o for o in catalog.offers(gpu=gpu_id) if getattr(o, "on_demand_per_hour", None)]
    terms = None
    if provider:
        pid = catalog.provider_id(provider)  # UnknownNameError with close matches
        offers = [o for o in offers if o.provider == pid]
        if not offers:
            with_gpu = sorted({o.provider for o in catalog.offers(gpu=gpu_id)})
            raise InputError("provider", provider, f"a provider that lists {gpu_id}: {', '.join(with_gpu) or 'none'}")
        terms = catalog.providers.get(pid)
    negotiated = [o for o in offers if getattr(o, "negotiated", False)]
    if negotiated:
        offers = negotiated
    if not offers:
        raise InputError(
            "gpu", gpu_id, "a card with a list price, or give price_per_gpu_hour (CLI: --price)",
        )
    same = [o for o in offers if o.currency == currency]
    pool = same or offers
    fx = None if same else catalog.fx

    def money(o: Any, amount: float | None) -> float | None:
        v = _per_gpu(o, amount)
        return None if v is None else _to(v, o.currency, currency, fx)

    by_provider: dict[str, float] = {}
    for o in pool:
        v = money(o, o.on_demand_per_hour)
        if v and v > 0 and (o.provider not in by_provider or v < by_provider[o.provider]):
            by_provider[o.provider] = v
    on_demand = _median(by_provider.values())
    assert on_demand is not None
    spot_ratio = _median(
        (money(o, o.spot_per_hour) or 0) / money(o, o.on_demand_per_hour)  # type: ignore[operator]
        for o in pool
        if getattr(o, "spot_per_hour", None)
    )
    if spot_ratio is not None and spot_ratio >= 1:
        spot_ratio = None
    monthly_disc = _median(
        1 - (money(o, o.monthly) or 0) / HOURS_PER_MONTH / money(o, o.on_demand_per_hour)  # type: ignore[operator]
        for o in pool
        if getattr(o, "monthly", None)
    )
    yearly_disc = _median(
        1 - (money(o, o.yearly) or 0) / HOURS_PER_YEAR / money(o, o.on_demand_per_hour)  # type: ignore[operator]
        for o in pool
        if getattr(o, "yearly", None)
    )
    increments = [float(o.billing_increment_s) for o in pool if getattr(o, "billing_increment_s", None)]
    providers = sorted(by_provider)
    kind = "negotiated_sheet" if negotiated else "list_prices"
    dates = sorted({o.as_of or "unknown" for o in pool})
    sheets = ", ".join(sorted({o.sheet for o in pool if o.sheet}))
    names = f"{', '.join(providers[:6])}{'…' if len(providers) > 6 else ''}"
    source = (
        f"{kind.replace('_', ' ')} ({sheets}): median of the cheapest per-GPU on-demand offer of {len(providers)} provider(s) "
        f"({names}); as of {', '.join(dates[:3])}"
    )
    when = [{"term": "label.date_unknown"} if d == "unknown" else d for d in (without_hashes(d) for d in dates[:3])]
    cited = {"kind": {"term": f"value.{kind}"}, "sheets": sheets, "n": len(providers), "providers": names,
             "dates": {"join": "chat.list_sep", "parts": when}}
    if fx is not None:
        source += f"; converted to {currency} at {fx.rate} ({fx.as_of}, {fx.source})"
        note_fx(p, fx)
    if terms is not None:
        spot_ratio, monthly_disc, yearly_disc = _provider_terms(terms, p, spot_ratio, monthly_disc, yearly_disc)
    q = _with_default_terms(
        p,
        currency,
        on_demand,
        source=source,
        provider=provider,
        spot_ratio=spot_ratio,
        monthly_discount=monthly_disc,
        yearly_discount=yearly_disc,
        increment_s=statistics.median_low(increments) if increments else None,
        offers=len(pool),
        low=min(by_provider.values()),
        high=max(by_provider.values()),
        negotiated=bool(negotiated),
        cited=cited,
    )
    if terms is not None:
        q = _provider_storage(q, terms, catalog, p)
        if terms.offpeak_discounts:
            best = min(terms.offpeak_discounts, key=lambda d: d.multiplier)
            q = replace(q, offpeak_discount=1 - float(best.multiplier))
            p.note("offpeak_discount", round(1 - float(best.multiplier), 3), f"{terms.name} {best.hours}: {best.source}",
                   key="source.provider_terms", provider=terms.name)
    return q


def _provider_terms(
    terms: Any, p: Params, spot: float | None, monthly: float | None, yearly: float | None
) -> tuple[float | None, float | None, float | None]:
    """A named provider's published spot multiplier and term discounts win over the medians."""
    if terms.spot_multiplier is not None:
        spot = float(terms.spot_multiplier.value)
        p.note("spot_ratio", spot, f"{terms.name}: {terms.spot_multiplier.source}", key="source.provider_terms",
               provider=terms.name)
    for t in terms.term_discounts:
        if t.months == 1 and not t.upper_bound:
            monthly = 1 - float(t.multiplier)
            p.note("monthly_discount", round(monthly, 3), f"{terms.name} {t.label}: {t.source}",
                   key="source.provider_terms", provider=terms.name)
        elif t.months == 12 and not t.upper_bound:
            yearly = 1 - float(t.multiplier)
            p.note("yearly_discount", round(yearly, 3), f"{terms.name} {t.label}: {t.source}",
                   key="source.provider_terms", provider=terms.name)
    return spot, monthly, yearly


def _provider_storage(q: Quote, terms: Any, catalog: Any, p: Params) -> Quote:
    """Storage and egress prices from the provider's terms, converted to the quote's currency."""
    updates: dict[str, Any] = {}
    for name in ("storage_per_gb_month", "egress_per_gb"):
        value = getattr(terms, name)
        if value is None:
            continue
        amount = float(value.value)
        if terms.currency != q.currency:
            amount = _to(amount, terms.currency, q.currency, catalog.fx)
        updates[name] = amount
        p.note(f"{name}", round(amount, 4), f"{terms.name}: {value.source}", unit=q.currency,
               key="source.provider_terms", provider=terms.name)
    return replace(q, **updates) if updates else q


def _with_default_terms(
    p: Params,
    currency: str,
    on_demand: float,
    *,
    source: str,
    provider: str | None,
    spot_ratio: float | None = None,
    spot_source: str = "median spot / on-demand ratio of the same offers",
    monthly_discount: float | None = None,
    yearly_discount: float | None = None,
    increment_s: float | None = None,
    offers: int = 0,
    low: float | None = None,
    high: float | None = None,
    negotiated: bool = False,
    described: dict[str, Any] | None = None,
    cited: dict[str, Any] | None = None,
) -> Quote:
    if source.startswith("request"):
        p.note("price_per_gpu_hour", round(on_demand, 4), source, unit=f"{currency} per GPU-hour")
    elif described is not None:
        p.note("price_per_gpu_hour", round(on_demand, 4), source, unit=f"{currency} per GPU-hour",
               key="source.price_per_gpu_hour.market" + (".converted" if described.get("rate") else ""),
               **described)
    else:
        p.note("price_per_gpu_hour", round(on_demand, 4), source, unit=f"{currency} per GPU-hour",
               key="source.price_per_gpu_hour.sheet", **(cited or {"n": offers}))
    same = "source.same_offers" if described is not None or not source.startswith("request") else None
    if spot_ratio is None:
        spot_ratio = float(p("billing.spot_ratio"))
    else:
        p.note("spot_ratio", round(spot_ratio, 3), spot_source, key=same)
    if monthly_discount is None or not 0 < monthly_discount < 0.9:
        monthly_discount = float(p("billing.monthly_discount"))
    else:
        p.note("monthly_discount", round(monthly_discount, 3), "median monthly discount of the same offers", key=same)
    if yearly_discount is None or not 0 < yearly_discount < 0.9:
        yearly_discount = max(float(p("billing.yearly_discount")), monthly_discount)
    else:
        p.note("yearly_discount", round(yearly_discount, 3), "median yearly discount of the same offers", key=same)
    if increment_s is None:
        increment_s = float(p("billing.increment_s"))
    else:
        p.note("billing.increment_s", increment_s, "median billing increment of the same offers", unit="seconds",
               key=same)
    return Quote(
        currency=currency,
        on_demand=on_demand,
        spot=on_demand * spot_ratio,
        daily=on_demand * (1 - float(p("billing.daily_discount"))),
        monthly=on_demand * (1 - monthly_discount),
        yearly=on_demand * (1 - yearly_discount),
        increment_s=float(increment_s),
        source=source,
        provider=provider,
        offers=offers,
        low=low,
        high=high,
        negotiated=negotiated,
    )


def cached_quote(
    catalog: Any, gpu_id: str, currency: str, market: str | None = None, lang: str = "en"
) -> Quote | None:
    """List-price quote for sweeps (None when the card has no price)."""
    try:
        return quote(catalog, gpu_id, currency, Params(catalog.defaults), market=market, lang=lang)
    except AdvisorError:
        return None


def per_period(q: Quote) -> dict[str, float]:
    """Per-GPU prices per period, for display and break-even points."""
    return {
        "hour": q.on_demand,
        "day": q.daily * HOURS_PER_DAY,
        "month": q.monthly * HOURS_PER_MONTH,
        "year": q.yearly * HOURS_PER_YEAR,
    }
