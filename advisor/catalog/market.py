"""The market for one card in one currency and billing mode: p10 / median / p90 per
GPU-hour over the providers that list it, with the offers behind the figures.

Rules (their numbers live in ``knowledge/catalog/defaults.yaml``, ``market.*``):

- CPU/RAM-heavy instances (sheet column ``host = heavy``) are kept apart: a provider's
  heavy instance enters only when it lists no standard one for the card.
- One offer per provider enters the statistic: the provider's cheapest per-GPU price for
  the card in that mode, so a provider with four SKUs counts once.
- Ratios to on-demand (the spot ratio, the monthly / yearly term ratios) are computed per
  provider, from that provider's own on-demand price for the card, and then the median
  across providers is taken.
- With fewer than ``market.min_offers`` providers in the currency, the market pools, in
  this order and until it has enough: the same currency's offers of the equivalent card
  (``market.equivalents``: A800 <-> A100, H800 <-> H100), then the other currency's offers
  converted at the dated rate of ``fx.yaml``, then the other currency's equivalents.
  ``fallback`` says what was pooled and why.
- A row dated more than ``market.stale_after_months`` before today is stale; ``stale``
  flags a market that uses one, ``stale_providers`` names them.
- ``by_kind`` is the median per provider type (providers.yaml ``kind``: big clouds, GPU clouds,
  rental platforms) over the figures' offers plus the same currency's offers of the equivalent
  cards: a CNY A100 median set by the clouds sits next to what the rental platforms charge for
  the A800. Reports cite it with the market (``describe``), so a reader sees which class set it.

>>> from advisor.catalog.market import market_for
>>> m = market_for("A100-80GB", "USD")
>>> m.p10 <= m.median <= m.p90
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from typing import Any, Literal, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict

from advisor.catalog import get_catalog
from advisor.catalog.prices import as_of_label
from advisor.errors import InputError
from advisor.money import CURRENCIES, convert, normalize_currency

Mode = Literal["on_demand", "monthly", "yearly", "spot"]
Market = Literal["convert", "local"]
MARKET_FIELD_DOC = (
    "Which offers price the chosen currency: 'local' = that currency's own market "
    "(Chinese providers for CNY, '用国内价格'), 'convert' = the other currency's offers "
    "converted at the dated rate ('show it in CNY'). Default: the market of the question's "
    "language; the report's assumptions say which was used."
)
MODES: tuple[str, ...] = get_args(Mode)


class MarketOffer(BaseModel):
    """One provider's offer as it enters a market: its per-GPU-hour price in the market's
    currency, and where it comes from."""

    model_config = ConfigDict(frozen=True)

    provider: str
    sku: str
    region: str
    gpu: str
    gpu_count: int
    price: float
    native_price: float
    native_currency: str
    as_of: str
    as_of_date: date | None
    stale: bool
    converted: bool
    equivalent: bool
    source: str
    sheet: str

    @property
    def citation(self) -> str:
        """The row's source without commit hashes: sheet file and line, upstream document."""
        return without_hashes(self.source)


_HASH = re.compile(r"@?\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b")


def without_hashes(text: str) -> str:
    """``text`` without git commit hashes (they read as numbers to a figure checker)."""
    return " ".join(_HASH.sub("", text).split())


class KindMedian(BaseModel):
    """The median per GPU-hour of one provider type, and the providers behind it."""

    model_config = ConfigDict(frozen=True)

    median: float
    providers: list[str]


class MarketStats(BaseModel):
    """p10 / median / p90 per GPU-hour of ``gpu`` in ``currency`` under ``mode``.

    ``ratio_to_on_demand`` is, for spot / monthly / yearly, the median across providers of
    each provider's price in that mode over its own on-demand price for the card (None
    for on-demand, or when no provider lists both)."""

    model_config = ConfigDict(frozen=True)

    gpu: str
    currency: str
    mode: Mode
    p10: float
    median: float
    p90: float
    offers: int
    providers: list[str]
    as_of_min: date | None
    as_of_max: date | None
    undated: int
    fallback: dict[str, Any] | None  # why other offers were pooled in, as a word reference (advisor.present.fmt.text_of)
    stale: bool
    stale_providers: list[str]
    stale_after_months: int
    min_offers: int
    ratio_to_on_demand: float | None
    ratio_providers: int
    fx: str | None
    rows: list[MarketOffer]
    by_kind: dict[str, KindMedian] = {}
    kind_cards: list[str] = []  # the equivalent cards whose offers joined ``by_kind``

    @property
    def spot_ratio(self) -> float | None:
        """The per-provider spot / on-demand ratio, summarised (spot markets only)."""
        return self.ratio_to_on_demand if self.mode == "spot" else None

    @property
    def cheapest(self) -> MarketOffer:
        """The cheapest offer behind the figures."""
        return self.rows[0]

    @property
    def sheets(self) -> str:
        """The price sheets the offers behind the figures were read from."""
        return ", ".join(sorted({r.sheet for r in self.rows if r.sheet}))

    @property
    def span(self) -> str:
        """``2026-08-19..2026-10-01``, one date, or ``unknown`` (no offer is dated)."""
        if self.as_of_min is None or self.as_of_max is None:
            return "unknown"
        if self.as_of_min == self.as_of_max:
            return self.as_of_min.isoformat()
        return f"{self.as_of_min.isoformat()}..{self.as_of_max.isoformat()}"

    def dates(self) -> dict[str, Any] | str:
        """The price dates as a report holds them: the span, with the undated offers counted (a word
        reference advisor.present words)."""
        if self.as_of_min is None:
            return {"term": "label.date_unknown"}
        return {"term": "market.dates.undated", "span": self.span, "n": self.undated} if self.undated else self.span

    def words(self) -> dict[str, Any]:
        """The market for a report's assumptions, as a word reference: which offers, providers and
        dates priced it, what was pooled in, the medians by provider type, the stale offers."""
        names = ", ".join(self.providers[:8]) + ("…" if len(self.providers) > 8 else "")
        main = {"term": "market.describe", "gpu": self.gpu, "currency": self.currency, "mode": {"term": f"mode.{self.mode}"},
                "sheets": self.sheets, "dates": self.dates(), "n": self.offers, "names": names,
                "median": f"{self.median:.2f}", "p10": f"{self.p10:.2f}", "p90": f"{self.p90:.2f}"}
        stale = {"term": "market.stale", "providers": ", ".join(self.stale_providers), "months": self.stale_after_months}
        return {"join": "sep.clause", "parts": [main, self.fallback, self.kinds(), stale if self.stale else None]}

    def kinds(self) -> dict[str, Any] | None:
        """"by provider type: clouds 31.27 (3), rental platforms 5.15 (2)" when types differ (a word reference)."""
        if len(self.by_kind) < 2:
            return None
        parts = [{"term": "market.kind_median", "kind": {"term": f"provider_kind.{k}"}, "median": f"{v.median:.2f}",
                  "n": len(v.providers)} for k, v in sorted(self.by_kind.items(), key=lambda kv: kv[1].median)]
        cards = ", ".join(self.kind_cards)
        return {"term": "market.by_kind" + (".with" if cards else ""), "parts": {"join": "chat.list_sep", "parts": parts},
                "cards": cards}


class NoMarketError(InputError):
    """No offer of the card (or an equivalent) in any currency for the mode."""

    def __init__(self, gpu: str, mode: str) -> None:
        super().__init__(
            "gpu",
            gpu,
            f"a card with {mode.replace('_', '-')} list prices (see `advisor prices`), "
            "or give your own price (CLI: --price / --prices)",
        )


def _months_before(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 - months
    return date(index // 12, index % 12 + 1, min(day.day, 28))


def market_for(
    gpu_id: str,
    currency: str,
    mode: str = "on_demand",
    *,
    catalog: Any = None,
    today: date | None = None,
) -> MarketStats:
    """The market of ``gpu_id`` in ``currency`` under ``mode`` (on_demand, monthly,
    yearly, spot), from the catalog's list offers (negotiated user rows are not market
    rows). Raises :class:`NoMarketError` when nothing prices the card in that mode."""
    found = find_market(gpu_id, currency, mode, catalog=catalog, today=today)
    if found is None:
        raise NoMarketError((catalog or get_catalog()).gpu(gpu_id).id, mode)
    return found


def find_market(gpu_id: str, currency: str, mode: str = "on_demand", *, catalog: Any = None,
                today: date | None = None) -> MarketStats | None:
    """:func:`market_for`, or None when nothing prices the card in that mode."""
    if mode not in MODES:
        raise InputError("mode", mode, "one of on_demand, monthly, yearly, spot")
    if catalog is None:
        catalog = get_catalog()
    gpu = catalog.gpu(gpu_id).id
    cur = normalize_currency(currency)
    day = today or date.today()
    cache = catalog.memo("market")
    key = (gpu, cur, mode, day)
    if key not in cache:
        try:
            cache[key] = _build(catalog, gpu, cur, mode, day)
        except NoMarketError:  # no market is an answer too: not built again on every quote
            cache[key] = None
    return cache[key]  # type: ignore[no-any-return]


def equivalents(catalog: Any, gpu: str) -> list[str]:
    """Cards priced as ``gpu`` when its own market is thin (``market.equivalents``)."""
    out: list[str] = []
    known = {g.id for g in catalog.gpus}
    for pair in catalog.defaults.value("market.equivalents"):
        ids = [str(name) for name in pair if str(name) in known]
        if gpu in ids:
            out.extend(i for i in ids if i != gpu and i not in out)
    return out


def _list_offers(catalog: Any, gpu: str, currency: str) -> list[Any]:
    offers = [o for o in catalog.offers(gpu=gpu, currency=currency) if not o.negotiated]
    standard = {o.provider for o in offers if not o.host}
    return [o for o in offers if not o.host or o.provider not in standard]


def _per_gpu(offer: Any, mode: str) -> float | None:
    price = offer.per_gpu_hour_for(mode)
    return None if price is None else float(price)


def _build(catalog: Any, gpu: str, currency: str, mode: str, day: date) -> MarketStats:
    defaults = catalog.defaults
    need = int(defaults.value("market.min_offers"))
    months = int(defaults.value("market.stale_after_months"))
    stale_before = _months_before(day, months)
    other = next(c for c in CURRENCIES if c != currency)
    twins = equivalents(catalog, gpu)
    stages: list[tuple[list[str], str, dict[str, Any]]] = [([gpu], currency, {})]
    if twins:
        stages.append((twins, currency, {"term": "market.pooled.twins", "currency": currency, "cards": ", ".join(twins)}))
    stages.append(([gpu], other, {"term": "market.pooled.converted", "currency": other, "cards": gpu}))
    if twins:
        stages.append((twins, other, {"term": "market.pooled.twins_converted", "currency": other, "cards": ", ".join(twins)}))

    best: dict[str, MarketOffer] = {}
    on_demand: dict[tuple[str, str], float] = {}
    used: list[dict[str, Any]] = []
    own = 0
    fx_text: str | None = None
    for index, (cards, cur, label) in enumerate(stages):
        if index and len(best) >= need:
            break
        rate = None if cur == currency else catalog.fx
        before = len(best)
        for card in cards:
            for offer in _list_offers(catalog, card, cur):
                if offer.provider in best and best[offer.provider].gpu == gpu and card != gpu:
                    continue  # a provider's own offer of the card beats its equivalent
                native = _per_gpu(offer, mode)
                base = _per_gpu(offer, "on_demand")
                if base is not None:
                    value = convert(base, cur, currency, rate)  # type: ignore[arg-type]
                    slot = (offer.provider, card)
                    if slot not in on_demand or value < on_demand[slot]:
                        on_demand[slot] = value
                if native is None:
                    continue
                price = convert(native, cur, currency, rate)  # type: ignore[arg-type]
                held = best.get(offer.provider)
                if (
                    held is not None
                    and held.price <= price
                    and not (held.gpu != gpu and card == gpu)
                ):
                    continue
                when = offer.as_of_date
                best[offer.provider] = MarketOffer(
                    provider=offer.provider,
                    sku=offer.sku,
                    region=offer.region,
                    gpu=card,
                    gpu_count=offer.gpu_count,
                    price=price,
                    native_price=native,
                    native_currency=cur,
                    as_of=as_of_label(offer.as_of),
                    as_of_date=when,
                    stale=when is not None and when < stale_before,
                    converted=rate is not None,
                    equivalent=card != gpu,
                    source=offer.source,
                    sheet=offer.sheet,
                )
        if index == 0:
            own = len(best)
        elif len(best) > before:
            used.append(label)
            if rate is not None:
                fx_text = f"1 {rate.base} = {rate.rate} {rate.quote} ({rate.as_of}, {rate.source})"
    if not best:
        raise NoMarketError(gpu, mode)
    by_kind, kind_cards = _by_kind(catalog, best, twins, currency, mode)

    rows = sorted(best.values(), key=lambda r: (r.price, r.provider))
    prices = np.fromiter((r.price for r in rows), dtype=float, count=len(rows))
    p10, median, p90 = (float(v) for v in np.percentile(prices, [10, 50, 90]))
    dated = [r.as_of_date for r in rows if r.as_of_date is not None]
    ratio, ratio_n = _ratio(rows, on_demand) if mode != "on_demand" else (None, 0)
    fallback: dict[str, Any] | None = None
    if used:
        fallback = {"term": "market.fallback.pooled" + ("_fx" if fx_text else ""), "n": own, "currency": currency,
                    "mode": {"term": f"mode.{mode}"}, "gpu": gpu, "need": need, "fx": fx_text,
                    "pooled": {"join": "market.pooled.sep", "parts": used}}
    elif len(rows) < need:
        fallback = {"term": "market.fallback.thin", "n": len(rows), "mode": {"term": f"mode.{mode}"}, "gpu": gpu, "need": need}
    return MarketStats(
        gpu=gpu,
        currency=currency,
        mode=mode,  # type: ignore[arg-type]
        p10=p10,
        median=median,
        p90=p90,
        offers=len(rows),
        providers=[r.provider for r in rows],
        as_of_min=min(dated) if dated else None,
        as_of_max=max(dated) if dated else None,
        undated=len(rows) - len(dated),
        fallback=fallback,
        stale=any(r.stale for r in rows),
        stale_providers=[r.provider for r in rows if r.stale],
        stale_after_months=months,
        min_offers=need,
        ratio_to_on_demand=ratio,
        ratio_providers=ratio_n,
        fx=fx_text,
        rows=rows,
        by_kind=by_kind,
        kind_cards=kind_cards,
    )


def _by_kind(
    catalog: Any, best: dict[str, MarketOffer], twins: list[str], currency: str, mode: str
) -> tuple[dict[str, KindMedian], list[str]]:
    """Median per provider type over the market's offers plus the currency's own offers of the
    equivalent cards (one per provider, its cheapest; a provider's own card wins)."""
    prices = {pid: r.price for pid, r in best.items()}
    cards: list[str] = []
    for card in twins:
        for offer in _list_offers(catalog, card, currency):
            price = _per_gpu(offer, mode)
            if price is None or (offer.provider in best and not best[offer.provider].equivalent):
                continue
            if offer.provider not in prices or price < prices[offer.provider]:
                prices[offer.provider] = price
                if card not in cards:
                    cards.append(card)
    groups: dict[str, list[str]] = {}
    for pid in prices:
        terms = catalog.providers.get(pid)
        if terms is not None:
            groups.setdefault(terms.kind, []).append(pid)
    out = {
        kind: KindMedian(median=float(np.median([prices[p] for p in pids])), providers=sorted(pids))
        for kind, pids in groups.items()
    }
    return out, cards


def _ratio(
    rows: Iterable[MarketOffer], on_demand: dict[tuple[str, str], float]
) -> tuple[float | None, int]:
    ratios = [
        r.price / on_demand[(r.provider, r.gpu)] for r in rows if on_demand.get((r.provider, r.gpu))
    ]
    if not ratios:
        return None, 0
    return float(np.median(ratios)), len(ratios)


def market_table(
    catalog: Any, currency: str, mode: str = "on_demand", *, gpus: list[str] | None = None, today: date | None = None
) -> list[MarketStats]:
    """The market of every card (or of ``gpus``) that has a price in ``mode`` (own or pooled), in
    catalog order."""
    found = (find_market(gpu, currency, mode, catalog=catalog, today=today) for gpu in gpus or [g.id for g in catalog.gpus])
    return [m for m in found if m is not None]
