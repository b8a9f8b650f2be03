"""The cost tools end to end: recommend (sweep, Pareto), plan (stages), findings attached."""

from __future__ import annotations

import pytest

from advisor.catalog import get_catalog
from advisor.errors import InputError
from advisor.present import present
from advisor.present.fmt import text_of
from advisor.tools import compare_billing, estimate_training_cost, plan_project, recommend_hardware


def test_recommend_sweeps_over_50k_configurations_and_ranks_by_cost() -> None:
    r = recommend_hardware(model="llama-3.1-70b", method="full", tokens_b=10)
    assert r.evaluated >= 50_000
    totals = [o.total for o in r.options]
    assert totals == sorted(totals)
    assert r.cheapest is not None and r.cheapest.total == min(totals)
    assert all(o.per_gpu_gb <= o.gpu_memory_gb for o in r.options)


def test_pareto_front_has_no_dominated_option() -> None:
    r = recommend_hardware(model="qwen2.5-7b", method="lora", tokens_b=0.5)
    for a in r.pareto:
        assert not any(b.total < a.total and b.wall_hours < a.wall_hours for b in r.pareto)
    costs = [o.total for o in r.pareto]
    assert costs == sorted(costs)


def test_recommend_respects_deadline_and_budget() -> None:
    r = recommend_hardware(model="qwen2.5-7b", method="full", tokens_b=1, deadline_hours=12, budget=2000)
    assert r.options and all(o.wall_hours <= 12 and o.total <= 2000 for o in r.options)
    impossible = recommend_hardware(model="llama-3.1-405b", method="pretrain", tokens_b=15000, deadline_hours=24,
                                    max_gpus=64)
    assert impossible.cheapest is None and "No option" in present("recommend_hardware", impossible, "en").summary


def test_recommend_refuses_a_fixed_gpu() -> None:
    with pytest.raises(InputError, match="recommend chooses"):
        recommend_hardware(model="qwen2.5-7b", method="lora", tokens_b=0.1, gpu="h100")


@pytest.mark.parametrize(("out", "within"), [(["RTX-4090"], None), (["h100", "A100 80GB"], None), (["L40S"], ["L40S", "A10"])])
def test_recommend_leaves_out_the_excluded_cards(out: list[str], within: list[str] | None) -> None:
    base = {"model": "qwen3-8b", "method": "qlora", "tokens_b": 0.008, "gpus": within}
    gone = {get_catalog().gpu(g).id for g in out}
    r = recommend_hardware(**base, exclude_gpus=out)
    cards = {o.gpu for o in [*r.options, *r.pareto]}
    assert cards and not cards & gone and (within is None or cards <= {get_catalog().gpu(g).id for g in within})
    assert gone & {o.gpu for o in recommend_hardware(**base).options}  # the excluded cards were candidates


@pytest.mark.parametrize(("gpus", "out", "says"), [(["A10"], ["a10"], "at least one"), (None, [" "], "empty")])
def test_an_exclusion_that_leaves_nothing_or_names_nothing_is_refused(gpus: list[str] | None, out: list[str], says: str) -> None:
    with pytest.raises(InputError, match=says):
        recommend_hardware(model="qwen2.5-7b", method="lora", tokens_b=0.1, gpus=gpus, exclude_gpus=out)


def test_plan_stages_add_up_and_validation_comes_first() -> None:
    r = plan_project(model="llama-2-7b", pretrain_tokens_b=100, finetune_tokens_b=0.5, serving_tokens_per_day=5e7,
                     serving_days=90, gpu="H100", currency="CNY")
    assert [s.stage for s in r.stages] == ["validation", "pretrain", "finetune", "serving"]
    assert sum(s.share for s in r.stages) == pytest.approx(1.0)
    assert r.total == pytest.approx(sum(s.cost for s in r.stages))
    assert r.low <= r.total <= r.high
    assert r.stages[1].billing == "monthly"  # long pre-training on a term (REQUIREMENTS B1)
    assert "预训练" in present("plan_project", r, "zh").summary


@pytest.mark.parametrize(("main", "tokens_b"), [("pretrain", 100.0), ("finetune", 0.5)])
def test_a_validation_stage_given_only_its_cards_runs_the_default_share_of_the_main_stage(main: str, tokens_b: float) -> None:
    r = plan_project(params_b=7, stages=[{"stage": "validation", "gpu": "A100", "gpu_count": 8},
                                         {"stage": main, "gpu": "H800", "gpu_count": 64, "tokens_b": tokens_b}])
    method = "pretrain" if main == "pretrain" else "lora"  # the validation runs the main stage's job, smaller
    full = plan_project(params_b=7, stages=[{"stage": "validation", "gpu": "A100", "gpu_count": 8, "tokens_b": tokens_b * 0.01,
                                             "method": method},
                                            {"stage": main, "gpu": "H800", "gpu_count": 64, "tokens_b": tokens_b}])
    assert (r.stages[0].gpu, r.stages[0].gpu_count) == ("A100-80GB", 8)
    assert 0 < r.stages[0].gpu_hours < r.stages[1].gpu_hours
    assert any(a.name == "plan.validation_token_share" for a in r.assumptions)
    assert r.stages[0].gpu_hours == pytest.approx(full.stages[0].gpu_hours)


def test_serving_needs_more_gpus_for_more_traffic() -> None:
    small = plan_project(model="llama-3.1-70b", serving_tokens_per_day=1e7, gpu="H100")
    large = plan_project(model="llama-3.1-70b", serving_tokens_per_day=5e9, gpu="H100")
    assert large.stages[-1].gpu_count > small.stages[-1].gpu_count


def test_findings_explain_why_with_facts_and_requirements() -> None:
    r = estimate_training_cost(model="llama-3.1-70b", method="full", tokens_b=1, gpu="T4", gpu_count=1)
    ids = {f.rule_id for f in r.findings}
    assert any("does_not_fit" in i for i in ids)
    for f in r.findings:
        assert f.requirement and f.evidence.get("conditions")
        assert f.text["zh"].title and f.text["en"].title


def test_billing_tool_gives_break_even_and_findings() -> None:
    r = compare_billing(gpu="h100", gpu_count=64, wall_hours=1440, interruptible=True)
    assert r.break_even.monthly_hours_per_month < 730
    assert r.recommended in {o.mode for o in r.options}
    assert r.findings


def test_recommend_lists_card_types_first_each_with_a_named_offer() -> None:
    # QLoRA of a 72B model on 0.5B tokens within 3 days (issue #14's example), and a variant.
    for kwargs in ({"model": "qwen2.5-72b", "tokens_b": 0.5, "deadline_hours": 72},
                   {"params_b": 34, "tokens_b": 0.3, "deadline_hours": 48}):
        r = recommend_hardware(method="qlora", **kwargs)
        cards = [o.gpu for o in r.options]
        assert len(set(cards)) >= 3
        first = cards[: len(set(cards))]
        assert len(set(first)) == len(first)  # best option per card type before any count variant
        for o in r.options:
            assert o.offers and o.offers[0].provider and o.offers[0].sku and o.offers[0].as_of
            said = [text_of(o.offers[0].capacity, lang) for lang in ("en", "zh")]
            assert all(said) and said[0] != said[1]
            assert o.gpu_count <= r.max_useful_gpus[o.gpu]
        assert r.fastest is not None and r.fastest.gpu_count <= r.max_useful_gpus[r.fastest.gpu]
        assert r.excluded["beyond_scaling_limit"] > 0


def test_consumer_options_carry_interconnect_and_licence_findings() -> None:
    r = recommend_hardware(model="llama-2-13b", method="pretrain", tokens_b=20, gpus=["RTX-4090", "A100"],
                           top_k=10)
    multi = [o for o in r.options if o.gpu == "RTX-4090" and o.gpu_count > 8]
    assert multi, "expected a multi-node 4090 option"
    for o in multi:
        ids = {f.rule_id for f in o.findings}
        assert {"fleet.geforce_datacenter_licence", "fleet.consumer_cards_at_scale"} <= ids
    assert all(not o.findings for o in r.options if o.gpu == "A100-80GB")


@pytest.mark.parametrize(
    ("params_b", "tokens_b", "gpu"), [(1, 0.05, "H100"), (0.5, 0.03, "H200"), (3, 0.08, "h100 sxm")]
)
def test_small_job_on_flagship_cards_is_a_warning_with_a_same_basis_saving(
    params_b: float, tokens_b: float, gpu: str
) -> None:
    r = estimate_training_cost(params_b=params_b, method="lora", tokens_b=tokens_b, gpu=gpu, gpu_count=8)
    alt = r.alternatives.cheaper_gpu
    assert alt is not None and alt["saving"] > 0
    overkill = next(f for f in r.findings if f.rule_id == "sizing.overkill_gpu")
    assert overkill.severity == "warning" and overkill.savings is not None
    assert overkill.savings.amount == pytest.approx(alt["saving"], abs=0.01)  # rounded to cents
    # both sides GPU time only: the saving is less than the GPU line of the headline
    gpu_line = next(c.amount for c in r.cost.components if c.name == "gpu_usage")
    assert alt["cost"] + alt["saving"] <= gpu_line * 1.05
    for f in r.findings:  # no deadline was given, so none is invoked
        assert "deadline" not in (f.detail + f.recommendation).lower()
        assert f.rule_id != "sizing.flagship_for_small_finetune"


def test_recommend_accepts_a_billing_mode_and_billing_modes_together() -> None:
    r = recommend_hardware(model="qwen2.5-7b", method="lora", tokens_b=0.1, billing="monthly",
                           billing_modes=["on_demand", "monthly"])
    assert r.options


def test_recommend_states_which_market_offers_and_dates_priced_each_card() -> None:
    for currency, lang, choice in (("USD", "en", "local"), ("CNY", "en", "convert"), ("CNY", "zh", "local")):
        r = recommend_hardware(model="qwen2.5-7b", method="lora", tokens_b=0.2, currency=currency, lang=lang)
        names = {a.name: a for a in r.assumptions}
        assert str(names["price.market"].value).startswith(choice)
        for o in r.options:
            source = names[f"price_per_gpu_hour.{o.gpu}"].source
            assert "provider(s)" in source and "price dates" in source


def test_select_shows_the_fewest_gpus_among_a_cards_equally_cheap_rows() -> None:
    import numpy as np

    from advisor.engine.sweep import SweepResult
    from advisor.tools.recommend import select

    def result(totals: list[float]) -> SweepResult:
        n = len(totals)
        arr = np.asarray
        return SweepResult(
            gpu=arr(["A"] * 3 + ["B"] * (n - 3), dtype=object), count=arr([4, 64, 256, 8, 16][:n]),
            precision=arr(["bf16"] * n, dtype=object), mode=arr(["on_demand"] * n, dtype=object),
            total=arr(totals, dtype=float), wall_hours=arr([50.0, 4.0, 1.0, 20.0, 10.0][:n]),
            gpu_hours=arr([200.0] * n), per_gpu_gb=arr([10.0] * n), memory_gb=arr([80.0] * n),
            mfu=arr([0.3] * n), fits=np.ones(n, bool), meets=np.ones(n, bool), in_budget=np.ones(n, bool),
            unit_price=arr([1.0] * n), evaluated=n, unpriced=[], scalable=np.ones(n, bool),
            gpu_code=arr([0, 0, 0, 1, 1][:n]), gpu_ids=("A", "B"),
        )

    picks, _, fastest = select(result([100.0, 98.0, 95.0, 200.0, 210.0]), 5, tie=0.15)
    res = result([100.0, 98.0, 95.0, 200.0, 210.0])
    assert [(res.gpu[i], int(res.count[i])) for i in picks[:2]] == [("A", 4), ("B", 8)]
    assert fastest is not None and int(res.count[fastest]) == 256
    picks, _, _ = select(result([130.0, 98.0, 95.0, 200.0, 210.0]), 5, tie=0.15)
    assert int(res.count[picks[0]]) == 64  # 4 GPUs cost 37 % more: not equally cheap
    picks, _, _ = select(result([100.0, 98.0, 95.0, 200.0, 210.0]), 5, tie=0.0)
    assert int(res.count[picks[0]]) == 256
