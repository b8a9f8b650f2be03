"""Paths and helpers shared by the usage tests (a module with a unique name, so that it never
clashes with another directory's helpers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advisor.usage.synth import FleetSpec

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


def same(a: Any, b: Any, path: str = "report") -> list[str]:
    """Where two JSON documents differ: texts, counts and ids exactly, floats to 1e-9 relative
    (DuckDB's threads, like Spark, may add the same numbers in another order)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in same(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} items"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in same(x, y, f"{path}[{i}]")]
    if isinstance(a, float) and isinstance(b, float):
        return [] if abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b)) else [f"{path}: {a!r} vs {b!r}"]
    return [] if a == b and type(a) is type(b) else [f"{path}: {a!r} vs {b!r}"]
