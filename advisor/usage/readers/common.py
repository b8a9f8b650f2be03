"""What every reader reports about its file, and the staging table telemetry readers fill.

Rows are never dropped silently: each reader counts the rows it read, the rows it used and
the rows it skipped by reason, and ``rows_read == rows_used + sum(rows_skipped)`` holds.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

TELEMETRY_STAGE = "tel_raw"
TELEMETRY_STAGE_DDL = f"""
CREATE TABLE IF NOT EXISTS {TELEMETRY_STAGE} (
    src INTEGER,            -- input file number
    instance VARCHAR,       -- host name, or the file name when the log has none
    gpu_id VARCHAR,         -- uuid, else "index N", else the PCI bus id
    model VARCHAR,          -- GPU name as reported
    t DOUBLE,               -- sample time, epoch seconds of the log's own clock
    util DOUBLE,            -- utilization.gpu as a fraction 0..1
    mem_used_mib DOUBLE,
    mem_total_mib DOUBLE,
    power_w DOUBLE,
    skip VARCHAR,           -- why the row is not a sample (NULL: it is one)
    bad VARCHAR             -- the column whose value is malformed (NULL: none)
)
"""

# Reasons a row is read but not used as a sample.
SKIP_NO_UTILIZATION = "no_utilization_value"
SKIP_REPEATED_HEADER = "repeated_header"
SKIP_OTHER_METRIC = "other_metric"


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


def telemetry_arrow(rows: list[dict]):  # type: ignore[no-untyped-def]
    """Python sample rows -> an Arrow table shaped like the staging table."""
    import pyarrow as pa

    fields = [
        ("src", pa.int32()),
        ("instance", pa.string()),
        ("gpu_id", pa.string()),
        ("model", pa.string()),
        ("t", pa.float64()),
        ("util", pa.float64()),
        ("mem_used_mib", pa.float64()),
        ("mem_total_mib", pa.float64()),
        ("power_w", pa.float64()),
        ("skip", pa.string()),
        ("bad", pa.string()),
    ]
    return pa.table({name: pa.array([r.get(name) for r in rows], type=typ) for name, typ in fields})
