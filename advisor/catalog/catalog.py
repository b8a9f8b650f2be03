"""The :class:`Catalog`: every data file of ``knowledge/catalog/`` validated and indexed,
plus the user's price sheet merged in; and :func:`get_catalog`, its cached loader.

The cache key is each file's path and modification time, so an edited file is re-read on
the next call and an unchanged tree costs a few ``stat`` calls.
"""

from __future__ import annotations

import math
import os
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, PrivateAttr

from advisor.catalog.defaults import Defaults, load_defaults, load_fx
from advisor.catalog.gpus import Gpu, load_gpus
from advisor.catalog.models import ModelSpec, load_models
from advisor.catalog.names import NameHit, NameIndex, hub_and_suffix_variants, normalize_name
from advisor.catalog.prices import PriceOffer, read_price_sheet
from advisor.catalog.providers import Provider, load_providers
from advisor.config import catalog_dir, user_prices_path
from advisor.errors import DataError, InputError, UnknownNameError
from advisor.money import CURRENCIES, FxRate, normalize_currency
from advisor.safe_read import check_file

GPUS_FILE = "gpus.yaml"
MODELS_FILE = "models.yaml"
PROVIDERS_FILE = "providers.yaml"
PRICES_DIR = "prices"
DEFAULTS_FILE = "defaults.yaml"
FX_FILE = "fx.yaml"


class Catalog(BaseModel):
    """GPUs, models, price offers and providers, with name resolution.

    Build it with :func:`get_catalog` (cached) or :func:`load_catalog` (a given folder).
    """

    model_config = ConfigDict(frozen=True)

    directory: Path
    gpus: list[Gpu]
    models: list[ModelSpec]
    price_offers: list[PriceOffer]
    providers: dict[str, Provider]
    user_prices: Path | None = None

    _given_gpu_index: NameIndex | None = PrivateAttr(default=None)

    # Lookups are cached properties: a pydantic private attribute costs microseconds per read,
    # and the engine reads them on every estimate. The model is frozen, so they never go stale.
    def model_post_init(self, __context: object) -> None:
        self._given_gpu_index = __context.get("gpu_index") if isinstance(__context, dict) else None
        _ = (self._gpu_index, self._model_index, self._provider_index)  # a bad alias fails at load

    @cached_property
    def _gpu_index(self) -> NameIndex:
        return self._given_gpu_index or _index("gpu", self.directory / GPUS_FILE, self.gpus)

    @cached_property
    def _model_index(self) -> NameIndex:
        return _index("model", self.directory / MODELS_FILE, self.models)

    @cached_property
    def _provider_index(self) -> NameIndex:
        providers = _provider_index(self.directory, self.providers)
        for offer in self.price_offers:
            if offer.provider not in providers:
                providers.add(offer.provider, ())
        return providers

    @cached_property
    def _gpu_by_id(self) -> dict[str, Gpu]:
        return {g.id: g for g in self.gpus}

    @cached_property
    def _model_by_id(self) -> dict[str, ModelSpec]:
        return {m.id: m for m in self.models}

    # ------------------------------------------------------------------ lookups
    def gpu(self, name: str) -> Gpu:
        """The card named ``name`` (id or alias, any case/spacing); UnknownNameError else."""
        return self._gpu_by_id[self._gpu_index.resolve(name)]

    def model(self, name: str) -> ModelSpec:
        """The model named ``name``: id, alias, hub repo id, or with -instruct/-chat dropped."""
        return self._model_by_id[self._model_index.resolve(name, fallbacks=hub_and_suffix_variants)]

    def provider(self, name: str) -> Provider:
        """The provider named ``name`` (id, English or Chinese name, alias)."""
        found = self._provider_index.resolve(name)
        if found not in self.providers:
            raise UnknownNameError(
                "provider",
                name,
                self._provider_index.suggestions(name),
                self._provider_index.accepted,
            )
        return self.providers[found]

    def provider_id(self, name: str) -> str:
        """The provider id for ``name``, including providers known only from the user sheet."""
        return self._provider_index.resolve(name)

    def name_index(self, kind: str) -> NameIndex:
        """The names of one kind of entry (``gpu``, ``model`` or ``provider``): the one
        vocabulary the tools, the CLI, the UI and the assistant resolve names with."""
        indexes = {"gpu": self._gpu_index, "model": self._model_index, "provider": self._provider_index}
        if kind not in indexes:
            raise InputError("kind", kind, "gpu, model or provider")
        return indexes[kind]

    # ------------------------------------------------------------------ prices
    def offers(
        self, gpu: str | None = None, currency: str | None = None, provider: str | None = None
    ) -> list[PriceOffer]:
        """Offers matching the filters. Negotiated (user-sheet) offers come first, then the
        cheapest per GPU-hour, USD before CNY when currencies are mixed."""
        gpu_id = self.gpu(gpu).id if gpu else None
        cur = normalize_currency(currency) if currency else None
        provider_id = self.provider_id(provider) if provider else None
        key = (gpu_id, cur, provider_id)
        memo = self.memo("offers")
        hit = memo.get(key)
        if hit is None:  # the catalog is frozen: each filter is sorted once
            hit = memo[key] = tuple(sorted((
                o
                for o in self.price_offers
                if (gpu_id is None or o.gpu == gpu_id)
                and (cur is None or o.currency == cur)
                and (provider_id is None or o.provider == provider_id)
            ), key=_offer_order))
        return list(hit)

    def memo(self, kind: str) -> dict[Any, Any]:
        """A cache of values computed from this catalog (offers, markets, capacities, sweep
        columns): the catalog is frozen and an edited file gives a new one, so they never go stale.
        A long-lived process that meets many different inputs (typed prices) starts a kind over."""
        found = self._memo.setdefault(kind, {})
        if len(found) > 2048:
            found.clear()
        return found

    @cached_property
    def _memo(self) -> dict[str, dict[Any, Any]]:
        return {}

    # ------------------------------------------------------------------ lazily loaded
    @cached_property
    def defaults(self) -> Defaults:
        """``defaults.yaml`` (read on first use; DataError if the file is missing)."""
        return load_defaults(self.directory / DEFAULTS_FILE)

    @cached_property
    def fx(self) -> FxRate:
        """The dated USD/CNY rate of ``fx.yaml`` (read on first use)."""
        return load_fx(self.directory / FX_FILE)


def _offer_order(offer: PriceOffer) -> tuple[bool, int, float, str, str]:
    price = offer.per_gpu_hour
    return (
        not offer.negotiated,
        CURRENCIES.index(offer.currency),
        price if price is not None else math.inf,
        offer.provider,
        offer.sku,
    )


_ACCEPTED = {
    "gpu": "a GPU id or alias such as A100-80GB, h100, 4090 (list: `advisor gpus`)",
    "model": "a model id or alias such as llama-3.1-8b, qwen2.5-7b (see knowledge/catalog/models.yaml)",
}


def _index(kind: str, path: Path, entries: list[Gpu] | list[ModelSpec]) -> NameIndex:
    index = NameIndex(kind, str(path), _ACCEPTED[kind])
    for entry in entries:
        index.add(entry.id, entry.aliases, row=entry.id)
    return index


def _provider_index(directory: Path, providers: dict[str, Provider]) -> NameIndex:
    index = NameIndex(
        "provider",
        str(directory / PROVIDERS_FILE),
        "a provider id or name such as aws, runpod, 腾讯云 (list: `advisor prices`)",
    )
    for provider in providers.values():
        names = [provider.name, *provider.aliases] + (
            [provider.name_zh] if provider.name_zh else []
        )
        index.add(provider.id, _unclaimed(index, provider.id, names), row=provider.id)
    return index


def _unclaimed(index: NameIndex, target: str, names: list[str]) -> list[str]:
    """Provider display names may repeat an alias; keep each key once per provider."""
    seen: set[str] = set()
    kept = []
    for name in names:
        key = normalize_name(name)
        if key and key not in seen and index.find(name) in (None, target):
            seen.add(key)
            kept.append(name)
    return kept


def price_sheets(directory: Path) -> list[Path]:
    """The shipped price sheets: every ``*.csv`` in ``<catalog>/prices``, sorted."""
    folder = directory / PRICES_DIR
    return sorted(folder.glob("*.csv")) if folder.is_dir() else []


def load_catalog(directory: Path, user_prices: Path | None = None) -> Catalog:
    """Load and validate every catalog file of ``directory`` (uncached)."""
    directory = Path(directory)
    gpus = load_gpus(directory / GPUS_FILE)
    models = load_models(directory / MODELS_FILE)
    providers = load_providers(directory / PROVIDERS_FILE)
    gpu_index = _index("gpu", directory / GPUS_FILE, gpus)
    resolve_gpu = lru_cache(maxsize=None)(gpu_index.resolve)
    offers: list[PriceOffer] = []
    for sheet in price_sheets(directory):
        for offer in read_price_sheet(sheet, resolve_gpu):
            if offer.provider not in providers:
                raise DataError(
                    str(sheet),
                    f"provider {offer.provider!r} is not in {PROVIDERS_FILE}",
                    field="provider",
                    row=offer.sku or None,
                )
            offers.append(_with_increment(offer, providers))
    if user_prices is not None:
        known = _provider_index(directory, providers)
        for offer in read_price_sheet(Path(user_prices), resolve_gpu, user=True):
            provider_id = known.find(offer.provider)  # "腾讯云" in a user sheet -> tencent
            if provider_id is not None and provider_id != offer.provider:
                offer = offer.model_copy(update={"provider": provider_id})
            offers.append(_with_increment(offer, providers))
    return Catalog.model_validate(
        {
            "directory": directory,
            "gpus": gpus,
            "models": models,
            "price_offers": offers,
            "providers": providers,
            "user_prices": Path(user_prices) if user_prices is not None else None,
        },
        context={"gpu_index": gpu_index},
    )


def _with_increment(offer: PriceOffer, providers: dict[str, Provider]) -> PriceOffer:
    """Fill an empty billing increment from the provider's documented one."""
    provider = providers.get(offer.provider)
    if offer.billing_increment_s is None and provider and provider.billing_increment_s:
        return offer.model_copy(update={"billing_increment_s": provider.billing_increment_s.value})
    return offer


def _stamp(path: str) -> tuple[str, int | None]:
    try:
        return path, os.stat(path).st_mtime_ns
    except OSError:
        return path, None


# The price sheets of a prices folder, listed again only when the folder changes (adding,
# removing or renaming a sheet changes its modification time).
_SHEETS: dict[tuple[str, int | None], tuple[str, ...]] = {}


def _fingerprint(directory: Path, user_prices: Path | None) -> tuple[tuple[str, int | None], ...]:
    base = str(directory)
    folder = _stamp(os.path.join(base, PRICES_DIR))
    sheets = _SHEETS.get(folder)
    if sheets is None:
        if len(_SHEETS) >= 32:
            _SHEETS.clear()
        sheets = _SHEETS[folder] = tuple(str(f) for f in price_sheets(directory))
    stamps = [_stamp(os.path.join(base, name)) for name in (GPUS_FILE, MODELS_FILE, PROVIDERS_FILE, DEFAULTS_FILE,
                                                            FX_FILE)]
    stamps.append(folder)
    stamps.extend(_stamp(f) for f in sheets)
    if user_prices is not None:
        stamps.append(_stamp(str(user_prices)))
    return tuple(stamps)


@lru_cache(maxsize=8)
def _cached(directory: str, user_prices: str | None, stamp: tuple) -> Catalog:  # noqa: ARG001
    return load_catalog(Path(directory), Path(user_prices) if user_prices else None)


@lru_cache(maxsize=16)
def _resolved_catalog_dir(_knowledge_env: str | None, _cwd: str | None) -> Path:
    """The catalog folder with symlinks resolved, once per ``ADVISOR_KNOWLEDGE_DIR`` value (and
    working directory, for a relative one): resolving walks every path component."""

    return catalog_dir().resolve()


def get_catalog(user_prices: str | Path | None = None) -> Catalog:
    """The catalog of ``ADVISOR_KNOWLEDGE_DIR`` (default ``knowledge/``) with the user price
    sheet merged in: ``user_prices`` if given, else ``ADVISOR_PRICES``. Cached per files and
    modification times."""

    env = os.environ.get("ADVISOR_KNOWLEDGE_DIR")
    directory = _resolved_catalog_dir(env, os.getcwd() if env and not os.path.isabs(env) else None)
    given = Path(user_prices).expanduser() if user_prices else user_prices_path()
    if given is not None and not given.exists() and not given.is_symlink():
        raise DataError(str(given), "price sheet not found (check --prices or ADVISOR_PRICES)")
    if given is not None:
        check_file(given, "prices")  # FIFOs, devices, symlink loops, oversize: refused before reading
    sheet = given.resolve() if given is not None and user_prices else given
    return _cached(str(directory), str(sheet) if sheet else None, _fingerprint(directory, sheet))


def find_names(kind: str, text: str) -> list[NameHit]:
    """The catalog's ``kind`` names (gpu, model, provider) written in ``text`` — the function
    the assistant reads questions with, over the same index :meth:`Catalog.gpu` resolves by."""
    return get_catalog().name_index(kind).find_in_text(text)
