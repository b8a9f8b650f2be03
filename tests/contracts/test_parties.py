"""A provider (or customer) named only by its company name or a defined short name is read as
that party, through the party definitions of the preamble, in both languages."""

from __future__ import annotations

import pytest

from advisor.contracts.parties import read_parties
from advisor.tools.contract import review_contract

ZH_PREAMBLES = [
    "甲方：北京远山数据有限公司（以下简称“远山”）\n乙方：上海星云算力科技有限公司（以下简称“星云”），系算力服务提供方。",
    "本合同由北京远山数据有限公司（以下简称甲方）与上海星云算力科技有限公司（以下简称乙方）签订，乙方为出租方。",
]
EN_PREAMBLES = [
    'This Agreement is between Nimbus Compute Ltd. ("Nimbus") and Orchid Labs Inc. (the "Customer").',
    'This Agreement is made by Nimbus Compute Ltd. ("Nimbus" or "Provider") and Orchid Labs Inc. ("Orchid").',
]


@pytest.mark.parametrize("preamble", ZH_PREAMBLES)
def test_chinese_company_names_are_tied_to_their_party(preamble: str) -> None:
    parties = read_parties(preamble)
    assert "上海星云算力科技有限公司" in parties.provider
    assert "北京远山数据有限公司" in parties.customer


@pytest.mark.parametrize("preamble", ZH_PREAMBLES)
@pytest.mark.parametrize("name", ["上海星云算力科技有限公司"])
def test_a_chinese_provider_named_by_company_name_is_the_provider(preamble: str, name: str) -> None:
    short = "星云" if "简称“星云”" in preamble else name
    text = f"{preamble}\n第一条 价格\n{short}有权根据市场行情调整服务价格。\n第二条 解除\n{short}有权提前3日书面通知对方解除本协议，无需说明理由。"
    status = {i.category: i.status for i in review_contract(text=text).checklist}
    assert status["price_change"] == "trap"
    assert status["termination_for_convenience"] == "trap"


@pytest.mark.parametrize("preamble", EN_PREAMBLES)
def test_an_english_provider_named_by_its_defined_name_is_the_provider(preamble: str) -> None:
    text = f"{preamble}\n1. Pricing. Nimbus may change its prices at any time on 7 days' notice.\n2. Termination. Nimbus may terminate this Agreement for convenience upon seven (7) days' notice."
    report = review_contract(text=text)
    fired = {f.rule_id for f in report.findings}
    assert "contract.price_change_short_notice" in fired
    assert "contract.provider_termination_short_notice" in fired


def test_the_customer_terminating_for_convenience_is_not_the_providers_right() -> None:
    text = f"{EN_PREAMBLES[1]}\n2. Termination. Orchid may terminate this Agreement for convenience upon thirty (30) days' notice."
    fired = {f.rule_id for f in review_contract(text=text).findings}
    assert not any(r.startswith("contract.provider_termination") for r in fired)
