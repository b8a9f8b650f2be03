"""Formats are recognised from content: nvidia-smi CSV (plain, gzip, Parquet), text captures,
Prometheus text, FOCUS exports, inventories; anything else is a one-line error."""

from __future__ import annotations

import gzip

import pytest
from usage_helpers import FIXTURES, FOCUS_SAMPLE, H100, write

from advisor.errors import DocumentError
from advisor.usage.detect import detect

SMI = (
    "timestamp, name, uuid, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n"
    "2026/06/01 10:00:00.000, NVIDIA A100-SXM4-80GB, GPU-aaaa, 45 %, 1000 MiB, 81920 MiB\n"
)
INVENTORY = "resource,gpu_type,gpu_count,price_per_hour,team,project,start,end\nnode-1,A100,8,16,ml,llm,2026-06-01,\n"
DCGM = (
    "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
    'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",Hostname="n1"} 37\n'
)


def test_real_samples() -> None:
    assert detect(FOCUS_SAMPLE).kind == "focus"
    assert detect(FIXTURES / f"{H100}.txt").kind == "nvidia_smi_capture"
    assert detect(FIXTURES / f"{H100}__idle.metrics").kind == "prometheus"


def test_written_formats(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert detect(write(tmp_path / "log.txt", SMI)).kind == "nvidia_smi_csv"
    assert detect(write(tmp_path / "inv.csv", INVENTORY)).kind == "inventory"
    assert detect(write(tmp_path / "dcgm.prom", DCGM)).kind == "prometheus"
    gz = tmp_path / "log.csv.gz"
    gz.write_bytes(gzip.compress(SMI.encode()))
    found = detect(gz)
    assert (found.kind, found.container) == ("nvidia_smi_csv", "gzip")


def test_parquet_tables(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"timestamp": ["2026-06-01 00:00:00"], "uuid": ["GPU-1"], "utilization.gpu [%]": [50]}), tmp_path / "t.parquet")
    pq.write_table(pa.table({"a": [1], "b": [2]}), tmp_path / "other.parquet")
    assert detect(tmp_path / "t.parquet").kind == "nvidia_smi_csv"
    with pytest.raises(DocumentError, match="unknown Parquet table"):
        detect(tmp_path / "other.parquet")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "file is empty"),
        (b"\n\n  \n", "file is empty"),
        (b"name,price\nfoo,1\n", "unknown format"),
        (b"just some notes\nabout GPUs\n", "unknown format"),
        (b"\x00\x01\x02binary", "unknown format"),
        (b"PAR1 not really parquet", "not a readable Parquet file"),
    ],
)
def test_unrecognised_files_are_one_line_errors(tmp_path, content: bytes, problem: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "input.csv"
    path.write_bytes(content)
    with pytest.raises(DocumentError) as info:
        detect(path)
    message = info.value.one_line()
    assert problem in message and str(path) in message and "\n" not in message


def test_missing_and_directory(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DocumentError, match="file not found"):
        detect(tmp_path / "nope.csv")
    with pytest.raises(DocumentError, match="is a directory"):
        detect(tmp_path)


def test_help_text_mentioning_the_field_is_not_a_header(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = '# $ nvidia-smi --query-gpu=timestamp,utilization.gpu --format=csv\n"utilization.gpu"\nPercent of time\n'
    with pytest.raises(DocumentError, match="unknown format"):
        detect(write(tmp_path / "help.txt", text))
