"""The analysis SQL stays engine-neutral, defaults carry their sources, progress reaches its sink."""

from __future__ import annotations

import re

import pytest
import yaml

from advisor.errors import DataError
from advisor.usage import queries
from advisor.usage.defaults import SHIPPED, load_defaults
from advisor.usage.engine import Engine

# DuckDB (or other single-engine) functions and syntax that have a standard spelling.
ENGINE_SPECIFIC = [
    r"\bepoch\s*\(", r"\bstrptime\b", r"\bread_csv", r"\bread_parquet", r"\blist_\w+\s*\(", r"\bstruct_",
    r"\bregexp_", r"\bjson_", r"\bdate_trunc\b", r"\bQUALIFY\b", r"::", r"\btry_cast\b", r"\bILIKE\b",
    r"\barg_(max|min)\b", r"\bany_value\b", r"\bhash\s*\(", r"\bPIVOT\b", r"\bUSING\s+SAMPLE\b",
    r"\bmedian\s*\(", r"\bquantile", r"\bstrftime\b", r"\bEXCLUDE\b", r"\bGROUP\s+BY\s+ALL\b",
]


def _queries() -> dict[str, str]:
    return queries.named()


@pytest.mark.parametrize("name", sorted(_queries()))
def test_analysis_sql_is_engine_neutral(name: str) -> None:
    sql = _queries()[name]
    for pattern in ENGINE_SPECIFIC:
        assert not re.search(pattern, sql, re.IGNORECASE), f"{name} uses {pattern}"


def test_defaults_have_sources_and_c5_targets() -> None:
    d = load_defaults()
    for key, entry in d.entries.items():
        assert entry.source.strip() and entry.unit.strip(), key
        if entry.source.startswith("project assumption"):
            assert entry.note, f"{key}: a project assumption explains itself"
    assert d["utilization.target"] == 0.85 and "C5" in d.entries["utilization.target"].source
    assert d["utilization.low_use_line"] == 0.70 and "C5" in d.entries["utilization.low_use_line"].source


def test_a_broken_defaults_file_names_the_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A team's own file defines every key of the shipped one, each with a value of its kind."""
    shipped = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))
    cases = [("utilization.target", "high", "expected a number"), ("engine.spark_master", 3, "expected a text"),
             ("chargeback.team_tag_keys", "team", "list of tag keys"), ("offpeak.discount", None, "missing default")]
    for i, (key, value, says) in enumerate(cases):
        data = {k: v for k, v in shipped.items() if k != key or value is not None}
        if value is not None:
            data[key] = {**shipped[key], "value": value}
        path = tmp_path / f"{i}" / "usage_defaults.yaml"
        path.parent.mkdir()
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        with pytest.raises(DataError, match=says) as info:
            load_defaults(path)
        assert "usage_defaults.yaml" in info.value.one_line() and key in info.value.one_line(), key


def test_file_reports_list_their_thresholds(fleet_report) -> None:  # type: ignore[no-untyped-def]
    names = {a.name for a in fleet_report.assumptions}
    assert {"utilization.target", "utilization.low_use_line", "utilization.idle_cutoff", "idle.min_stretch_hours",
            "idle.forgotten_min_hours", "price_per_gpu_hour"} <= names


def test_progress_messages_go_to_the_sink() -> None:
    seen: list[str] = []
    with Engine(memory_limit_gb=0.5, progress=seen.append) as engine:
        engine.execute("SELECT SUM(i) FROM range(1000) t(i)", label="summing")
        engine.execute("SELECT 1")  # no label: silent
    assert seen[0] == "summing …" and seen[-1].startswith("summing done in")
