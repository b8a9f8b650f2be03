"""Detectors: each fact in both languages, numbers normalized, negation and protective wording."""

from __future__ import annotations

import pytest

from advisor.contracts.clauses import split_clauses
from advisor.contracts.detectors import Hit, detect_text
from advisor.contracts.facts import build_facts
from advisor.contracts.reader import read_text
from advisor.contracts.vocabulary import detectors


def hits(text: str, detector: str) -> list[Hit]:
    return [h for h in detect_text(text) if h.detector == detector]


def kinds(text: str, detector: str) -> set[str]:
    return {h.kind for h in hits(text, detector)}


def facts(text: str) -> dict:
    return build_facts(detect_text(text))


TRAPS = [
    ("renewal", "This Agreement shall automatically renew for successive one (1) year terms."),
    ("renewal", "租期届满前三十日内甲方未书面提出异议的，本合同自动续约12个月。"),
    ("price_change", "Provider may change its prices at any time upon thirty (30) days' notice."),
    ("price_change", "乙方有权根据市场行情调整服务价格。"),
    ("minimum_commitment", "Customer commits to a minimum spend of USD 1,000,000 per year."),
    ("minimum_commitment", "甲方承诺每月最低消费金额为人民币 800,000 元。"),
    ("billing_after_release", "Stopped instances continue to be billed until they are terminated."),
    ("billing_after_release", "实例处于停机或闲置状态的，照常计费。"),
    ("storage_retention", "Persistent volumes remain billable after the instance is stopped."),
    ("storage_retention", "云盘在实例释放后继续计费。"),
    ("data_egress", "Data transfer out is charged at USD 0.09 per GB."),
    ("data_egress", "公网出网流量按 0.80 元/GB 另行计费。"),
    ("hidden_fees", "Software licenses are not included in the fees and are billed separately."),
    ("hidden_fees", "技术支持服务另行收费。"),
    ("failure_recompute", "Provider shall not be liable for lost training progress or the cost of re-running jobs."),
    ("failure_recompute", "因乙方设备故障导致训练任务中断的，重新训练所需费用由甲方自行承担。"),
    ("spot_reclaim", "Spot instances may be reclaimed at any time without prior notice."),
    ("spot_reclaim", "平台有权随时回收抢占式实例，且不另行通知。"),
    ("early_termination", "Prepaid fees are non-refundable."),
    ("early_termination", "甲方提前解约的，已支付的费用概不退还。"),
    ("termination_for_convenience", "Provider may terminate this Agreement for convenience upon seven (7) days' notice."),
    ("termination_for_convenience", "乙方有权提前3日书面通知甲方解除本协议，无需说明理由。"),
    ("usage_alerts", "Customer is solely responsible for monitoring its usage and charges."),
    ("usage_alerts", "甲方应自行监控资源用量及费用。"),
    ("billing_granularity", "Partial hours are rounded up to the next full hour."),
    ("billing_granularity", "不足一天的按一天计收。"),
    ("sla_disclaimer", "Provider does not guarantee that the Services will be uninterrupted."),
    ("sla_disclaimer", "乙方不保证服务不中断。"),
]

PROTECTIONS = [
    ("renewal", "This Lease does not renew automatically."),
    ("renewal", "本合同期满不自动续约，续约须经甲方书面确认。"),
    ("price_lock", "Prices are fixed for the entire term and shall not be increased during the term."),
    ("price_lock", "合同期内租金单价固定不变。"),
    ("billing_after_release", "Billing stops when Customer releases the instance."),
    ("billing_after_release", "甲方释放资源后，即时停止计费。"),
    ("data_egress", "There are no fees for data ingress or egress."),
    ("data_egress", "公网流量免费。"),
    ("hidden_fees", "The fees include GPU drivers, images and standard support; there are no other fees."),
    ("hidden_fees", "租金已包含操作系统、驱动及技术支持，乙方不另行收取任何其他费用。"),
    ("failure_recompute", "Provider shall credit the GPU-hours needed to re-run the job at no charge."),
    ("failure_recompute", "重新训练所需的卡时由乙方承担。"),
    ("early_termination", "Unused prepaid fees will be refunded pro rata."),
    ("early_termination", "未使用的预付租金按比例退还。"),
    ("usage_alerts", "Provider provides usage and budget alerts."),
    ("usage_alerts", "闲置超过24小时的节点，乙方发送闲置提醒。"),
    ("tiered_discount", "Volume discount: more than 32 GPUs are 10% off."),
    ("tiered_discount", "阶梯价格：租用满16台以上优惠10%。"),
]


@pytest.mark.parametrize(("detector", "text"), TRAPS)
def test_traps_are_found(detector: str, text: str) -> None:
    assert "trap" in kinds(text, detector), text


@pytest.mark.parametrize(("detector", "text"), PROTECTIONS)
def test_protections_are_not_traps(detector: str, text: str) -> None:
    found = kinds(text, detector)
    assert "protect" in found, text
    assert "trap" not in found, text


@pytest.mark.parametrize(
    ("text", "detector"),
    [
        ("This Agreement shall not automatically renew.", "renewal"),
        ("本合同不自动续约。", "renewal"),
        ("Stopped instances shall not continue to be billed.", "billing_after_release"),
        ("技术支持不另行收费。", "hidden_fees"),
        ("No service credits apply.", "sla_credit"),
    ],
)
def test_negated_wording_is_not_a_trap(text: str, detector: str) -> None:
    assert "trap" not in kinds(text, detector)
    if detector == "sla_credit":
        assert not hits(text, detector)


def test_renewal_values() -> None:
    f = facts("This Agreement shall automatically renew for successive twelve (12) month periods unless either party gives notice of non-renewal at least ninety (90) days before the end of the then-current term.")
    assert f["auto_renewal"] is True
    assert f["renewal_term_months"] == pytest.approx(12)
    assert f["renewal_notice_days"] == pytest.approx(90)
    f = facts("租期届满前三十日内甲方未书面提出不续约的，本协议自动续约12个月。")
    assert (f["renewal_term_months"], f["renewal_notice_days"]) == (pytest.approx(12), pytest.approx(30))


def test_price_change_notice_and_party() -> None:
    f = facts("乙方有权提前7日通知调整价格。")
    assert f["provider_may_change_prices"] is True
    assert f["price_change_notice_days"] == pytest.approx(7)
    assert "provider_may_change_prices" not in facts("Customer may request an adjustment of the fees.")


def test_termination_parties() -> None:
    f = facts("Provider may terminate this Agreement for convenience upon seven (7) days' notice.")
    assert f["provider_may_terminate_for_convenience"] and f["provider_termination_notice_days"] == pytest.approx(7)
    f = facts("甲方可提前30日书面通知乙方解除本合同。")
    assert f["customer_may_terminate_for_convenience"] and "provider_may_terminate_for_convenience" not in f
    f = facts("Either party may terminate this Agreement without cause upon ninety (90) days' written notice.")
    assert f["provider_may_terminate_for_convenience"] and f["customer_may_terminate_for_convenience"]
    assert "termination_for_convenience" not in facts("Either party may terminate this Agreement if the other party materially breaches it.")


def test_sla_values() -> None:
    f = facts("服务等级：乙方承诺月度可用性不低于 99.9%。因乙方原因导致服务中断的，乙方按中断时长的 200% 向甲方补偿免费卡时，或以现金方式退还。")
    assert f["sla_availability_pct"] == pytest.approx(99.9)
    assert f["outage_compensation_pct"] == pytest.approx(200)
    assert f["sla_credit_form"] == "cash"
    f = facts("Service credits may only be applied against future invoices. Total credits shall not exceed 25% of the monthly fee. Customer must request a credit within ten (10) days.")
    assert f["sla_credit_only"] and f["sla_credit_cap_pct"] == pytest.approx(25)
    assert f["sla_claim_window_days"] == pytest.approx(10)


def test_liability_values() -> None:
    f = facts("Provider's total liability shall not exceed the fees paid in the one (1) month preceding the claim.")
    assert f["liability_cap_months"] == pytest.approx(1)
    f = facts("Each party's aggregate liability is limited to the fees paid in the twelve (12) months preceding the claim.")
    assert f["liability_cap_months"] == pytest.approx(12)
    f = facts("乙方的赔偿责任总额不超过甲方当月已支付的服务费。")
    assert f["liability_cap_months"] == pytest.approx(1)
    assert "liability_cap" not in facts("Customer shall maintain liability insurance with limits of not less than $1,000,000.")


def test_money_and_granularity_values() -> None:
    f = facts("公网出网流量按 0.80 元/GB 另行计费。")
    assert f["egress_price_per_gb"] == pytest.approx(0.8)
    f = facts("甲方承诺每月最低消费金额为人民币 800,000 元，未达到的差额部分由甲方补足。")
    assert f["minimum_commitment_amount"] == pytest.approx(800000) and f["take_or_pay"] is True
    assert facts("资源按天计费，不足一天的按一天计收。")["billing_rounding_hours"] == pytest.approx(24)
    assert facts("Compute is billed per second.")["billing_unit_hours"] == pytest.approx(1 / 3600)
    assert facts("Spot instances get a two (2) minute warning before they are reclaimed.")["spot_reclaim_notice_seconds"] == pytest.approx(120)


@pytest.mark.parametrize("text", [
    "The Distributor shall maintain a sales force of no fewer than ten (10) representatives in each calendar year.",
    "theglobe shall provide a minimum of 500,000 impressions per month on the co-branded pages.",
    "乙方每月提供的GPU卡时不少于1000小时。",
])
def test_a_floor_no_customer_buys_is_addressed_not_a_trap(text: str) -> None:
    """The fitted reader (commitment.py) shows such a floor; only a duty to buy or pay is a trap."""
    f = facts(text)
    assert "minimum_commitment" not in f
    assert f["quantity_floor"] is True


def test_the_reader_asks_more_of_a_sentence_in_a_long_contract() -> None:
    from advisor.contracts.commitment import reader

    r = reader()
    assert r.threshold_for(1) == r.threshold < r.threshold_for(500) < 1.0
    floor = "The Distributor shall maintain a sales force of no fewer than ten (10) representatives in each calendar year."
    filler = "\n\n".join(f"{i}. The Customer shall keep the price list confidential for at least {i} years." for i in range(2, 60))
    assert facts(floor)["quantity_floor"] is True
    assert r.threshold <= r.score(floor) < r.threshold_for(60)
    assert "quantity_floor" not in facts(f"{filler}\n\n60. {floor}")


def test_a_reader_stops_only_when_the_parts_a_sentence_lacks_keep_it_below_the_threshold() -> None:
    """Reader.score skips the features of a sentence whose missing parts already keep its score
    below the threshold: every reader gives the same verdict as its full feature score."""
    import math
    from pathlib import Path

    from advisor.contracts.commitment import readers

    texts = [p.read_text(encoding="utf-8") for p in sorted(Path("tests/fixtures/contracts").glob("*.txt"))]
    sentences = [s.text for t in texts for c in split_clauses(read_text(t)) for s in c.sentences]
    cut = 0
    for name, r in readers().items():
        for s in sentences:
            z = r.bias + sum(w for w, x in zip(r.weights, r.features(s), strict=True) if x)
            full, fast = 1.0 / (1.0 + math.exp(-z)), r.score(s)
            assert (fast >= r.threshold) == (full >= r.threshold), (name, s)
            cut += fast != pytest.approx(full)
            assert fast == pytest.approx(full) or full <= fast < r.threshold, (name, s)
    assert cut  # the bound does stop early


def test_a_repeated_sentence_is_a_hit_at_each_place() -> None:
    text = "1. Prices may be changed by Provider at any time.\n\n2. Service terms.\n\n3. Prices may be changed by Provider at any time."
    hits = [h for h in detect_text(text) if h.detector == "price_change"]
    assert [h.sentence.location.line for h in hits] == [1, 5] and hits[0].kind == hits[1].kind == "trap"


def test_evidence_has_quote_and_location() -> None:
    f = facts("第五条 续约\n5.1 本协议自动续约12个月。")
    ev = f["_evidence"]["auto_renewal"]
    assert ev["quote"] == "5.1 本协议自动续约12个月。"
    assert ev["location"] == {"section": "5.1", "page": 1, "line": 2}


def test_every_detector_has_a_category_from_design_or_none() -> None:
    from advisor.rules.schema import CONTRACT_CATEGORIES

    for spec in detectors():
        assert spec.category is None or spec.category in CONTRACT_CATEGORIES, spec.name


def test_fact_table_names_declared_facts_and_known_detectors() -> None:
    """advisor/contracts/facts.yaml: a typo in a fact or detector name would silently drop a fact."""
    from pathlib import Path

    import yaml

    from advisor.contracts.facts import FACTS_PATH

    declared = yaml.safe_load(Path("rules/facts/contract.yaml").read_text(encoding="utf-8"))
    rows = yaml.safe_load(FACTS_PATH.read_text(encoding="utf-8"))["facts"]
    known = {d.name for d in detectors()}
    assert rows
    for row in rows:
        assert row["fact"] in declared, row
        assert row["detector"] in known, row
        assert set(row) <= {"fact", "detector", "kinds", "prefer", "party_not", "party_in", "where", "value",
                            "if_true", "count", "min", "sum", "set"}, row
