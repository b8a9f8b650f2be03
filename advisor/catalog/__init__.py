"""The catalog layer: GPUs, models, price offers, providers, engine defaults and the
exchange rate, loaded from ``knowledge/catalog/`` and validated.

>>> from advisor.catalog import get_catalog
>>> cat = get_catalog()
>>> cat.gpu("a100").id
'A100-80GB'

Every malformed file raises :class:`advisor.errors.DataError` naming the file, row and
field; unknown names raise :class:`advisor.errors.UnknownNameError` with close matches.
"""

from advisor.catalog.catalog import Catalog, get_catalog, load_catalog
from advisor.catalog.defaults import DefaultEntry, Defaults
from advisor.catalog.gpus import PRECISIONS, Gpu
from advisor.catalog.models import ModelSpec
from advisor.catalog.names import normalize_name
from advisor.catalog.prices import PriceOffer
from advisor.catalog.providers import Provider

__all__ = [
    "PRECISIONS",
    "Catalog",
    "DefaultEntry",
    "Defaults",
    "Gpu",
    "ModelSpec",
    "PriceOffer",
    "Provider",
    "get_catalog",
    "load_catalog",
    "normalize_name",
]
