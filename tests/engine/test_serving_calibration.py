"""The serving model against published throughput (issue #12: within 30 % of at least 3)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import yaml

from advisor.catalog import get_catalog
from advisor.engine import serving as sv
from advisor.engine.decisions_data import decision_params

DATA = yaml.safe_load((Path(__file__).parent / "data" / "serving_published.yaml").read_text(encoding="utf-8"))


def _half(name: str) -> str:
    return "dev" if hashlib.sha1(name.encode()).digest()[0] % 2 == 0 else "test"


def predictions() -> list[tuple[str, str, float, float]]:
    catalog = get_catalog()
    p = decision_params(catalog)
    out = []
    for row in DATA["rows"]:
        gpu = catalog.gpu(row["gpu"])
        shape = sv.shape_of(catalog.model(row["model"]), 0.0, p)
        rate = sv.throughput(shape, bandwidth_gb_s=gpu.memory_bandwidth_gb_s,
                             peak_tflops=sv.compute_peak_tflops(gpu, row["precision"]), tp=row["tp"],
                             batch=row["batch"], traffic=sv.Traffic(row["input"], row["output"], np.inf),
                             precision=row["precision"], p=p)
        out.append((row["name"], _half(row["name"]), float(rate["per_gpu"]), float(row["tokens_per_s_per_gpu"])))
    return out


def test_within_30_percent_of_at_least_three_published_figures_in_each_half() -> None:
    rows = predictions()
    for half in ("dev", "test"):
        close = [name for name, h, pred, meas in rows if h == half and abs(pred / meas - 1) <= 0.3]
        assert len(close) >= 3, (half, rows)


def test_median_error_on_the_unfitted_half_stays_under_30_percent() -> None:
    errors = [abs(pred / meas - 1) for _, h, pred, meas in predictions() if h == "test"]
    assert errors and float(np.median(errors)) < 0.3


def test_every_row_names_a_listed_source() -> None:
    assert all(row["source"] in DATA["sources"] for row in DATA["rows"])
