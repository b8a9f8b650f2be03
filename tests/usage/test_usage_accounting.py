"""Rows read = rows used + rows skipped, for every reader; nothing is dropped silently."""

from __future__ import annotations

from usage_helpers import write

from advisor.tools import analyze_usage

HEADER = "timestamp, uuid, utilization.gpu [%], memory.used [MiB], memory.total [MiB]"


def test_not_available_and_repeated_headers_are_counted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    lines = [
        HEADER,
        "2026/06/01 10:00:00.000, GPU-a, 40 %, 100 MiB, 81559 MiB",
        "2026/06/01 10:01:00.000, GPU-a, [N/A], 100 MiB, 81559 MiB",
        "2026/06/01 10:02:00.000, GPU-a, 60 %, [N/A], 81559 MiB",
        HEADER,  # a second log appended to the first
        "2026/06/01 10:03:00.000, GPU-a, [Not Supported], 100 MiB, 81559 MiB",
        "2026/06/01 10:04:00.000, GPU-a, 50 %, 100 MiB, 81559 MiB",
    ]
    r = analyze_usage(files=[str(write(tmp_path / "log.csv", "\n".join(lines) + "\n"))], price_per_gpu_hour=1.0)
    f = r.inputs.files[0]
    assert f.rows_read == 6
    assert f.rows_skipped == {"repeated_header": 1, "no_utilization_value": 2}
    assert f.rows_used == 3 and r.telemetry.samples == 3  # type: ignore[union-attr]


def test_nounits_format(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = "timestamp, index, utilization.gpu, memory.used, memory.total\n2026/06/01 10:00:00.000, 0, 30, 10, 100\n2026/06/01 10:01:00.000, 0, 50, 20, 100\n"
    r = analyze_usage(files=[str(write(tmp_path / "log.csv", text))], price_per_gpu_hour=1.0)
    g = r.telemetry.gpus[0]  # type: ignore[union-attr]
    assert g.id == "index 0" and g.avg_utilization == 0.4 and g.peak_memory_share == 0.2


def test_prometheus_lines_are_accounted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = (
        "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
        "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
        'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",modelName="NVIDIA H100 80GB HBM3",Hostname="n1"} 20 1780300000000\n'
        'DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-2",modelName="NVIDIA H100 80GB HBM3",Hostname="n1"} 80 1780300000000\n'
        'DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-1",Hostname="n1"} 4000 1780300000000\n'
        'DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-1",Hostname="n1"} 76000 1780300000000\n'
        'DCGM_FI_DEV_FB_USED{gpu="2",UUID="GPU-3",Hostname="n1"} 4000 1780300000000\n'
        'DCGM_FI_DEV_SM_CLOCK{gpu="0",UUID="GPU-1",Hostname="n1"} 1980 1780300000000\n'
        'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",modelName="NVIDIA H100 80GB HBM3",Hostname="n1"} 40 1780300060000\n'
    )
    r = analyze_usage(files=[str(write(tmp_path / "dcgm.prom", text))], price_per_gpu_hour=1.0)
    f = r.inputs.files[0]
    assert f.rows_read == 7
    assert f.rows_skipped == {"other_metric": 1, "no_utilization_value": 1}
    assert f.rows_used == 5 and f.gpus == 2
    gpus = {g.id: g for g in r.telemetry.gpus}  # type: ignore[union-attr]
    assert gpus["GPU-1"].instance == "n1" and gpus["GPU-1"].samples == 2
    assert gpus["GPU-1"].avg_utilization == 0.3
    assert gpus["GPU-1"].peak_memory_share == 0.05  # 4000 MiB of 80000 MiB (used + free)


def test_every_file_of_a_mixed_run_is_accounted(tmp_path, fleet_parquet) -> None:  # type: ignore[no-untyped-def]
    inventory = write(
        tmp_path / "inventory.csv",
        "resource,gpu_type,gpu_count,price_per_hour,team,project,start,end\nnode-001,H100,8,20,ml,llm,2026-06-01,\n",
    )
    r = analyze_usage(files=[str(fleet_parquet[0]), str(inventory)], price_per_gpu_hour=2.0)
    assert [f.kind for f in r.inputs.files] == ["nvidia_smi_csv", "inventory"]
    for f in r.inputs.files:
        assert f.rows_read == f.rows_used + sum(f.rows_skipped.values())
    assert r.inputs.files[0].rows_read == fleet_parquet[1]["rows"]
