"""Text captures that hold ``nvidia-smi --query-gpu --format=csv`` sections among other output.

Such files (a support bundle, the nvidia_gpu_exporter captures, a shell session saved to a
file) mix tables, ``nvidia-smi -q`` output and comments. Every block that starts with a
``--query-gpu`` header line is read until the next blank or comment line; other text is not a
row. Captures are small, so this reader works in Python with exact line numbers.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from advisor.errors import DocumentError
from advisor.usage import columns as C
from advisor.usage import values as V
from advisor.usage.detect import Detected, open_text
from advisor.usage.readers.common import (
    SKIP_NO_UTILIZATION,
    SKIP_REPEATED_HEADER,
    FileSummary,
)
from advisor.usage.readers.smi_sql import GPU_ID_FORMS, NUMBER_FIELDS


class SmiHeader:
    """The positions and units of the fields the analysis reads, from one header line."""

    def __init__(self, cells: list[str], path: str, line_no: int) -> None:
        self.width = len(cells)
        found = C.smi_columns(cells, path, f"line {line_no}: ")
        self.pos: dict[str, int] = {name: i for name, (i, _, _) in found.items()}
        self.text: dict[str, str] = {name: text for name, (_, text, _) in found.items()}
        self.unit: dict[str, str | None] = {name: unit for name, (_, _, unit) in found.items()}

    def cell(self, cells: list[str], name: str) -> str | None:
        i = self.pos.get(name)
        return cells[i].strip() if i is not None else None


def smi_row(head: SmiHeader, cells: list[str], *, path: str, line_no: int, src: int, instance: str) -> dict:
    """One data line -> a staging row (``skip`` set when it is not a sample)."""
    if len(cells) != head.width:
        raise DocumentError(path, f"line {line_no}: expected {head.width} columns, found {len(cells)}")
    ts_text = head.cell(cells, "timestamp")
    if ts_text == "timestamp":
        return {"skip": SKIP_REPEATED_HEADER}

    def fail(field: str, problem: str) -> DocumentError:
        return DocumentError(path, f"line {line_no}, column {head.text[field]!r}: {problem}")

    def read(field: str) -> float | None:
        try:
            return V.timestamp(ts_text) if field == "timestamp" else V.number(head.cell(cells, field), head.unit[field])
        except V.BadValue as exc:
            raise fail(field, str(exc)) from exc

    row: dict = {"src": src, "t": read("timestamp")}
    util = read(C.SMI_UTIL)
    if util is not None and not 0 <= util <= 100:
        raise fail(C.SMI_UTIL, f"{util:g} is not a utilization between 0 and 100 %")
    row.update({out: read(field) for field, out in NUMBER_FIELDS if field in head.pos})
    gpu_id = None
    for name, prefix in GPU_ID_FORMS:
        value = head.cell(cells, name)
        if not V.is_missing(value):
            gpu_id = prefix + str(value)
            break
    if gpu_id is None:
        raise fail(next(f for f in C.SMI_ID_FIELDS if f in head.pos), "no GPU id (uuid, index or pci.bus_id all empty)")
    host = head.cell(cells, "hostname")
    name = head.cell(cells, "name")  # type: ignore[assignment]
    row.update(
        instance=instance if V.is_missing(host) else host,
        gpu_id=gpu_id,
        model=None if V.is_missing(name) else name,
        util=None if util is None else util / 100.0,
        skip=SKIP_NO_UTILIZATION if util is None else None,
    )
    return row


def read_capture(det: Detected, src: int, instance: str) -> tuple[FileSummary, list[dict]]:
    """All ``--query-gpu`` sections of a text capture -> staging rows and their accounting."""
    path = det.name
    with open_text(Path(det.path)) as fh:
        lines = fh.read().splitlines()
    rows: list[dict] = []
    sections = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if "utilization.gpu" not in line or not C.is_smi_header(C.split_csv_line(line)):
            i += 1
            continue
        head = SmiHeader(C.split_csv_line(line), path, i + 1)
        sections += 1
        i += 1
        while i < len(lines) and lines[i].strip() and not lines[i].lstrip().startswith("#"):
            rows.append(smi_row(head, C.split_csv_line(lines[i]), path=path, line_no=i + 1, src=src, instance=instance))
            i += 1
    if sections == 0:
        raise DocumentError(path, "no nvidia-smi --query-gpu CSV section found")
    skipped = dict(Counter(r["skip"] for r in rows if r.get("skip")))
    used = [r for r in rows if not r.get("skip")]
    summary = FileSummary(
        path=path,
        kind="nvidia_smi_capture",
        format="nvidia-smi --query-gpu sections in a text capture",
        rows_read=len(rows),
        rows_used=len(used),
        rows_skipped=skipped,
        gpus=len({(r["instance"], r["gpu_id"]) for r in used}),
        sections=sections,
    )
    return summary, used
