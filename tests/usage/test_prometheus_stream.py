"""The Prometheus reader streams: parsed lines reach the engine in chunks no larger than
``engine.prometheus_chunk_rows``, and the report does not depend on the chunk size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from usage_helpers import FIXTURES, H100, write

from advisor.tools import analyze_usage
from advisor.usage import engine as engine_module
from advisor.usage.readers import prometheus
from bench.bench_usage import differences


def _scrapes(n: int) -> str:
    """n scrapes of two GPUs: a preferred and a fallback utilization metric, memory used and
    free, an unknown metric, a NaN and a GPU with memory but no utilization."""
    lines = ["# TYPE DCGM_FI_DEV_GPU_UTIL gauge"]
    for i in range(n):
        ts = 1780300000000 + i * 60000
        lines += [
            f'DCGM_FI_DEV_GPU_UTIL{{gpu="0",UUID="GPU-1",modelName="NVIDIA H100 80GB HBM3",Hostname="n1"}} {(i * 7) % 100} {ts}',
            f'nvidia_gpu_duty_cycle{{gpu="0",UUID="GPU-1",Hostname="n1"}} 99 {ts}',
            f'DCGM_FI_DEV_GPU_UTIL{{gpu="1",UUID="GPU-2",Hostname="n1"}} {"NaN" if i % 5 == 0 else (i * 3) % 100} {ts}',
            f'DCGM_FI_DEV_FB_USED{{gpu="0",UUID="GPU-1",Hostname="n1"}} {1000 + i} {ts}',
            f'DCGM_FI_DEV_FB_FREE{{gpu="0",UUID="GPU-1",Hostname="n1"}} {79000 - i} {ts}',
            f'DCGM_FI_DEV_FB_USED{{gpu="2",UUID="GPU-3",Hostname="n1"}} 5 {ts}',
            f'DCGM_FI_DEV_SM_CLOCK{{gpu="0",UUID="GPU-1",Hostname="n1"}} 1980 {ts}',
        ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("source", ["generated", "idle fixture", "load fixture"])
def test_chunks_are_bounded_and_do_not_change_the_report(tmp_path: Path, monkeypatch, source: str) -> None:
    path = {
        "generated": lambda: write(tmp_path / "dcgm.prom", _scrapes(40)),
        "idle fixture": lambda: FIXTURES / f"{H100}__idle.metrics",
        "load fixture": lambda: FIXTURES / f"{H100}__load.metrics",
    }[source]()
    reports = {}
    for chunk in (1, 7, 100_000):
        sizes: list[int] = []
        original = engine_module.Engine.load_arrow

        def spy(self, table, arrow, *, append=False, _sizes=sizes, _orig=original):  # type: ignore[no-untyped-def]
            if table == prometheus.OBS_TABLE:
                _sizes.append(arrow.num_rows)
            return _orig(self, table, arrow, append=append)

        monkeypatch.setattr(engine_module.Engine, "load_arrow", spy)
        monkeypatch.setattr(prometheus, "chunk_rows", lambda c=chunk: c)
        r = analyze_usage(files=[str(path)], price_per_gpu_hour=2.0)
        assert sizes and max(sizes) <= chunk
        reports[chunk] = json.loads(r.model_dump_json())
    assert differences(reports[1], reports[7]) == [] and differences(reports[1], reports[100_000]) == []


def test_generated_scrapes_are_accounted(tmp_path: Path) -> None:
    r = analyze_usage(files=[str(write(tmp_path / "dcgm.prom", _scrapes(10)))], price_per_gpu_hour=2.0)
    f = r.inputs.files[0]
    # per scrape 7 lines: 1 other metric, 1 superseded duty cycle, the GPU-3 memory line without
    # utilization, and the NaN utilization of GPU-2 in scrapes 0 and 5
    assert f.rows_read == 70
    assert f.rows_skipped == {"other_metric": 10, "superseded_metric": 10, "no_utilization_value": 12}
    assert f.gpus == 2 and f.rows_used == 70 - 32
    gpus = {g.id: g for g in r.telemetry.gpus}  # type: ignore[union-attr]
    assert gpus["GPU-1"].samples == 10 and gpus["GPU-2"].samples == 8
    assert gpus["GPU-1"].model == "NVIDIA H100 80GB HBM3"
