"""An inventory of rented GPU resources, for chargeback and forgotten-resource checks.

One row per rented resource (a node, an instance, a card): ``resource, gpu_type, gpu_count,
price_per_hour`` (for the whole resource) or ``price_per_gpu_hour``, ``currency``, ``team``,
``project``, ``start``, ``end`` (empty while still rented) and optionally ``project_end`` (when
the phase it served ended). ``resource`` matches a telemetry host name or GPU uuid. Inventories
are small, so they are checked in Python with exact row numbers and staged for the SQL.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

from advisor.errors import DocumentError, InputError
from advisor.limits import usage_time
from advisor.money import normalize_currency
from advisor.usage import columns as C
from advisor.usage import queries as Q
from advisor.usage import values as V
from advisor.usage.detect import Detected, open_text
from advisor.usage.readers.common import FileSummary, arrow_schema

INVENTORY_TABLE = "inventory"


def _records(det: Detected) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """(header, [(row number, cells)]) from CSV or Parquet."""
    if det.container == "parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(det.path)
        header = list(table.column_names)
        data = table.to_pylist()
        return header, [(i + 1, ["" if r[h] is None else str(r[h]) for h in header]) for i, r in enumerate(data)]
    with open_text(Path(det.path)) as fh:
        reader = csv.reader(fh)
        header = next(reader)
        rows = [(i, cells) for i, cells in enumerate(reader, start=1) if any(c.strip() for c in cells)]
    return header, rows


def read_inventory(det: Detected, src: int, default_currency: str) -> tuple[FileSummary, list[dict]]:
    """Check every row of an inventory; returns its accounting and the staged rows."""
    path = det.name
    header, records = _records(det)
    cols = C.inventory_columns(header)
    for need in C.INVENTORY_REQUIRED:
        if need not in cols:
            raise DocumentError(path, f"missing column {need!r}", hint="inventory columns: resource, gpu_type, gpu_count, price_per_hour, team, project, start, end")
    if "price_per_hour" not in cols and "price_per_gpu_hour" not in cols:
        raise DocumentError(path, "missing column 'price_per_hour' (or 'price_per_gpu_hour')")
    pos = {canon: header.index(cell) for canon, cell in cols.items()}
    earliest_day = str(usage_time()["earliest_plausible"])
    earliest = V.timestamp(earliest_day)
    rows: list[dict] = []
    for row_no, cells in records:
        if len(cells) != len(header):
            raise DocumentError(path, f"row {row_no}: expected {len(header)} columns, found {len(cells)}")

        def cell(name: str, cells: list[str] = cells) -> str:
            return cells[pos[name]].strip() if name in pos else ""

        def fail(name: str, problem: str, row_no: int = row_no) -> DocumentError:
            return DocumentError(path, f"row {row_no}, column {cols[name]!r}: {problem}")

        def number(name: str, date: bool = False) -> float | None:  # a non-negative number, or a date's epoch seconds
            text = cell(name)
            if not text:
                return None
            try:
                value = V.timestamp(text) if date else float(text)
            except ValueError as exc:  # V.BadValue included
                raise fail(name, f"{text!r} is not a " + ("date (expected YYYY-MM-DD or YYYY-MM-DD HH:MM)" if date
                                                          else "number")) from exc
            if not date and (not math.isfinite(value) or value < 0):
                raise fail(name, f"{text!r} is not a non-negative number")
            if date and value < earliest:
                raise fail(name, f"{text!r} is before {earliest_day}, the earliest date a rented GPU can have "
                                 "(an unset clock?); fix the row rather than bill the years in between")
            return value

        resource = cell("resource")
        if not resource:
            raise fail("resource", "is empty")
        count = number("gpu_count")
        if count is None or count < 1 or count != int(count):
            raise fail("gpu_count", f"{cell('gpu_count')!r} is not a whole number of GPUs (1 or more)")
        per_gpu = number("price_per_gpu_hour")
        if per_gpu is None:
            per_resource = number("price_per_hour")
            if per_resource is None:
                raise fail("price_per_hour" if "price_per_hour" in cols else "price_per_gpu_hour", "is empty")
            per_gpu = per_resource / count
        start = number("start", date=True)
        if start is None:
            raise fail("start", "is empty")
        end = number("end", date=True)
        if end is not None and end < start:
            raise fail("end", f"{cell('end')!r} is before start {cell('start')!r}")
        try:
            currency = normalize_currency(cell("currency")) if cell("currency") else default_currency
        except InputError as exc:
            raise fail("currency", f"{cell('currency')!r} is not USD or CNY") from exc
        rows.append(
            {
                "src": src,
                "row_no": row_no,
                "resource": resource,
                "gpu_type": cell("gpu_type") or None,
                "gpu_count": int(count),
                "price_per_gpu_hour": per_gpu,
                "currency": currency,
                "team": cell("team") or None,
                "project": cell("project") or None,
                "start_t": start,
                "end_t": end,
                "project_end_t": number("project_end", date=True),
            }
        )
    if not rows:
        raise DocumentError(path, "inventory has a header but no rows")
    kind = "Parquet" if det.container == "parquet" else "CSV"
    summary = FileSummary(
        path=path, kind="inventory", format=f"inventory ({kind})", rows_read=len(rows), rows_used=len(rows)
    )
    return summary, rows


def inventory_arrow(rows: list[dict]):  # type: ignore[no-untyped-def]
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=arrow_schema(Q.INVENTORY_DDL))
