"""Price sheets: flat CSV files of offers (``knowledge/catalog/prices/*.csv``) and the
user's own sheet of negotiated prices (``ADVISOR_PRICES``).

Columns (prices per instance, in ``currency``; empty = unknown)::

    provider, sku, region, gpu, gpu_count, currency, on_demand_per_hour, spot_per_hour,
    daily, monthly, yearly, billing_increment_s, as_of, source, note

A user sheet needs only ``gpu``, ``currency`` and one price column; it may give
``price_per_gpu_hour`` instead of an instance price. Rows are reported by their line
number in the file (the header is line 1).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from advisor.catalog.gpus import Source, Text
from advisor.datafile import data_error
from advisor.errors import DataError, InputError, UnknownNameError
from advisor.limits import bound
from advisor.money import Currency, normalize_currency
from advisor.numeric import parse_number
from advisor.safe_read import decode, read_bytes
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

Price = Annotated[float, Field(gt=0, allow_inf_nan=False)]
Billing = Literal["on_demand", "spot", "daily", "monthly", "yearly"]
# Each billing mode's price column and the hours one price of it buys.
_BILLING_COLUMN: dict[str, tuple[str, float]] = {
    "on_demand": ("on_demand_per_hour", 1.0),
    "spot": ("spot_per_hour", 1.0),
    "daily": ("daily", HOURS_PER_DAY),
    "monthly": ("monthly", HOURS_PER_MONTH),
    "yearly": ("yearly", HOURS_PER_YEAR),
}
PRICE_COLUMNS: tuple[str, ...] = tuple(column for column, _ in _BILLING_COLUMN.values())
_HOURS = dict(_BILLING_COLUMN.values())
SHEET_COLUMNS: tuple[str, ...] = (
    "provider",
    "sku",
    "region",
    "gpu",
    "gpu_count",
    "currency",
    *PRICE_COLUMNS,
    "billing_increment_s",
    "as_of",
    "source",
    "note",
    "host",
)
USER_COLUMNS: tuple[str, ...] = (*SHEET_COLUMNS, "price_per_gpu_hour")
_REQUIRED_LIST = ("provider", "gpu", "gpu_count", "currency", "source")
_REQUIRED_USER = ("gpu", "currency")


class PriceOffer(BaseModel):
    """One rentable configuration: ``gpu_count`` cards of ``gpu`` from ``provider``.

    Prices are per instance in ``currency``; ``negotiated`` marks rows of the user's own
    sheet, which win over list prices.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: Text
    sku: str = ""
    region: str = ""
    gpu: Text
    gpu_count: Annotated[int, Field(ge=1)] = 1
    currency: Currency
    on_demand_per_hour: Price | None = None
    spot_per_hour: Price | None = None
    daily: Price | None = None
    monthly: Price | None = None
    yearly: Price | None = None
    billing_increment_s: Annotated[float, Field(gt=0)] | None = None
    as_of: str = ""
    source: Source
    note: str = ""
    host: Literal["", "heavy"] = ""  # "heavy": CPU/RAM-heavy instance, kept out of the market
    negotiated: bool = False
    sheet: str = ""  # file name of the sheet the row was read from (reports cite it)

    @model_validator(mode="after")
    def _has_price(self) -> PriceOffer:
        if all(getattr(self, c) is None for c in PRICE_COLUMNS):
            raise ValueError(f"no price given; fill one of {', '.join(PRICE_COLUMNS)}")
        return self

    def per_gpu_hour_for(self, billing: str) -> float | None:
        """Price of one GPU for one hour under ``billing`` (on_demand, spot, daily, monthly,
        yearly), from that column only; None when the offer has no such price."""
        if billing not in _BILLING_COLUMN:
            raise InputError("billing", billing, "one of on_demand, spot, daily, monthly, yearly")
        column, hours = _BILLING_COLUMN[billing]
        value = getattr(self, column)
        return None if value is None else float(value) / hours / self.gpu_count

    @property
    def as_of_date(self) -> date | None:
        """The price date as a :class:`date` (a month-only date is the 1st), or None when
        the sheet gives no date (``unknown``, ``undated …``)."""
        return parse_as_of(self.as_of)

    @property
    def price_basis(self) -> str | None:
        """Which column :attr:`per_gpu_hour` comes from (the first non-spot price)."""
        for column in ("on_demand_per_hour", "daily", "monthly", "yearly"):
            if getattr(self, column) is not None:
                return column
        return None

    @property
    def per_gpu_hour(self) -> float | None:
        """On-demand-equivalent price per GPU-hour: on-demand if listed, else the daily,
        monthly (/730 h) or yearly (/8760 h) price spread over its hours. Spot-only offers
        give None (a spot price is not an on-demand price)."""
        basis = self.price_basis
        if basis is None:
            return None
        return float(getattr(self, basis)) / _HOURS[basis] / self.gpu_count


_AS_OF = re.compile(r"^~?\s*(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?!\d)")


@lru_cache(maxsize=512)
def parse_as_of(text: str) -> date | None:
    """``"2026-08-22"`` / ``"~2026-09 (report date)"`` -> a date; None when the text does not
    start with a year-month (``unknown``, ``undated doc version``)."""
    found = _AS_OF.match((text or "").strip())
    if not found:
        return None
    year, month, day = int(found[1]), int(found[2]), int(found[3] or 1)
    try:
        return date(year, month, day)
    except ValueError:
        return None


def as_of_label(text: str) -> str:
    """The date part of an ``as_of`` text as written (``2026-08``, ``2026-08-22``), or
    ``unknown``."""
    found = _AS_OF.match((text or "").strip())
    return found[0].lstrip("~").strip() if found and parse_as_of(text) else "unknown"


def read_price_sheet(
    path: Path,
    resolve_gpu: Callable[[str], str],
    *,
    user: bool = False,
) -> list[PriceOffer]:
    """Read one price sheet. ``resolve_gpu`` maps a name to a catalog id (raising
    UnknownNameError). ``user`` sheets are lenient about columns and carry ``negotiated``."""
    if user:  # a user's file: regular files only, bytes capped, encoding named (advisor.safe_read)

        text, _ = decode(read_bytes(path, "prices"), str(path))
        handle: Any = io.StringIO(text, newline="")
    else:
        try:
            handle = path.open(encoding="utf-8-sig", newline="")
        except FileNotFoundError as exc:
            raise DataError(str(path), "price sheet not found") from exc
        except OSError as exc:
            raise DataError(str(path), f"cannot read price sheet ({exc.strerror})") from exc
    with handle:
        reader = csv.DictReader(handle)
        header = [h.strip() for h in (reader.fieldnames or [])]
        reader.fieldnames = header
        _check_header(path, header, user=user)
        offers: list[PriceOffer] = []
        for raw in reader:
            line = reader.line_num
            if not any((v or "").strip() for v in raw.values() if isinstance(v, str)):
                continue
            if None in raw:
                raise DataError(str(path), "more values than header columns", row=line)
            offers.append(_parse_row(path, line, raw, resolve_gpu, user=user))
    return offers


def _check_header(path: Path, header: list[str], *, user: bool) -> None:
    accepted = USER_COLUMNS if user else SHEET_COLUMNS
    for column in header:
        if column not in accepted:
            raise DataError(
                str(path),
                f"unknown column; accepted columns: {', '.join(accepted)}",
                row=1,
                field=column,
            )
    for column in _REQUIRED_USER if user else _REQUIRED_LIST:
        if column not in header:
            raise DataError(str(path), "required column is missing", row=1, field=column)
    price_columns = (*PRICE_COLUMNS, "price_per_gpu_hour") if user else PRICE_COLUMNS
    if not any(c in header for c in price_columns):
        raise DataError(
            str(path),
            f"no price column; add one of {', '.join(price_columns)}",
            row=1,
        )


@lru_cache(maxsize=64)
def _currency(text: str) -> str:
    return normalize_currency(text)


def _number(
    path: Path, line: int, field: str, text: str | None, *, integer: bool = False
) -> float | None:
    """A positive number from a cell, through the product's one parser (an ambiguous comma
    such as ``1,1`` is an error, never 11)."""

    value = (text or "").strip()
    if not value:
        return None
    kind = "a positive whole number" if integer else "a positive number"
    try:
        number = parse_number(value, field, suffixes=False, quantity="money", accepted=kind)
    except InputError as exc:
        raise DataError(str(path), f"expected {kind}, got {value!r} ({exc.accepted})", row=line, field=field) from None
    if number <= 0 or (integer and not number.is_integer()):
        raise DataError(str(path), f"expected {kind}, got {value!r}", row=line, field=field)
    return number


def _check_hourly_bound(path: Path, line: int, fields: dict[str, object]) -> None:
    """The per-GPU hourly price of a row lies within the physical bound of its currency."""
    hourly, count = fields.get("on_demand_per_hour"), fields.get("gpu_count") or 1
    if not isinstance(hourly, float) or not isinstance(count, int):
        return
    lo, hi, unit = bound(f"price_per_gpu_hour_{str(fields['currency']).lower()}")
    if not lo <= hourly / count <= hi:
        raise DataError(str(path), f"price per GPU-hour {hourly / count:g} is outside {lo:g} to {hi:g} {unit}",
                        row=line, field="on_demand_per_hour")


def _parse_row(
    path: Path, line: int, raw: dict[str, str], resolve_gpu: Callable[[str], str], *, user: bool
) -> PriceOffer:
    def text(column: str) -> str:
        return (raw.get(column) or "").strip()

    gpu_name = text("gpu")
    if not gpu_name:
        raise DataError(str(path), "GPU name is empty", row=line, field="gpu")
    try:
        gpu = resolve_gpu(gpu_name)
    except UnknownNameError as exc:
        raise DataError(
            str(path), f"unknown GPU {gpu_name!r}", row=line, field="gpu", hint=exc.hint
        ) from exc
    try:
        currency = _currency(text("currency"))
    except InputError as exc:
        raise DataError(
            str(path),
            f"unknown currency {text('currency')!r}; accepted: USD or CNY",
            row=line,
            field="currency",
        ) from exc
    count = _number(path, line, "gpu_count", raw.get("gpu_count"), integer=True)
    gpu_count = int(count) if count is not None else 1
    if count is None and not user:
        raise DataError(str(path), "required value is empty", row=line, field="gpu_count")
    fields: dict[str, object] = {
        "provider": text("provider") or ("user" if user else ""),
        "sku": text("sku"),
        "region": text("region"),
        "gpu": gpu,
        "gpu_count": gpu_count,
        "currency": currency,
        "as_of": text("as_of"),
        "source": text("source") or (f"user price sheet {path}" if user else ""),
        "note": text("note"),
        "host": text("host").lower(),
        "negotiated": user,
        "sheet": path.name,
    }
    for column in (*PRICE_COLUMNS, "billing_increment_s"):
        fields[column] = _number(path, line, column, raw.get(column))
    per_gpu = _number(path, line, "price_per_gpu_hour", raw.get("price_per_gpu_hour"))
    if per_gpu is not None:
        if fields["on_demand_per_hour"] is not None:
            raise DataError(
                str(path),
                "give on_demand_per_hour or price_per_gpu_hour, not both",
                row=line,
                field="price_per_gpu_hour",
            )
        fields["on_demand_per_hour"] = per_gpu * gpu_count
    if all(fields[c] is None for c in PRICE_COLUMNS):
        accepted = (*PRICE_COLUMNS, "price_per_gpu_hour") if user else PRICE_COLUMNS
        raise DataError(
            str(path),
            f"no price given; fill one of {', '.join(accepted)}",
            row=line,
            field="on_demand_per_hour" if "on_demand_per_hour" in raw else "price_per_gpu_hour",
        )
    _check_hourly_bound(path, line, fields)
    try:
        return PriceOffer.model_validate(fields)
    except ValidationError as exc:
        raise data_error(path, exc, row=line) from exc
