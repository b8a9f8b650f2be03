"""Readers: each input file -> rows in the engine's staging tables, plus its accounting.

Telemetry (nvidia-smi CSV or Parquet, text captures, Prometheus) goes to ``samples`` (with
``gpu_keys``), FOCUS exports to ``billing``, inventories to ``inventory``. Large CSV/Parquet files are read by
DuckDB itself; small text formats are parsed in Python and handed over as Arrow tables.
"""

from __future__ import annotations

from pathlib import Path

from advisor.progress import Step
from advisor.usage import queries as Q
from advisor.usage.detect import Detected, detect_inputs
from advisor.usage.engine import Engine
from advisor.usage.readers.capture import read_capture
from advisor.usage.readers.common import (
    TELEMETRY_DDL,
    TELEMETRY_STAGE,
    FileSummary,
    promote_staged,
    telemetry_arrow,
)
from advisor.usage.readers.focus import read_focus
from advisor.usage.readers.inventory import INVENTORY_TABLE, inventory_arrow, read_inventory
from advisor.usage.readers.prometheus import read_prometheus
from advisor.usage.readers.smi_sql import read_smi_table

__all__ = ["FileSummary", "read_files"]


def _append(engine: Engine, table: str, arrow) -> None:  # type: ignore[no-untyped-def]
    engine.load_arrow(table, arrow, append=True)


def read_one(engine: Engine, det: Detected, src: int, *, currency: str, show_progress: bool) -> FileSummary:
    """Stage one detected file; returns its accounting."""
    instance = Path(det.name).name
    label = f"reading {Path(det.path).name}" if show_progress else None
    if det.kind == "nvidia_smi_csv":
        return read_smi_table(engine, det, src, instance, label=label)
    if det.kind == "focus":
        return read_focus(engine, det, src, label=label)
    if det.kind == "inventory":
        summary, inv_rows = read_inventory(det, src, currency)
        _append(engine, INVENTORY_TABLE, inventory_arrow(inv_rows))
        return summary
    if det.kind == "prometheus":
        summary = read_prometheus(engine, det, src, instance)
    else:
        summary, rows = read_capture(det, src, instance)
        _append(engine, TELEMETRY_STAGE, telemetry_arrow(rows))
    promote_staged(engine, src)
    return summary


def read_files(
    engine: Engine, paths: list[str], *, currency: str, progress_min_bytes: int, workdir: str | None = None
) -> list[FileSummary]:
    """Detect and stage every file (all are detected first, so a bad one fails fast); files
    in UTF-16 or GB18030 are read through UTF-8 copies in ``workdir``."""
    detected = detect_inputs(paths, engine, workdir)
    for ddl in (*TELEMETRY_DDL, Q.BILLING_DDL, Q.INVENTORY_DDL):
        engine.execute(ddl)
    out = []
    for src, det in enumerate(detected):
        if engine.progress is not None and len(detected) > 1:
            engine.progress(Step(f"reading {Path(det.name).name} ({src + 1}/{len(detected)})", src, len(detected)))
        out.append(read_one(engine, det, src, currency=currency, show_progress=det.size_bytes >= progress_min_bytes))
    if engine.progress is not None and len(detected) > 1:
        engine.progress(Step(f"read {len(detected)} files", len(detected), len(detected)))
    return out
