"""Column names of the supported inputs, and how header cells are normalised to them.

The names themselves are data (``columns.yaml``), kept apart from the readers so that format
detection and reading agree on one vocabulary.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from advisor.datafile import read_mapping
from advisor.errors import DocumentError

_DATA = read_mapping(Path(__file__).with_name("columns.yaml"))
SMI_UTIL = "utilization.gpu"
SMI_FIELDS: tuple[str, ...] = tuple(_DATA["smi"]["fields"])
SMI_ID_FIELDS: tuple[str, ...] = tuple(_DATA["smi"]["id_fields"])
SMI_DEFAULT_UNITS: dict[str, str] = dict(_DATA["smi"]["default_units"])
FOCUS_REQUIRED: tuple[str, ...] = tuple(_DATA["focus"]["required"])
FOCUS_OPTIONAL: tuple[str, ...] = tuple(_DATA["focus"]["optional"])
FOCUS_MONEY: tuple[str, ...] = tuple(_DATA["focus"]["money"])
FOCUS_NUMBERS: tuple[str, ...] = tuple(_DATA["focus"]["numbers"])
FOCUS_TIMES: tuple[str, ...] = tuple(_DATA["focus"]["times"])
FOCUS_STAGE_NAMES: dict[str, str] = dict(_DATA["focus"]["staging"])
FOCUS_NOT_NULL: tuple[str, ...] = tuple(_DATA["focus"]["not_null"])
FOCUS_VERSION_MARKERS = tuple((v, tuple(cols)) for v, cols in _DATA["focus"]["version_markers"].items())
INVENTORY_ALIASES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _DATA["inventory"]["aliases"].items()}
INVENTORY_REQUIRED: tuple[str, ...] = tuple(_DATA["inventory"]["required"])
PROMETHEUS: dict[str, Any] = _DATA["prometheus"]

_SMI_CELL = re.compile(r"^\s*([A-Za-z0-9_.]+)\s*(?:\[([^\]]*)\])?\s*$")


def smi_field(cell: str) -> tuple[str, str | None]:
    """``" utilization.gpu [%]"`` -> ``("utilization.gpu", "%")``; unknown shapes keep the text."""
    m = _SMI_CELL.match(cell)
    if not m:
        return cell.strip(), None
    return m.group(1), (m.group(2).strip() if m.group(2) else None)


def smi_columns(cells: Sequence[str], path: str, where: str = "") -> dict[str, tuple[int, str, str | None]]:
    """Each field the analysis reads -> (position, header cell, unit); a header without a
    timestamp, a utilization or a GPU id column is a DocumentError naming it (``where``: "line N: ")."""
    found: dict[str, tuple[int, str, str | None]] = {}
    for i, cell in enumerate(cells):
        name, unit = smi_field(cell)
        if name in SMI_FIELDS and name not in found:
            found[name] = (i, cell.strip(), unit or SMI_DEFAULT_UNITS.get(name))
    if "timestamp" not in found:
        raise DocumentError(path, where + "missing column 'timestamp'", hint="add timestamp to --query-gpu")
    if SMI_UTIL not in found:
        raise DocumentError(path, where + "missing column 'utilization.gpu'", hint="add utilization.gpu to --query-gpu")
    if not any(f in found for f in SMI_ID_FIELDS):
        raise DocumentError(path, where + "missing column 'uuid' (or 'index' or 'pci.bus_id')", hint="add uuid to --query-gpu")
    return found


def is_smi_header(cells: list[str]) -> bool:
    """A --query-gpu header: every cell a field name (with an optional [unit]), one of them
    utilization.gpu. Help text that merely mentions the field does not qualify."""
    if len(cells) < 2 or cells[0].lstrip().startswith("#"):
        return False
    if not all(_SMI_CELL.match(c) for c in cells):
        return False
    return SMI_UTIL in {smi_field(c)[0] for c in cells}


def norm_key(name: str) -> str:
    """Case-, space- and punctuation-blind key: ``"Billed_Cost"`` -> ``"billedcost"``."""
    return re.sub(r"[^0-9a-z]", "", name.strip().lower())


def split_csv_line(line: str) -> list[str]:
    """One CSV line -> its cells (quotes honoured)."""
    rows = list(csv.reader([line]))
    return rows[0] if rows else []


def looks_smi_header(cells: list[str]) -> bool:
    """Looser than :func:`is_smi_header`: field-name cells, two or more of them ones the
    analysis knows. A log that lacks utilization.gpu is then reported as missing it."""
    if len(cells) < 2 or not all(_SMI_CELL.match(c) for c in cells):
        return False
    names = {smi_field(c)[0] for c in cells}
    return len(names & set(SMI_FIELDS)) >= 2 and ("timestamp" in names or SMI_UTIL in names)


_FOCUS_KNOWN = {*FOCUS_REQUIRED, *FOCUS_OPTIONAL, *(m for _, ms in FOCUS_VERSION_MARKERS for m in ms),
                *_DATA["focus"]["known"]}


def is_focus_header(cells: list[str]) -> bool:
    """Three or more FOCUS column names: a FOCUS export (missing ones are reported later)."""
    keys = {norm_key(c) for c in cells}
    return len(keys & {norm_key(k) for k in _FOCUS_KNOWN}) >= 3


def inventory_columns(cells: list[str]) -> dict[str, str]:
    """Canonical inventory column -> the header cell that holds it."""
    by_key = {norm_key(c): c for c in cells}
    found: dict[str, str] = {}
    for canon, aliases in INVENTORY_ALIASES.items():
        for alias in aliases:
            if norm_key(alias) in by_key:
                found[canon] = by_key[norm_key(alias)]
                break
    return found


def is_inventory_header(cells: list[str]) -> bool:
    """A resource column and two or more other inventory columns."""
    found = inventory_columns(cells)
    return "resource" in found and len(found) >= 3


def focus_version(columns: list[str]) -> str:
    keys = {norm_key(c) for c in columns}
    for version, markers in FOCUS_VERSION_MARKERS:
        if any(norm_key(m) in keys for m in markers):
            return version
    return "1.0"
