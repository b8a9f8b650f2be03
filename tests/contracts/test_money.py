"""Money at risk per priceable finding, from the contract's own figures, and the same
categories, severities and amounts for the same contract in Chinese and in English."""

from __future__ import annotations

import pytest

from advisor.contracts.money import defaults
from advisor.tools.contract import review_contract

ZH = """GPU 算力租赁合同
第一条 租期与费用
租期为12个月，月租金为人民币{fee}元。
第二条 续约
租期届满前30日甲方未书面提出异议的，本合同自动续约{renew}个月。
第三条 最低消费
甲方承诺每月最低消费金额为人民币{floor}元，未达到的差额部分由甲方补足。
第四条 提前解约
甲方提前解约的，已预付租金不予退还，并应另行支付剩余租期租金的{pct}%作为违约金。
第五条 服务可用性
服务中断的，乙方以代金券形式补偿，补偿总额不超过当月服务费的{cap}%。
第六条 计费
实例停机后仍继续计费{days}天，释放后停止计费。按小时计费，不足一小时按一小时计。
"""
EN = """GPU COMPUTE LEASE
1. Term and fees. The term of this Agreement is twelve (12) months. The monthly fee is CNY {fee}.
2. Renewal. This Agreement automatically renews for successive {renew} month terms unless either party gives notice of non-renewal at least 30 days before the end of the term.
3. Minimum commitment. Customer commits to a minimum spend of CNY {floor} per month; any shortfall will be invoiced.
4. Early termination. If Customer terminates early, prepaid fees are non-refundable and Customer shall pay {pct}% of the fees for the remaining term as a penalty.
5. Availability. Outages are compensated with service credits only; credits shall not exceed {cap}% of the monthly fee.
6. Billing. Stopped instances continue to be billed for {days} days until released. Usage is billed hourly; any partial hour is rounded up to the next full hour.
"""
# the same terms in other words: renewal that rolls over, a floor with a shortfall, leaving early,
# capped credits, a stopped instance still billed, a fraction of an hour counted whole
ZH2 = """GPU 算力服务订单
第一条 服务期限
服务期限自生效日起共12个月，每月服务费人民币{fee}元。
第二条 续期
期满前30日内甲方未书面提出终止的，本订单自动延长{renew}个月。
第三条 保底消费
甲方每月消费不低于人民币{floor}元，不足部分按差额补缴。
第四条 中途退租
甲方中途退租的，已付款项不予返还，另应按剩余租期租金的{pct}%向乙方支付违约金。
第五条 故障补偿
服务中断的，乙方发放代金券作为补偿，每月补偿上限为当月服务费的{cap}%。
第六条 计费方式
实例关机后{days}天内照常计费，释放后停止计费。计费以小时为单位，使用不满一小时的按一小时收费。
"""
EN2 = """GPU RENTAL ORDER
1. Term and fees. This Order runs for twelve (12) months at a monthly fee of CNY {fee}.
2. Renewal. Unless Customer objects in writing 30 days before expiry, this Order rolls over for a further {renew} months.
3. Minimum spend. Customer shall spend no less than CNY {floor} each month and pays any shortfall.
4. Leaving early. A Customer that leaves before the end of the Term forfeits its prepaid fees and owes Provider {pct}% of the fees for the rest of the Term as a penalty.
5. Outages. Provider compensates outages with service credits only, capped at {cap}% of the monthly fee.
6. Metering. A stopped instance keeps being billed for {days} days until it is released. Usage is billed per hour; any fraction of an hour counts as a whole hour.
"""
PAIRS = [(ZH, EN), (ZH2, EN2)]
VALUES = [
    {"fee": 100000, "renew": 12, "floor": 80000, "pct": 30, "cap": 5, "days": 10},
    {"fee": 45000, "renew": 6, "floor": 20000, "pct": 50, "cap": 10, "days": 3},
]


def at_risk(text: str) -> dict[str, tuple[str, str, float | None]]:
    report = review_contract(text=text)
    return {f.rule_id: (f.category, f.severity, f.savings.amount if f.savings else None) for f in report.findings}


@pytest.mark.parametrize("pair", PAIRS, ids=["wording1", "wording2"])
@pytest.mark.parametrize("v", VALUES)
def test_each_priceable_finding_says_how_much(v: dict, pair: tuple[str, str]) -> None:
    found = at_risk(pair[0].format(**v))
    hours = defaults().value("contract.hours_per_month")
    job = defaults().value("contract.short_job_hours")
    left = 12 - defaults().value("contract.early_exit_after_months")
    fee = v["fee"]
    assert found["contract.auto_renewal_cost"][2] == pytest.approx(fee * v["renew"])
    assert found["contract.take_or_pay"][2] == pytest.approx(v["floor"] * 12)
    assert found["contract.early_termination_penalty"][2] == pytest.approx(v["pct"] / 100 * fee * left)
    assert found["contract.sla_credit_cap_low"][2] == pytest.approx(fee * (1 - v["cap"] / 100))
    assert found["contract.billing_after_stop"][2] == pytest.approx(fee / hours * 24 * v["days"], abs=0.01)
    assert found["contract.hourly_rounding"][2] == pytest.approx(fee / hours * (1 - job), abs=0.01)


@pytest.mark.parametrize("pair", PAIRS, ids=["wording1", "wording2"])
@pytest.mark.parametrize("v", VALUES)
def test_chinese_and_english_give_the_same_categories_severities_and_amounts(v: dict, pair: tuple[str, str]) -> None:
    assert at_risk(pair[0].format(**v)) == at_risk(pair[1].format(**v))


def test_defaults_behind_the_amounts_are_listed_as_assumptions() -> None:
    report = review_contract(text=ZH.format(**VALUES[0]))
    names = {a.name for a in report.assumptions}
    assert {"contract.hours_per_month", "contract.short_job_hours", "contract.early_exit_after_months"} <= names
    assert all(a.source for a in report.assumptions)


def test_a_user_given_monthly_fee_prices_a_renewal_the_contract_does_not_price() -> None:
    text = "2. Renewal. This Agreement automatically renews for successive twelve (12) month terms."
    assert "contract.auto_renewal_cost" not in at_risk(text)
    report = review_contract(text=text, monthly_fee=2000, currency="USD")
    cost = next(f for f in report.findings if f.rule_id == "contract.auto_renewal_cost")
    assert cost.savings is not None and cost.savings.amount == pytest.approx(24000)


RATE_FLOOR = {
    "en": "1. Term. The term of this Agreement is 12 months.\n2. Usage. Customer will use no fewer than {hours:,} GPU-hours in every calendar month, at USD {rate} per GPU-hour.",
    "zh": "第一条 期限\n本合同期限为12个月。\n第二条 用量\n甲方每月使用的GPU卡时不得少于{hours}小时，单价为每卡时{rate}美元。",
}
SUM_FLOOR = {
    "en": "1. Term. The term of this Agreement is 12 months.\n2. Minimum. Customer's monthly invoice shall in no event be lower than USD {floor:,}, at USD {rate}/hour.",
    "zh": "第一条 期限\n本合同期限为12个月。\n第二条 最低费用\n甲方每月的账单金额不得低于{floor}美元，单价为每小时{rate}美元。",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("hours", "rate", "floor"), [(2000, 2, 15000), (640, 3.5, 9000)])
def test_a_unit_rate_is_not_the_committed_amount(lang: str, hours: int, rate: float, floor: int) -> None:
    """A floor in GPU-hours is priced at the contract's hourly rate; a floor in money is the
    money, whatever rate the sentence also quotes; the term multiplies a monthly floor."""
    by_hours = at_risk(RATE_FLOOR[lang].format(hours=hours, rate=rate))
    by_sum = at_risk(SUM_FLOOR[lang].format(floor=floor, rate=rate))
    assert by_hours["contract.minimum_commitment"][2] == pytest.approx(hours * rate * 12)
    assert by_sum["contract.minimum_commitment"][2] == pytest.approx(floor * 12)


STOP_FEE_EGRESS = {
    "en": "1. Fees. The monthly fee is CNY {fee:,}.\n2. Stopping. While an instance is stopped, Provider charges a reservation fee of {share}% of its unit price until it is released.\n3. Network. Outbound traffic is billed at CNY {rate} per GB.",
    "zh": "第一条 费用\n月服务费为人民币{fee}元。\n第二条 停机\n实例关机后，乙方按单价的{share}%收取资源保留费，直至甲方释放实例。\n第三条 网络\n公网出网流量按每GB人民币{rate}元收费。",
}


@pytest.mark.parametrize("v", [{"fee": 60000, "share": 30, "rate": 0.8}, {"fee": 24000, "share": 50, "rate": 0.12}])
def test_a_fee_while_stopped_and_egress_per_gb_are_priced_alike_in_both_languages(v: dict) -> None:
    en, zh = (at_risk(STOP_FEE_EGRESS[lang].format(**v)) for lang in ("en", "zh"))
    assert en == zh
    days = defaults().value("contract.stopped_days_unnoticed")
    hours = defaults().value("contract.hours_per_month")
    assert en["contract.billing_after_stop"][1:] == ("critical", pytest.approx(v["fee"] / hours * 24 * days * v["share"] / 100, abs=0.01))
    assert en["contract.egress_charged"][2] == pytest.approx(v["rate"] * defaults().value("contract.egress_gb"))


EXTRAS = {
    "en": [
        "1. Order. Provider rents Customer {servers} GPU servers. The monthly fee is USD {fee:,}. This Order has a term of {term} months.\n"
        "2. Setup. A one-time setup fee of USD {setup} per node is payable with the first invoice.\n"
        "3. Support. A mandatory support plan of USD {support} per month is added to every Order for its whole term.\n"
        "4. Platform. A platform management fee of {pct}% of the monthly usage charges is added to every invoice.",
        "1. Order. The Order covers {servers} machines at a monthly fee of USD {fee:,}, for a term of {term} months.\n"
        "2. Fees. Each server is charged an installation fee of USD {setup}, once.\n"
        "3. Support. Technical support is billed separately at USD {support} per month.\n"
        "4. Fees. Provider adds a platform fee of {pct}% of the monthly charges to each invoice.",
    ],
    "zh": [
        "第一条 订单\n乙方向甲方出租{servers}台GPU服务器，月租金为{fee}美元，本订单期限为{term}个月。\n"
        "第二条 开通\n每台服务器首次开通时，甲方须一次性支付初装费{setup}美元。\n"
        "第三条 技术支持\n每份订单在整个租期内均须附加每月{support}美元的强制技术支持费。\n"
        "第四条 平台费\n乙方按甲方每月用量费用的{pct}%加收平台管理费。",
        "第一条 订单\n本订单包含{servers}台服务器，月服务费{fee}美元，服务期限为{term}个月。\n"
        "第二条 费用\n每台服务器另行收取安装费{setup}美元（一次性）。\n"
        "第三条 技术支持\n技术支持费每月{support}美元，另行收取。\n"
        "第四条 平台费\n乙方按每月费用的{pct}%加收平台管理费。",
    ],
}


@pytest.mark.parametrize("wording", [0, 1])
@pytest.mark.parametrize("v", [{"servers": 4, "fee": 20000, "term": 12, "setup": 500, "support": 300, "pct": 8},
                               {"servers": 16, "fee": 9000, "term": 6, "setup": 1200, "support": 150, "pct": 5}])
def test_extra_fees_are_priced_from_the_contract_alike_in_both_languages(v: dict, wording: int) -> None:
    """A setup fee per server × the servers ordered, a monthly fee × the term, a share of the
    monthly fee × the term: the same money at risk whichever language states it."""
    en, zh = (at_risk(EXTRAS[lang][wording].format(**v)) for lang in ("en", "zh"))
    assert en == zh
    expected = v["servers"] * v["setup"] + v["support"] * v["term"] + v["fee"] * v["pct"] / 100 * v["term"]
    assert en["contract.extras_not_included"][1:] == ("warning", pytest.approx(expected))


@pytest.mark.parametrize("text", [
    "Support. Technical support is available at USD 150 per hour, invoiced in addition to the GPU fees.",
    "第三条 技术支持\n技术支持按每小时1000元另行收费。",
])
def test_an_hourly_extra_is_not_priced(text: str) -> None:
    assert at_risk(text)["contract.extras_not_included"][2] is None


@pytest.mark.parametrize("text", [
    "Setup. Each server is charged a setup fee of USD 700, once.",
    "第二条 开通\n每台服务器收取开通费700美元，一次性支付。",
])
def test_a_fee_per_server_with_no_count_is_priced_for_one_and_says_so(text: str) -> None:
    report = review_contract(text=text)
    assert at_risk(text)["contract.extras_not_included"][2] == pytest.approx(700)
    assert "contract.servers_ordered" in {a.name for a in report.assumptions}
