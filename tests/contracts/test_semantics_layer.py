"""The clause-semantics layer on its own: negation scope, comparators, double negation,
conditions, modality and actor, in English and Chinese (advisor/contracts/semantics.py)."""

from __future__ import annotations

import pytest

from advisor.contracts import semantics
from advisor.contracts.parties import PartyResolver

RESOLVER = PartyResolver()


def reading(text: str, phrase: str) -> semantics.Reading:
    start = text.index(phrase)
    return semantics.read(text, start, start + len(phrase), RESOLVER)


@pytest.mark.parametrize(
    ("text", "phrase", "negated"),
    [
        ("Customer is not required to commit to any minimum spend.", "minimum spend", True),
        ("Nothing in this Agreement obliges the Client to order a minimum number of hours.", "minimum number", True),
        ("Provider shall not, without the Customer's written consent, raise the rates.", "raise the rates", True),
        ("Customer shall purchase not less than 100 GPU hours per month.", "purchase", False),
        ("Customer shall order no fewer than ten nodes.", "order", False),
        ("Provider will never reclaim reserved GPUs without giving 24 hours' notice.", "24 hours' notice", False),
        ("Provider will never reclaim reserved GPUs without giving 24 hours' notice.", "reclaim", True),
        ("If Customer does not give notice the Agreement renews automatically.", "renews automatically", False),
        ("Billing does not stop when the instance is shut down, but billing stops on release.", "billing stops on release", False),
        ("乙方不会在未提前24小时通知的情况下回收包月实例。", "提前24小时通知", False),
        ("甲方无需承诺最低消费。", "最低消费", True),
        ("甲方每月采购量不低于2000卡时。", "采购量", False),
        ("实例关机后并不停止计费，仅释放后停止计费。", "释放后停止计费", False),
        ("实例关机后并不停止计费，仅释放后停止计费。", "停止计费", True),
        ("未达标的按SLA赔偿。", "赔偿", False),
        ("因不可抗力导致服务中断的，乙方按中断时长赔偿。", "按中断时长赔偿", False),
        # the commas of a list of nouns keep the negation; a comma before a new proposition ends it
        ("There are no setup, activation or onboarding fees.", "onboarding fees", True),
        ("Provider charges no licence, support, storage or bandwidth fees.", "bandwidth fees", True),
        ("No installation, migration and remote hands charges apply.", "remote hands charges", True),
        ("Support is not included, setup fees are payable on signature.", "setup fees", False),
        ("Stopped instances are not billed, storage is billed monthly.", "storage is billed", False),
        ("乙方不收取任何开通费、初装费或部署费。", "部署费", True),
    ],
)
def test_negation_scope(text: str, phrase: str, negated: bool) -> None:
    assert reading(text, phrase).negated is negated


@pytest.mark.parametrize(
    ("text", "phrase", "modality", "actor"),
    [
        ("Provider may adjust the rates at any time.", "adjust", "permission", "provider"),
        ("The Supplier reserves the right to revise the Rates.", "revise", "permission", "provider"),
        ("Customer shall purchase 500 hours each month.", "purchase", "obligation", "customer"),
        ("Provider must retain the data for ninety days.", "retain", "obligation", "provider"),
        ("Provider shall not increase the rates during the term.", "increase", "prohibition", "provider"),
        ("Customer is not required to buy any minimum volume.", "buy", "exemption", "customer"),
        ("乙方有权调整租金单价。", "调整", "permission", "provider"),
        ("甲方每月须采购不少于2000卡时。", "采购", "obligation", "customer"),
        ("乙方不得在租期内上调价格。", "上调", "prohibition", "provider"),
        ("甲方无需承诺最低消费。", "承诺", "exemption", "customer"),
        ("实例关机期间乙方不再计费。", "关机期间乙方不再计费", "statement", "provider"),
    ],
)
def test_modality_and_actor(text: str, phrase: str, modality: str, actor: str) -> None:
    r = reading(text, phrase)
    assert (r.modality, r.actor) == (modality, actor)


def test_only_a_permission_directly_before_the_phrase_makes_it_optional() -> None:
    notify = "Provider may notify Customer two hours before reclaiming an instance."
    assert semantics.optional_for(notify, notify.index("notify"), len(notify) - 1, RESOLVER) == "provider"
    adjunct = "Provider may reclaim interruptible instances with two (2) hours' advance notice."
    start = adjunct.index("two (2)")
    assert semantics.optional_for(adjunct, start, len(adjunct) - 1, RESOLVER) is None
