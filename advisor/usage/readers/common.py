"""What every reader reports about its file, and the staging table telemetry readers fill.

Rows are never dropped silently: each reader counts the rows it read, the rows it used and
the rows it skipped by reason, and ``rows_read == rows_used + sum(rows_skipped)`` holds.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from advisor.usage import queries as Q
from advisor.usage.engine import table_columns

# Telemetry lands in `samples`, one row per sample keyed by an integer GPU number (gid) from
# `gpu_keys`. Parquet logs go there directly (their id columns are cheap to scan first); CSV
# logs and the Python readers pass through `tel_raw`, which still carries the id strings.
TELEMETRY_STAGE = "tel_raw"
GPU_KEYS = "gpu_keys"
SAMPLES = "samples"
TELEMETRY_DDL = (Q.TELEMETRY_STAGE_DDL, Q.GPU_KEYS_DDL, Q.SAMPLES_DDL)  # in queries.sql


def register_keys_sql(source: str) -> str:
    """SQL adding the (instance, gpu_id) pairs of ``source`` that ``gpu_keys`` lacks, numbered
    after the ones it has."""
    return f"""
INSERT INTO {GPU_KEYS}
SELECT (SELECT COALESCE(MAX(gid), 0) FROM {GPU_KEYS}) + ROW_NUMBER() OVER (ORDER BY instance, gpu_id),
       instance, gpu_id, model
FROM (SELECT instance, gpu_id, MAX(model) AS model FROM ({source}) k
      WHERE gpu_id IS NOT NULL GROUP BY instance, gpu_id) n
WHERE NOT EXISTS (SELECT 1 FROM {GPU_KEYS} g WHERE g.instance = n.instance AND g.gpu_id = n.gpu_id)
"""


def insert_samples_sql(source: str) -> str:
    """SQL moving staged rows (with id strings) from ``source`` into ``samples``."""
    return f"""
INSERT INTO {SAMPLES}
SELECT r.src, k.gid, r.t, r.util, r.mem_used_mib, r.mem_total_mib, r.skip, r.bad
FROM ({source}) r
LEFT JOIN {GPU_KEYS} k ON k.instance = r.instance AND k.gpu_id = r.gpu_id
"""


def promote_staged(engine, src: int) -> None:  # type: ignore[no-untyped-def]
    """Move one file's rows from ``tel_raw`` into ``samples``."""
    where = f"SELECT * FROM {TELEMETRY_STAGE} WHERE src = {int(src)}"
    engine.execute(register_keys_sql(where))
    engine.execute(insert_samples_sql(where))
    engine.execute(f"DROP TABLE {TELEMETRY_STAGE}")  # only this file's rows were in it; frees memory
    engine.execute(Q.TELEMETRY_STAGE_DDL)


# Reasons a row is read but not used as a sample.
SKIP_NO_UTILIZATION = "no_utilization_value"
SKIP_REPEATED_HEADER = "repeated_header"
SKIP_OTHER_METRIC = "other_metric"
SKIP_SUPERSEDED = "superseded_metric"  # a second metric of the same kind for one GPU and time


class FileSummary(BaseModel):
    """One input file as read: what it is and how every row was accounted for."""

    path: str
    kind: str = Field(description="nvidia_smi_csv, nvidia_smi_capture, prometheus, focus or inventory")
    format: str = Field(description="human-readable format, e.g. 'FOCUS 1.0 (CSV)'")
    rows_read: int
    rows_used: int
    rows_skipped: dict[str, int] = Field(default_factory=dict)
    gpus: int | None = None
    sections: int | None = None
    notes: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _accounted(self) -> FileSummary:
        skipped = sum(self.rows_skipped.values())
        if self.rows_read != self.rows_used + skipped:
            raise ValueError(
                f"{self.path}: {self.rows_read} rows read but {self.rows_used} used + {skipped} skipped"
            )
        return self


_ARROW_TYPES = {"INTEGER": "int32", "BIGINT": "int64", "DOUBLE": "float64", "VARCHAR": "string"}


def arrow_schema(ddl: str):  # type: ignore[no-untyped-def]
    """The Arrow schema of a staging table, read from its DDL (queries.sql)."""
    import pyarrow as pa

    return pa.schema([(name, getattr(pa, _ARROW_TYPES[typ])()) for name, typ in table_columns(ddl)])


def telemetry_arrow(rows: list[dict]):  # type: ignore[no-untyped-def]
    """Python sample rows -> an Arrow table shaped like the staging table (absent keys are NULL)."""
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=arrow_schema(Q.TELEMETRY_STAGE_DDL))
