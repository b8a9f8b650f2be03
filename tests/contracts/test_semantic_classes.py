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
