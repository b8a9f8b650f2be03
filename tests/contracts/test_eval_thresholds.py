"""The acceptance figures as tests, scored on what the user sees (the checklist): LegalBench
clause sets (issue #15: P >= 0.90, R >= 0.85 on each full set; the held-out half is held to
P >= 0.90 and, as a regression floor below the target it still misses on Minimum Commitment,
R >= 0.80) and CUAD hosting contracts (document-level F1 >= 0.80). Deterministic; skipped
only when the shared data folder is absent."""

from __future__ import annotations

import pytest

from bench.eval_contracts import (
    TARGET_F1,
    TARGET_PRECISION,
    TARGET_RECALL,
    cuad,
    data_dir,
    half_of,
    legalbench,
)

HELD_OUT_RECALL_FLOOR = 0.80
pytestmark = pytest.mark.skipif(not data_dir().is_dir(), reason=f"contract data not found at {data_dir()}")


@pytest.fixture(scope="module")
def lb() -> dict:
    return legalbench()


@pytest.mark.parametrize("task", ["Renewal_Term", "Minimum_Commitment", "Cap_On_Liability", "Termination_For_Convenience"])
def test_legalbench_targets(lb: dict, task: str) -> None:
    row = lb[task]["all"]
    assert row["precision"] >= TARGET_PRECISION, row
    assert row["recall"] >= TARGET_RECALL, row


@pytest.mark.parametrize("task", ["Renewal_Term", "Minimum_Commitment", "Cap_On_Liability", "Termination_For_Convenience"])
def test_held_out_half_keeps_precision_and_the_recall_floor(lb: dict, task: str) -> None:
    row = lb[task]["holdout"]
    assert row["precision"] >= TARGET_PRECISION and row["recall"] >= HELD_OUT_RECALL_FLOOR, row


def test_cuad_document_f1() -> None:
    for label, row in cuad().items():
        assert row["f1"] >= TARGET_F1, (label, row)


def test_split_is_stable_and_keeps_duplicates_together() -> None:
    assert half_of("This  Agreement renews.") == half_of("this agreement renews.")
