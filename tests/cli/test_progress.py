"""Progress of long work beyond usage: the hardware sweep and contract review send their steps
(in the request's language) to one sink; the steps never change the report, and the CLI draws
them only on a terminal, never into piped or JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.progress import Step
from advisor.tools import recommend_hardware, review_contract

CONTRACTS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts"


def _steps(seen: list[str]) -> list[tuple[float | None, float | None]]:
    return [(m.done, m.total) for m in seen if isinstance(m, Step)]


@pytest.mark.parametrize(("lang", "word"), [("en", "configurations"), ("zh", "种配置")])
def test_the_sweep_reports_its_steps_in_the_request_language(lang: str, word: str) -> None:
    seen: list[str] = []
    args = {"model": "llama-3-8b", "tokens_b": 20.0, "lang": lang}
    report = recommend_hardware(progress=seen.append, **args)
    assert _steps(seen) == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert word in seen[1] and f"{report.evaluated:,}" in seen[1]
    assert report.model_dump() == recommend_hardware(**args).model_dump()


@pytest.mark.parametrize("name", ["en_gpu_cloud_trap.txt", "zh_gpu_cloud_trap.txt"])
def test_review_counts_the_clauses_and_finds_the_same(name: str) -> None:
    seen: list[str] = []
    path = str(CONTRACTS / name)
    report = review_contract(path=path, progress=seen.append)
    steps = _steps(seen)
    assert steps[-1] == (report.clause_count, report.clause_count)
    assert [d for d, _ in steps] == sorted(d for d, _ in steps) and len(steps) > 2
    assert Path(name).name in seen[0]
    assert report.model_dump() == review_contract(path=path).model_dump()


@pytest.mark.parametrize("argv", [
    ["recommend", "--model", "llama-3-8b", "--tokens", "20B"],
    ["recommend", "--model", "llama-3-8b", "--tokens", "20B", "--json"],
    ["review", str(CONTRACTS / "en_gpu_cloud_trap.txt")],
    ["review", str(CONTRACTS / "en_gpu_cloud_trap.txt"), "--json"],
])
def test_piped_output_carries_no_progress(argv: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    if "--json" in argv:
        json.loads(out)
