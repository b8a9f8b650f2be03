"""Provider-level billing terms (``knowledge/catalog/providers.yaml``): billing increment,
minimum charge, storage and egress prices, spot notice, term / tiered / volume / off-peak
discounts. Every number carries the public document it comes from; terms nobody published
are absent, and the engine falls back to its documented defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.catalog.gpus import Source, Text
from advisor.datafile import data_error, mapping_section, read_yaml
from advisor.errors import DataError
from advisor.money import Currency

NonNegative = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Multiplier = Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)]
Kind = Literal["cloud", "gpu-cloud", "marketplace", "market-survey"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SourcedValue(_Frozen):
    """A number with the document it comes from. Units are in the field name that holds it."""

    value: NonNegative
    source: Source
    note: str = ""


class TermDiscount(_Frozen):
    """Prepaid / committed price as a fraction of the list price, for ``months`` of term
    (None when the provider does not tie it to a length). ``upper_bound``: "up to"."""

    label: Text
    months: Annotated[int, Field(ge=1)] | None
    multiplier: Multiplier
    upper_bound: bool = False
    source: Source
    note: str = ""


class TierDiscount(_Frozen):
    """Usage-hour price tier: ``multiplier`` of the first tier's price from ``from_hours``
    (None when the document does not state the threshold)."""

    tier: Annotated[int, Field(ge=2)]
    from_hours: NonNegative | None
    multiplier: Multiplier
    source: Source
    note: str = ""


class VolumeDiscount(_Frozen):
    """A discount that depends on who buys or how much (membership, spend level)."""

    condition: Text
    multiplier: Multiplier
    source: Source
    note: str = ""


class OffpeakDiscount(_Frozen):
    """A time-of-day discount (闲时): ``hours`` in provider local time."""

    hours: Text
    multiplier: Multiplier
    source: Source
    note: str = ""


class ProviderNote(_Frozen):
    """A cost-relevant term that is not a single number."""

    text: Text
    source: Source


class Provider(_Frozen):
    """One provider's billing terms; ``id`` is the key used in price sheets."""

    id: Text
    name: Text
    name_zh: str = ""
    currency: Currency
    kind: Kind
    aliases: tuple[Text, ...] = ()
    billing_increment_s: SourcedValue | None = None
    minimum_charge_s: SourcedValue | None = None
    storage_per_gb_month: SourcedValue | None = None
    storage_stopped_per_gb_month: SourcedValue | None = None
    egress_per_gb: SourcedValue | None = None
    spot_reclaim_notice_s: SourcedValue | None = None
    spot_protection_s: SourcedValue | None = None
    max_cluster_gpus: SourcedValue | None = None  # largest GPU cluster the provider documents
    cluster_gpus: tuple[str, ...] = ()  # cards that cluster size covers (empty: every card)
    spot_multiplier: SourcedValue | None = None
    term_discounts: tuple[TermDiscount, ...] = ()
    tiered_discounts: tuple[TierDiscount, ...] = ()
    volume_discounts: tuple[VolumeDiscount, ...] = ()
    offpeak_discounts: tuple[OffpeakDiscount, ...] = ()
    notes: tuple[ProviderNote, ...] = ()


def load_providers(path: Path) -> dict[str, Provider]:
    """Read and validate ``providers.yaml`` into ``{id: Provider}``."""
    entries = mapping_section(path, read_yaml(path), "providers")
    providers: dict[str, Provider] = {}
    for key, entry in entries.items():
        if not isinstance(entry, dict):
            raise DataError(str(path), "expected a mapping of provider terms", row=str(key))
        try:
            provider = Provider.model_validate({"id": str(key), **entry})
        except ValidationError as exc:
            raise data_error(path, exc, row=str(key)) from exc
        if provider.spot_multiplier is not None and not 0 < provider.spot_multiplier.value <= 1:
            raise DataError(
                str(path),
                "must be a fraction of on-demand in (0, 1]",
                row=str(key),
                field="spot_multiplier.value",
            )
        providers[provider.id] = provider
    return providers
