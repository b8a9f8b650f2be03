"""The clause-semantics classes of issue #15 (tests/fixtures/contracts/semantics/clauses.yaml,
written before tuning): affirmed protections are ok, negated traps are no trap, negated
protections are missing, and obligation vs permission decides the verdict, in both languages.
Every clause of the dev half must read right; the held-out half is scored as a whole (its
figure is reported by `python -m bench.eval_semantics`) and must not fall below the floor."""

from __future__ import annotations

import pytest

from bench.eval_contracts import half_of
from bench.eval_semantics import load_clauses, status_of

CLAUSES = load_clauses()
DEV = [c for c in CLAUSES if half_of(c["text"]) == "dev"]
HELD_OUT = [c for c in CLAUSES if half_of(c["text"]) != "dev"]
HELD_OUT_FLOOR = 0.75  # share of held-out clauses read right (measured 0.81 when the layer landed)


def test_the_set_covers_each_class_in_both_languages() -> None:
    for cls in ("protection_affirmed", "trap_negated", "protection_negated", "modality", "commitment", "commitment_floor"):
        for lang in ("en", "zh"):
            assert sum(1 for c in CLAUSES if c["cls"] == cls and c["lang"] == lang) >= 10, (cls, lang)


@pytest.mark.parametrize("case", DEV, ids=[f"{c['cls']}-{c['lang']}-{i}" for i, c in enumerate(DEV)])
def test_dev_clause_reads_the_right_way_round(case: dict) -> None:
    assert status_of(case["text"], case["category"]) in str(case["expect"]).split("|"), case["text"]


def test_held_out_clauses_mostly_read_right() -> None:
    right = sum(status_of(c["text"], c["category"]) in str(c["expect"]).split("|") for c in HELD_OUT)
    assert right / len(HELD_OUT) >= HELD_OUT_FLOOR


# Batch 15's classes in wordings of their own (zh and en): data flowing out (流出) priced per GB with
# the unit first, free moving out of the platform (迁出/传出; a free export of kept data is retention's), billing that continues after a stop or a
# release (仍…计费 with the price between, "charges keep accruing" after the release is named), billing
# until a release; and the protective counterparts.
VARIANTS = [
    ("data_egress", "trap", "第五条 流量\n流出本平台的数据每GB收取人民币0.6元。"),
    ("data_egress", "trap", "第五条 数据传出\n数据流出至公网的，按0.9元/GB计费。"),
    ("data_egress", "ok", "第五条 数据传出\n甲方可免费将训练数据传出至任何外部存储。"),
    ("data_egress", "ok", "第五条 迁移\n甲方数据可不限量免费迁出。"),
    ("billing_after_release", "trap", "第四条 计费\n实例关机后仍按原小时单价的全额计费。"),
    ("billing_after_release", "trap", "第四条 计费\n服务器计费直至被甲方释放为止。"),
    ("billing_after_release", "trap", "第四条 释放\n服务器退订后，仍将持续收费48小时。"),
    ("billing_after_release", "trap", "4. Billing. Once an instance is terminated, fees continue to accrue for another two days."),
    ("billing_after_release", "trap", "4. Release. When Customer deletes a server, billing still runs for 24 hours."),
    ("billing_after_release", "ok", "第四条 释放\n服务器释放后即刻停止计费。"),
    ("billing_after_release", "ok", "4. Release. Once Customer releases a server, no further charges accrue."),
]


@pytest.mark.parametrize(("category", "expect", "text"), VARIANTS)
def test_batch_15_classes_read_right_in_other_wordings(category: str, expect: str, text: str) -> None:
    assert status_of(text, category) == expect, text
