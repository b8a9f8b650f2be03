"""The acceptance figures as tests, scored on what the user sees (the checklist): LegalBench
clause sets (issue #15: P >= 0.90, R >= 0.85 on each full set and on its held-out half) and
CUAD hosting contracts (document-level F1 >= 0.80). Deterministic; skipped
only when the shared data folder is absent."""

from __future__ import annotations

import pytest

from bench.eval_contracts import (
    TARGET_F1,
    TARGET_PRECISION,
    TARGET_RECALL,
    cuad,
    cuad_clauses,
    data_dir,
    half_of,
    legalbench,
)

HELD_OUT_RECALL_FLOOR = TARGET_RECALL
CUAD_CLAUSES_HELD_OUT_RECALL_FLOOR = 0.70  # 0.731 when the set was built; 0.750 with the fitted reader (commitment.py)
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


def test_cuad_minimum_commitment_clauses() -> None:
    """Development set outside LegalBench: both halves at the targets' precision, dev at the recall target."""
    score = cuad_clauses()
    assert score["dev"]["precision"] >= TARGET_PRECISION and score["dev"]["recall"] >= TARGET_RECALL, score["dev"]
    assert score["holdout"]["precision"] >= TARGET_PRECISION, score["holdout"]
    assert score["holdout"]["recall"] >= CUAD_CLAUSES_HELD_OUT_RECALL_FLOOR, score["holdout"]


def test_cuad_clause_set_shares_no_text_with_legalbench() -> None:
    """The rule in the set's header: no 8-word run of any LegalBench clause (either half)."""
    import csv
    import re

    import yaml

    from bench.eval_contracts import FIXTURES

    def runs(text: str) -> set[tuple[str, ...]]:
        w = re.findall(r"[a-z0-9]+", text.lower())
        return {tuple(w[i : i + 8]) for i in range(max(1, len(w) - 7))}

    csv.field_size_limit(10**9)
    seen: set[tuple[str, ...]] = set()
    for tsv in (data_dir() / "legalbench").glob("cuad_*.tsv"):
        with tsv.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                seen |= runs(row["text"])
    items = yaml.safe_load((FIXTURES / "min_commitment" / "cuad.yaml").read_text(encoding="utf-8"))["items"]
    assert {i["label"] for i in items} == {"yes", "no"}
    assert not [i["text"][:80] for i in items if runs(i["text"]) & seen]
