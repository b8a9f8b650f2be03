"""Recommendations a buyer can act on: every option names an offer that can be ordered, counts
no provider is known to rent are flagged and never headline, volume tiers (unpublished) do not
make huge counts look cheap in any tool, and the headline alternatives never undercut the cheapest option."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.catalog import get_catalog
from advisor.catalog.capacity import capacity_for
from advisor.engine.params import Params
from advisor.engine.sweep import _mode_cost
from advisor.present import present
from advisor.present.fmt import text_of
from advisor.tools.recommend import recommend_hardware

QLORA_72B = {"model": "qwen2.5-72b", "method": "qlora", "tokens_b": 0.5, "deadline_hours": 72}
JOBS = [
    QLORA_72B,
    {"model": "qwen2.5-7b", "method": "lora", "tokens_b": 0.2},
    {"params_b": 13, "method": "full", "tokens_b": 2, "deadline_hours": 24 * 7},
    {"model": "qwen2.5-72b", "method": "qlora", "tokens_b": 0.5, "deadline_hours": 72, "currency": "CNY", "lang": "zh"},
]


@pytest.fixture(scope="module")
def reports():
    return [recommend_hardware(**job) for job in JOBS]


def test_capacity_is_stated_or_the_largest_listed_instance() -> None:
    cat = get_catalog()
    h100 = capacity_for(cat, "H100-SXM")
    assert h100.stated is not None and h100.stated >= 2000 and h100.stated_source  # AWS / Lambda document clusters
    npu = capacity_for(cat, "Ascend-910B")
    assert npu.stated is None  # no provider of the card documents a cluster size
    assert npu.known == npu.largest_instance == max(o.gpu_count for o in cat.offers(gpu="Ascend-910B"))
    assert npu.words(npu.known) == {}
    for lang in ("en", "zh"):
        text = text_of(npu.words(npu.known * 4), lang)
        assert str(npu.known * 4) in text and npu.instance_by in text


def test_a_stated_cluster_size_covers_only_the_cards_it_names() -> None:
    cat = get_catalog()
    ids = {g.id for g in cat.gpus}
    for pid, terms in cat.providers.items():
        assert set(terms.cluster_gpus) <= ids, pid  # catalog ids only
    runpod = cat.providers["runpod"]
    assert runpod.max_cluster_gpus is not None and runpod.cluster_gpus
    a100 = capacity_for(cat, "A100-80GB")
    assert (a100.stated, a100.stated_by) == (int(runpod.max_cluster_gpus.value), "runpod")
    assert any(o.provider == "runpod" for o in cat.offers(gpu="RTX-4090"))
    assert capacity_for(cat, "RTX-4090").stated is None  # RunPod lists the 4090 but states no 4090 cluster


def test_qlora_72b_three_day_job_lists_three_card_types_with_named_offers(reports) -> None:
    r = reports[0]
    cards = {o.gpu for o in r.options}
    assert len(cards) >= 3
    for o in r.options:
        assert o.offers, o.gpu
        assert o.offers[0].provider and o.offers[0].sku and o.offers[0].price_per_gpu_hour > 0
        assert o.gpu_count <= r.max_useful_gpus[o.gpu]  # no option uses more GPUs than the job keeps busy
    assert r.fastest is not None and r.fastest.gpu_count <= r.max_useful_gpus[r.fastest.gpu]


@pytest.mark.parametrize("index", range(len(JOBS)))
def test_headlines_are_rentable_and_do_not_contradict_each_other(reports, index: int) -> None:
    r = reports[index]
    cat = get_catalog()
    tie = float(cat.defaults.value("recommend.cost_tie_share"))
    assert r.cheapest is not None and r.fastest is not None
    assert r.fastest.within_known_capacity, r.fastest
    assert r.fastest.gpu_count <= capacity_for(cat, r.fastest.gpu).known
    # the fastest option names an offer from a provider that can rent that many cards
    first = r.fastest.offers[0]
    assert r.fastest.gpu_count <= first.instance_gpus or (first.max_cluster_gpus or 0) >= r.fastest.gpu_count
    for alt in r.pareto:  # the "alternatives" never undercut the cheapest headline beyond the tie share
        assert alt.total >= r.cheapest.total * (1 - tie) - 1e-6
    for o in r.options:
        if not o.within_known_capacity:
            assert text_of(o.capacity_note, "en") and text_of(o.capacity_note, "zh") != text_of(o.capacity_note, "en")
            assert o.gpu_count > capacity_for(cat, o.gpu).known


def test_volume_tiers_only_within_a_stated_cluster_size() -> None:
    p = Params(get_catalog().defaults)
    counts = np.asarray([8, 64, 256, 1024])
    wall = np.ones((2, counts.size))
    price = np.asarray([[2.0], [2.0]])
    write_h = np.zeros(counts.size)
    plain, _ = _mode_cost("on_demand", wall, counts, price, p, write_h, np.asarray([[0.0], [0.0]]))
    np.testing.assert_allclose(plain, np.broadcast_to(counts * 2.0, plain.shape))  # no stated capacity: list price for every count
    capped, _ = _mode_cost("on_demand", wall, counts, price, p, write_h, np.asarray([[300.0], [0.0]]))
    steps = dict((int(n), float(d)) for n, d in p("billing.tiers"))
    assert capped[0, 2] == pytest.approx(256 * 2.0 * (1 - steps[256]))  # within the stated 300 GPUs
    assert capped[0, 3] == pytest.approx(1024 * 2.0)  # beyond it: no discount
    np.testing.assert_allclose(capped[1], plain[1])


def test_recommend_ranks_on_list_prices_unless_tiers_are_switched_on(reports) -> None:
    from advisor.engine.pricing import cached_quote

    cat = get_catalog()
    assert cat.defaults.value("billing.apply_volume_tiers") is False
    r = reports[0]
    large = [o for o in [*r.options, *r.pareto, r.fastest] if o is not None and o.billing == "on_demand"
             and o.gpu_count >= 64]
    assert large  # the 256-GPU fastest option at least
    for o in large:
        q = cached_quote(cat, o.gpu, "USD", None, "en")
        assert o.unit_price == pytest.approx(q.on_demand, rel=1e-6)  # no unpublished volume discount


@pytest.mark.parametrize("gpus", [64, 256, 1024])
def test_no_tool_prices_a_count_with_an_unpublished_volume_tier(gpus: int) -> None:
    from advisor.tools import compare_billing, estimate_training_cost

    small, big = (compare_billing(gpu="h100", gpu_count=n, wall_hours=100) for n in (8, gpus))
    for a, b in zip(small.options, big.options, strict=True):
        assert b.unit_price == pytest.approx(a.unit_price), a.mode  # the same list price at any count
    near = estimate_training_cost(params_b=13, method="full", tokens_b=2, gpu="h100", gpu_count=gpus - 8)
    assert "billing.tier_close" not in {f.rule_id for f in near.findings}  # no "add cards to reach a tier"
    assert not any(a.name == "billing.tiers" for a in big.assumptions)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_view_names_the_offer_behind_each_option(reports, lang: str) -> None:
    r = reports[0]
    view = present("recommend_hardware", r, lang)
    table = next(t for t in view.tables if t.key == "options")
    for row, option in zip(table.rows, r.options, strict=True):
        assert option.offers[0].provider in row[-1]
    assert r.cheapest.offers[0].provider in view.headline.note
    headline = (r.cheapest.gpu, r.cheapest.gpu_count)
    assert all(f"{headline[1]}× {headline[0]} " not in a for a in view.alternatives) or lang == "zh"


@pytest.mark.parametrize("index", range(len(JOBS)))
def test_an_equivalent_card_priced_by_its_twin_is_not_listed_twice(reports, index: int) -> None:
    from advisor.catalog.market import equivalents

    cat = get_catalog()
    r = reports[index]
    home = "CNY" if r.inputs.get("lang") == "zh" and r.inputs.get("currency") == "CNY" else str(r.inputs.get("currency"))
    shapes = {(o.gpu, o.gpu_count, o.precision, o.billing) for o in r.options}
    for o in r.options:
        twins = [t for t in equivalents(cat, o.gpu) if (t, o.gpu_count, o.precision, o.billing) in shapes]
        if twins:  # both listed: each has offers of its own in the report's market
            assert cat.offers(gpu=o.gpu, currency=home), (o.gpu, twins)
