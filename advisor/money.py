"""Money: an amount with a currency. Currencies never mix without an explicit, dated rate."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict

from advisor.datafile import read_mapping
from advisor.errors import InputError

Currency = Literal["USD", "CNY"]
CURRENCIES: tuple[str, ...] = get_args(Currency)
_FILE = Path(__file__).with_name("currencies.yaml")


@lru_cache(maxsize=1)
def _currencies() -> tuple[dict[str, str], dict[str, str]]:
    """(symbol by currency, currency by word) from currencies.yaml, read once."""
    data = read_mapping(_FILE)
    return {c: e["symbol"] for c, e in data.items()}, {w: c for c, e in data.items() for w in e["words"]}


def normalize_currency(value: str) -> Currency:
    """``"rmb"`` -> ``"CNY"``; raises :class:`InputError` for anything not USD or CNY."""
    key = str(value).strip()
    found = _currencies()[1].get(key.lower(), key.upper())
    if found not in CURRENCIES:
        raise InputError("currency", value, "USD or CNY (aliases: $, rmb, 元, 美元)")
    return found  # type: ignore[return-value]


CurrencyField = Annotated[Currency, BeforeValidator(lambda v: normalize_currency(v) if v is not None else "USD")]
"""A request field that accepts USD/CNY and their aliases ($, rmb, 元) and defaults to USD."""


class FxRate(BaseModel):
    """How many units of ``quote`` one unit of ``base`` buys, as of a date, from a source."""

    model_config = ConfigDict(frozen=True)

    base: Currency
    quote: Currency
    rate: float
    as_of: str
    source: str


class Money(BaseModel):
    model_config = ConfigDict(frozen=True)

    amount: float
    currency: Currency

    def __str__(self) -> str:
        return format_money(self.amount, self.currency)


def convert(amount: float, src: Currency, dst: Currency, rate: FxRate | None) -> float:
    """Convert ``amount`` from ``src`` to ``dst`` with an explicit rate (none needed if equal)."""
    if src == dst:
        return float(amount)
    if rate is None:
        raise InputError("currency", f"{src}->{dst}", "a dated exchange rate between the two currencies")
    if (rate.base, rate.quote) == (src, dst):
        return float(amount) * rate.rate
    if (rate.base, rate.quote) == (dst, src):
        return float(amount) / rate.rate
    raise InputError("exchange rate", f"{rate.base}->{rate.quote}", f"a rate between {src} and {dst}")


def format_money(amount: float, currency: str, digits: int | None = None) -> str:
    """``12345.6, "USD"`` -> ``"$12,346"``; small amounts keep cents."""
    if digits is None:
        digits = 2 if abs(amount) < 100 else 0
    symbol = _currencies()[0].get(currency, currency + " ")
    sign = "-" if amount < 0 else ""
    return f"{sign}{symbol}{abs(amount):,.{digits}f}"
