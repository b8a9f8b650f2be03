"""A malformed file is one line naming the file, the row (or line) and the column; never a
traceback, never a silently dropped row."""

from __future__ import annotations

import csv
import io
import re

import pytest
from usage_helpers import FOCUS_SAMPLE, write

from advisor.errors import DocumentError
from advisor.present.errors import say
from advisor.tools import analyze_usage

QUOTED_ENGLISH = re.compile(r"「[^」]*[A-Za-z]{2,}[^」]*」")  # a part of the message a Chinese reading left in English

HEADER = "timestamp, hostname, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]"


def smi(*rows: str, header: str = HEADER) -> str:
    return "\n".join([header, *rows]) + "\n"


def row(t: str = "2026/06/01 10:00:00.000", util: str = "45 %", mem: str = "1000 MiB", uuid: str = "GPU-a") -> str:
    return f"{t}, node-1, {uuid}, NVIDIA H100 80GB HBM3, {util}, {mem}, 81559 MiB"


def error_of(path, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(DocumentError) as info:
        analyze_usage(files=[str(path)], price_per_gpu_hour=2.0, **kwargs)
    message = info.value.one_line()
    assert "\n" not in message and str(path) in message
    zh = say(info.value, "zh")
    assert not QUOTED_ENGLISH.search(zh), zh  # the row, the column and the problem read in Chinese
    return message


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([row(), row(util="abc %"), row()], "row 2 (line 3), column 'utilization.gpu [%]': 'abc %' is not a utilization"),
        ([row(), row(), row(util="150 %")], "row 3 (line 4), column 'utilization.gpu [%]': '150 %'"),
        ([row(t="yesterday")], "row 1 (line 2), column 'timestamp': 'yesterday' is not a timestamp"),
        ([row(), row(mem="12x MiB")], "row 2 (line 3), column 'memory.used [MiB]': '12x MiB' is not a number"),
        ([row(uuid="")], "row 1 (line 2), column 'uuid': no GPU id"),
    ],
)
def test_bad_values_name_row_and_column(tmp_path, rows: list[str], expected: str) -> None:  # type: ignore[no-untyped-def]
    assert expected in error_of(write(tmp_path / "log.csv", smi(*rows)))


@pytest.mark.parametrize(
    ("header", "column"),
    [
        ("timestamp, hostname, uuid, name, memory.used [MiB], memory.total [MiB], power.draw [W]", "utilization.gpu"),
        ("hostname, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]", "timestamp"),
        ("timestamp, hostname, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]", "uuid"),
    ],
)
def test_missing_columns_are_named(tmp_path, header: str, column: str) -> None:  # type: ignore[no-untyped-def]
    width = len(header.split(","))
    text = header + "\n" + ", ".join(["1"] * width) + "\n"
    assert f"missing column '{column}'" in error_of(write(tmp_path / "log.csv", text))


def test_wrong_number_of_columns_names_the_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = smi(row(), "2026/06/01 10:01:00.000, node-1, GPU-a, 45 %", row())
    assert "line 3: expected 7 columns, found 4" in error_of(write(tmp_path / "log.csv", text))


def test_late_bad_row_in_a_large_log_is_found_in_file_order(tmp_path, fleet_csv) -> None:  # type: ignore[no-untyped-def]
    lines = fleet_csv[0].read_text().splitlines()
    target = len(lines) - 7
    lines[target] = lines[target].replace(" %,", " #%,", 1)
    path = write(tmp_path / "big.csv", "\n".join(lines) + "\n")
    message = error_of(path)
    assert f"row {target} (line {target + 1}), column 'utilization.gpu [%]'" in message


def test_parquet_bad_value_names_the_row(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({
        "timestamp": ["2026-06-01 10:00:00", "2026-06-01 10:01:00", "2026-06-01 10:02:00"],
        "uuid": ["GPU-a"] * 3,
        "utilization.gpu [%]": ["10 %", "20 %", "thirty"],
    })
    pq.write_table(table, tmp_path / "log.parquet")
    assert "row 3, column 'utilization.gpu [%]': 'thirty'" in error_of(tmp_path / "log.parquet")


def _focus_with(tmp_path, change):  # type: ignore[no-untyped-def]
    with FOCUS_SAMPLE.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    change(rows)
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    return write(tmp_path / "focus.csv", buf.getvalue())


def test_focus_bad_cost_names_row_and_column(tmp_path) -> None:  # type: ignore[no-untyped-def]
    def change(rows: list[list[str]]) -> None:
        rows[417][rows[0].index("BilledCost")] = "1,5"

    assert "row 417, column 'BilledCost': '1,5' is not a number" in error_of(_focus_with(tmp_path, change))


def test_focus_bad_date_and_empty_mandatory_value(tmp_path) -> None:  # type: ignore[no-untyped-def]
    def bad_date(rows: list[list[str]]) -> None:
        rows[9][rows[0].index("ChargePeriodEnd")] = "30/09/2024"

    def empty(rows: list[list[str]]) -> None:
        rows[5][rows[0].index("EffectiveCost")] = ""

    assert "row 9, column 'ChargePeriodEnd': '30/09/2024' is not a date-time" in error_of(_focus_with(tmp_path, bad_date))
    assert "row 5, column 'EffectiveCost': is empty" in error_of(_focus_with(tmp_path, empty))


def test_focus_missing_mandatory_column(tmp_path) -> None:  # type: ignore[no-untyped-def]
    def drop(rows: list[list[str]]) -> None:
        i = rows[0].index("BillingCurrency")
        for r in rows:
            del r[i]

    assert "missing column 'BillingCurrency'" in error_of(_focus_with(tmp_path, drop))


INV_HEADER = "resource,gpu_type,gpu_count,price_per_hour,currency,team,project,start,end"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("node-2,A100,8,cheap,USD,ml,llm,2026-06-01,", "row 2, column 'price_per_hour': 'cheap' is not a number"),
        ("node-2,A100,0,16,USD,ml,llm,2026-06-01,", "row 2, column 'gpu_count': '0' is not a whole number"),
        ("node-2,A100,8,16,USD,ml,llm,2026-06-10,2026-06-01", "row 2, column 'end': '2026-06-01' is before start"),
        ("node-2,A100,8,16,EUR,ml,llm,2026-06-01,", "row 2, column 'currency': 'EUR' is not USD or CNY"),
        ("node-2,A100,8,16,USD,ml,llm,June,", "row 2, column 'start': 'June' is not a date"),
    ],
)
def test_inventory_rows(tmp_path, line: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    text = f"{INV_HEADER}\nnode-1,A100,8,16,USD,ml,llm,2026-06-01,\n{line}\n"
    assert expected in error_of(write(tmp_path / "inventory.csv", text))


def test_inventory_missing_column(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = "resource,gpu_type,price_per_hour,team,start\nnode-1,A100,16,ml,2026-06-01\n"
    assert "missing column 'gpu_count'" in error_of(write(tmp_path / "inventory.csv", text))


def test_prometheus_malformed_line_and_range(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad_line = 'nvidia_smi_utilization_gpu_ratio{uuid="a"} 0.5\nthis is not a sample\n'
    assert "line 3: not a Prometheus sample" in error_of(write(tmp_path / "a.prom", "# HELP x\n" + bad_line))
    out_of_range = 'nvidia_smi_utilization_gpu_ratio{uuid="a"} 45\n'
    assert "line 1, metric 'nvidia_smi_utilization_gpu_ratio': 45 is outside" in error_of(write(tmp_path / "b.prom", out_of_range))
    no_util = 'nvidia_smi_memory_used_bytes{uuid="a"} 1e9\n'
    assert "no GPU utilization metric" in error_of(write(tmp_path / "c.prom", no_util))


def test_capture_bad_cell_names_the_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = "# capture\n" + smi(row(), row(util="n/a%")) + "\n# more text\n"
    assert "line 5, column 'utilization.gpu [%]': 'n/a%' is not a number" in error_of(write(tmp_path / "capture.txt", "notes\n" + text))


def test_header_only_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with FOCUS_SAMPLE.open(encoding="utf-8") as fh:
        focus_header = fh.readline()
    assert "has a header but no data rows" in error_of(write(tmp_path / "focus.csv", focus_header))
    assert "has a header but no data rows" in error_of(write(tmp_path / "log.csv", HEADER + "\n"))
