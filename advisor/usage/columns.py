"""Column names of the supported inputs, and how header cells are normalised to them.

Kept apart from the readers so that format detection and reading agree on one vocabulary.
"""

from __future__ import annotations

import csv
import re

# --- nvidia-smi --query-gpu ------------------------------------------------------------
# A header cell looks like "utilization.gpu [%]" or "memory.used [MiB]" (units dropped with
# --format=csv,nounits). These are the fields the analysis reads; others (power, clocks,
# temperatures, ...) are ignored and not checked.
SMI_TIMESTAMP = "timestamp"
SMI_UTIL = "utilization.gpu"
SMI_ID_FIELDS = ("uuid", "index", "pci.bus_id")
SMI_FIELDS = (
    "timestamp",
    "name",
    "uuid",
    "index",
    "pci.bus_id",
    "hostname",
    "utilization.gpu",
    "memory.used",
    "memory.total",
)
SMI_DEFAULT_UNITS = {"utilization.gpu": "%", "memory.used": "MiB", "memory.total": "MiB"}

_SMI_CELL = re.compile(r"^\s*([A-Za-z0-9_.]+)\s*(?:\[([^\]]*)\])?\s*$")


def smi_field(cell: str) -> tuple[str, str | None]:
    """``" utilization.gpu [%]"`` -> ``("utilization.gpu", "%")``; unknown shapes keep the text."""
    m = _SMI_CELL.match(cell)
    if not m:
        return cell.strip(), None
    return m.group(1), (m.group(2).strip() if m.group(2) else None)


def is_smi_header(cells: list[str]) -> bool:
    """A --query-gpu header: every cell a field name (with an optional [unit]), one of them
    utilization.gpu. Help text that merely mentions the field does not qualify."""
    if len(cells) < 2 or cells[0].lstrip().startswith("#"):
        return False
    if not all(_SMI_CELL.match(c) for c in cells):
        return False
    return SMI_UTIL in {smi_field(c)[0] for c in cells}


# --- FOCUS billing export --------------------------------------------------------------
# Canonical FOCUS 1.0-1.2 column names. Matching ignores case, '_' and spaces, so exports
# that write billed_cost or billedcost are read the same.
FOCUS_REQUIRED = (
    "BilledCost",
    "EffectiveCost",
    "BillingCurrency",
    "ChargePeriodStart",
    "ChargePeriodEnd",
    "ChargeCategory",
    "ServiceName",
)
FOCUS_OPTIONAL = (
    "ListCost",
    "ContractedCost",
    "ServiceCategory",
    "ProviderName",
    "SubAccountId",
    "SubAccountName",
    "ResourceId",
    "ResourceName",
    "ResourceType",
    "CommitmentDiscountStatus",
    "CommitmentDiscountId",
    "PricingCategory",
    "ChargeFrequency",
    "ConsumedQuantity",
    "ConsumedUnit",
    "SkuId",
    "Tags",
    "Id",  # not a FOCUS column; exporters (the FOCUS sample included) add a row id under this name
)
FOCUS_MONEY = ("BilledCost", "EffectiveCost", "ListCost", "ContractedCost")
FOCUS_NUMBERS = ("ConsumedQuantity",)
FOCUS_TIMES = ("ChargePeriodStart", "ChargePeriodEnd")
# Columns that first appear in a FOCUS version, newest first: they identify the version.
FOCUS_VERSION_MARKERS = (
    ("1.2", ("InvoiceId", "PricingCurrency", "BillingAccountType", "SubAccountType")),
    ("1.1", ("ServiceSubcategory", "CapacityReservationId", "CommitmentDiscountQuantity", "SkuMeter")),
)

# --- Inventory -------------------------------------------------------------------------
# A simple list of rented resources for chargeback and forgotten-resource checks.
INVENTORY_ALIASES = {
    "resource": ("resource", "resource_id", "instance", "host", "hostname", "node"),
    "gpu_type": ("gpu_type", "gpu", "gpu_model", "model"),
    "gpu_count": ("gpu_count", "gpus", "count", "cards"),
    "price_per_hour": ("price_per_hour", "hourly_price", "price_per_instance_hour"),
    "price_per_gpu_hour": ("price_per_gpu_hour", "gpu_hourly_price"),
    "currency": ("currency",),
    "team": ("team", "department", "cost_center"),
    "project": ("project",),
    "start": ("start", "start_time", "started", "billing_start"),
    "end": ("end", "end_time", "ended", "released", "billing_end"),
    "project_end": ("project_end", "phase_end", "project_end_date"),
}
INVENTORY_REQUIRED = ("resource", "gpu_count", "start")


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


_FOCUS_KNOWN = {
    *(c for c in FOCUS_REQUIRED),
    *(c for c in FOCUS_OPTIONAL),
    *(m for _, ms in FOCUS_VERSION_MARKERS for m in ms),
    "BillingAccountId",
    "BillingPeriodStart",
    "BillingPeriodEnd",
    "InvoiceIssuerName",
    "PricingQuantity",
    "PricingUnit",
}


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
