"""How many cards of one type a buyer can be known to rent (providers.yaml, price sheets).

Two figures per card, over every provider that lists it (any currency):

- ``stated``: the largest cluster a provider documents for one customer
  (``max_cluster_gpus`` in providers.yaml, with its source; ``cluster_gpus`` limits it to the
  cards it covers), or None when no provider of the card states one;
- ``largest_instance``: the most cards in one listed instance (one machine is rentable at its
  listed price).

``known`` is the larger of the two: a count above it is not known to be rentable from any
provider in the data. ``recommend`` keeps such counts in its list, flagged, but never makes
them its fastest headline, and the sweep gives volume-tier discounts only up to ``stated``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Capacity:
    gpu: str
    stated: int | None  # largest documented cluster among the card's providers
    stated_by: str | None
    stated_source: str | None
    largest_instance: int  # most cards in one listed instance (0 = no offer)
    instance_by: str | None

    @property
    def known(self) -> int:
        return max(self.stated or 0, self.largest_instance)

    def words(self, count: int) -> dict[str, Any]:
        """Whether ``count`` cards are known to be rentable, as a word reference (empty when they are)."""
        if count <= self.known:
            return {}
        return {"term": "capacity.stated" if self.stated else "capacity.instance", "count": f"{count:,}", "gpu": self.gpu,
                "stated": f"{self.stated or 0:,}", "by": self.stated_by, "largest": self.largest_instance,
                "instance_by": self.instance_by}


def capacity_for(catalog: Any, gpu: str) -> Capacity:
    """What the providers listing ``gpu`` are known to rent (see the module doc); once per catalog and card."""
    memo = catalog.memo("capacity")
    if gpu not in memo:
        memo[gpu] = _capacity(catalog, gpu)
    return memo[gpu]  # type: ignore[no-any-return]


def _capacity(catalog: Any, gpu: str) -> Capacity:
    stated: int | None = None
    stated_by = stated_source = instance_by = None
    largest = 0
    for offer in catalog.offers(gpu=gpu):
        if offer.negotiated:
            continue
        if offer.gpu_count > largest:
            largest, instance_by = offer.gpu_count, offer.provider
        terms = catalog.providers.get(offer.provider)
        known = terms.max_cluster_gpus if terms is not None else None
        if terms is not None and known is not None and terms.cluster_gpus and gpu not in terms.cluster_gpus:
            known = None  # the stated cluster is of other cards
        if known is not None and (stated is None or int(known.value) > stated):
            stated, stated_by, stated_source = int(known.value), offer.provider, known.source
    return Capacity(gpu, stated, stated_by, stated_source, largest, instance_by)
