"""Paths and helpers shared by the usage tests (a module with a unique name, so that it never
clashes with another directory's helpers)."""

from __future__ import annotations

from pathlib import Path

from bench.synth_fleet import FleetSpec

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "usage"
FOCUS_SAMPLE = FIXTURES / "focus_1.0_sample.csv"
H100 = "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01"
H200 = "linux-x86_64__nvidia-h200__590.48.01"

# Four nodes of eight GPUs, two weeks of 5-minute samples: one node of each profile
# (training, interactive, batch, forgotten). About 130,000 rows: quick, and long enough for
# weekends and a forgotten tail longer than the 72 h threshold.
SMALL_FLEET = FleetSpec(gpus=32, days=14, interval_s=300, seed=11)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
