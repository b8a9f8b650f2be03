"""``--engine spark``: the same analysis on PySpark (local mode) gives DuckDB's report.

One SparkSession serves the whole module (starting a JVM takes seconds). Every report is
compared field by field: texts, counts, ids and findings exactly; floating-point figures to
1e-9 relative, since the two engines add the same numbers in a different order.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from usage_helpers import FOCUS_SAMPLE, write

from advisor.cli import main
from bench.bench_usage import differences
from bench.synth_fleet import FleetSpec, write_fleet

pytestmark = pytest.mark.slow

if shutil.which("java") is None:
    pytest.skip("Spark needs a Java runtime (.ci/run installs default-jre-headless)", allow_module_level=True)

TINY_FLEET = FleetSpec(gpus=16, days=3, interval_s=300, seed=5)


@pytest.fixture(scope="module")
def spark():  # type: ignore[no-untyped-def]
    """One local session, tuned for tiny inputs (few partitions, no code generation)."""
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("advisor-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("OFF")
    yield session
    session.stop()


def both(files: list[str], **kwargs: Any) -> tuple[dict, dict]:
    from advisor.tools import analyze_usage

    duck = analyze_usage(files=files, engine="duckdb", **kwargs)
    spark = analyze_usage(files=files, engine="spark", **kwargs)
    return json.loads(duck.model_dump_json()), json.loads(spark.model_dump_json())


def test_every_reader_gives_the_same_report(spark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Parquet telemetry, a CSV log with nvidia-smi's quirks, an inventory and a FOCUS export
    in one analysis."""
    fleet = tmp_path / "fleet.parquet"
    write_fleet(fleet, TINY_FLEET)
    smi = write(
        tmp_path / "node-b.csv",
        "timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n"
        "2026/06/01 10:00:00.000, 0, GPU-b0, NVIDIA A100-SXM4-80GB, 40 %, 1000 MiB, 81920 MiB\n"
        "2026/06/01 10:05:00.000, 0, GPU-b0, NVIDIA A100-SXM4-80GB, [N/A], 1000 MiB, 81920 MiB\n"
        "timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n"
        "2026/06/01 10:10:00.000, 0, GPU-b0, NVIDIA A100-SXM4-80GB, 0 %, 900 MiB, 81920 MiB\n"
        "2026/06/01 10:15:00.000, 0, GPU-b0, NVIDIA A100-SXM4-80GB, 100 %, , 81920 MiB\n"
        "1970/01/01 00:00:00.000, 0, GPU-b0, NVIDIA A100-SXM4-80GB, 100 %, 900 MiB, 81920 MiB\n",
    )
    inventory = write(
        tmp_path / "inventory.csv",
        "resource,gpu_type,gpu_count,price_per_hour,currency,team,project,start,end\n"
        "node-b.csv,a100,1,1.5,USD,ml,eval,2026-06-01,\n"
        "idle-node,h100,8,2.5,USD,ml,llm,2026-05-20,2026-06-02\n",
    )
    duck, sp = both([str(fleet), str(smi), str(inventory), str(FOCUS_SAMPLE)], price_per_gpu_hour=2.0)
    assert duck["telemetry"]["excluded_rows"] == 1 and duck["billing"]["rows"] == 1000
    assert duck["inventory"] is not None and duck["findings"]
    assert differences(duck, sp) == []


def test_a_glob_of_csv_logs_is_one_dataset_on_both(spark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A fleet logged in one file per two days: one input, its GPUs followed across files."""
    rows = 0
    for start in ("2026-06-01", "2026-06-03"):
        spec = FleetSpec(gpus=8, days=2, interval_s=600, seed=1, start=f"{start}T00:00:00")
        rows += write_fleet(tmp_path / f"fleet-{start}.csv", spec)["rows"]
    duck, sp = both([str(tmp_path / "fleet-*.csv")], price_per_gpu_hour=2.0, currency="CNY")
    assert [(f["path"], f["rows_read"]) for f in duck["inputs"]["files"]] == [(str(tmp_path / "fleet-*.csv"), rows)]
    assert duck["summary"]["gpu_count"] == 8 and duck["summary"]["period_hours"] == pytest.approx(96, abs=0.2)
    assert differences(duck, sp) == []


def test_cli_engine_flag_and_environment(spark, tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    fleet = tmp_path / "fleet.parquet"
    write_fleet(fleet, FleetSpec(gpus=8, days=1, interval_s=300, seed=3))
    assert main(["usage", str(fleet), "--price", "2", "--json"]) == 0
    duck = json.loads(capsys.readouterr().out)
    monkeypatch.setenv("ADVISOR_USAGE_ENGINE", "spark")
    assert main(["usage", str(fleet), "--price", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    assert differences(duck, json.loads(out)) == [] and "Traceback" not in err
    # the flag wins over the environment
    monkeypatch.setenv("ADVISOR_USAGE_ENGINE", "sparky")
    assert main(["usage", str(fleet), "--price", "2", "--json", "--engine", "duckdb"]) == 0
    assert differences(duck, json.loads(capsys.readouterr().out)) == []


@pytest.mark.parametrize("engine", ["spark", "sparky"])
def test_bad_input_on_spark_is_one_line(spark, tmp_path: Path, capsys, engine: str) -> None:  # type: ignore[no-untyped-def]
    bad = write(tmp_path / "bad.csv", "timestamp, uuid, utilization.gpu [%]\n"
                "2026/06/01 10:00:00.000, GPU-a, 40 %\n2026/06/01 10:05:00.000, GPU-a, 4O %\n")
    code = main(["usage", str(bad), "--price", "2", "--engine", engine])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    if engine == "spark":
        assert "'utilization.gpu [%]'" in err and "'4O %'" in err
    else:
        assert "duckdb or spark" in err


def test_a_uri_needs_the_spark_engine(capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(["usage", "hdfs://namenode/telemetry/*.parquet", "--engine", "duckdb"])
    out, err = capsys.readouterr()
    assert code == 2 and "Spark engine" in err and err.count("\n") == 1
