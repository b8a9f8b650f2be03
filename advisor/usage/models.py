"""The sections of a usage report, as pydantic models (plain floats, never numpy types).

Utilizations are fractions 0..1; hours are GPU-hours unless the name says otherwise; money is
in the section's ``currency``; times are ``YYYY-MM-DDTHH:MM:SS`` on the data's own clock.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from advisor.findings import Assumption, Finding
from advisor.usage.readers.common import FileSummary


class UsageSummary(BaseModel):
    """The headline: how busy the GPUs were and what the idle capacity cost."""

    gpu_count: int | None = Field(None, description="GPUs seen in telemetry, or given in summary mode")
    avg_utilization: float | None = Field(None, description="time-weighted average utilization, 0..1")
    target_utilization: float
    period_hours: float | None = Field(None, description="length of the analysed period")
    gpu_hours: float | None = None
    busy_gpu_hours: float | None = Field(None, description="GPU-hours of actual work: utilization × time")
    idle_gpu_hours: float | None = Field(
        None,
        description="files: hours in idle stretches (near-zero utilization for at least the minimum "
        "stretch); summary mode: the unused share of the GPU-hours, (1 - utilization) × GPU-hours",
    )
    idle_cost: float | None = Field(None, description="what the idle GPU-hours cost")
    waste_cost: float | None = Field(None, description="cost of paid GPU time that did no work: (1 - utilization) × cost")
    target_saving: float | None = Field(
        None, description="what running the same work at the target utilization would save"
    )
    gpus_needed_at_target: int | None = None
    total_cost: float | None = None
    price_per_gpu_hour: float | None = Field(None, description="the price used, when one price applies to all GPUs")
    currency: str | None = None


class GpuUsage(BaseModel):
    id: str = Field(description="GPU uuid (or index / PCI bus id when the log has no uuid)")
    instance: str = Field(description="host name, or the file the GPU was read from")
    model: str | None = None
    samples: int
    first_seen: str | None = None
    last_seen: str | None = None
    hours: float
    avg_utilization: float
    median_utilization: float
    high_utilization: float = Field(description="utilization at the right-sizing percentile (p95 by default)")
    share_below_low_use: float = Field(description="share of time below the low-use line (70 %)")
    idle_hours: float = Field(description="hours in idle stretches of at least the minimum length")
    idle_stretches: int
    forgotten: bool = Field(description="idle from some point to the end of its data, for longer than the forgotten threshold")
    forgotten_hours: float = 0.0
    peak_memory_share: float | None = Field(None, description="highest memory.used / memory.total")
    price_per_gpu_hour: float | None = None
    cost: float | None = None
    idle_cost: float | None = None


class InstanceUsage(BaseModel):
    instance: str
    gpus: int
    hours: float
    avg_utilization: float
    idle_hours: float
    cost: float | None = None


class IdleStretch(BaseModel):
    instance: str
    gpu_id: str
    model: str | None = None
    start: str
    end: str
    hours: float
    open: bool = Field(description="runs to the GPU's last sample: it may still be idle now")
    cost: float | None = None


class TrendPoint(BaseModel):
    date: str
    avg_utilization: float | None = None
    gpu_hours: float | None = None
    gpus: int | None = None
    billed_cost: float | None = None
    effective_cost: float | None = None


class ProfilePoint(BaseModel):
    key: int = Field(description="hour of day 0-23, or weekday 0 = Monday .. 6 = Sunday")
    avg_utilization: float
    gpu_hours: float


class HistogramBin(BaseModel):
    low: float = Field(description="utilization from (inclusive)")
    high: float = Field(description="utilization to (exclusive; the last bin includes 100 %)")
    gpu_hours: float
    share: float = Field(description="share of all GPU time")


class TelemetrySection(BaseModel):
    samples: int
    excluded_rows: int = Field(0, description="rows left out because their timestamps cannot be right")
    excluded_hours: float = Field(0.0, description="observed period those rows would have added")
    excluded_reasons: dict[str, int] = Field(default_factory=dict, description="rows excluded by reason")
    excluded_examples: list[str] = Field(default_factory=list, description="the first excluded rows")
    period_start: str | None = None
    period_end: str | None = None
    period_hours: float
    gpu_hours: float
    avg_utilization: float
    target_utilization: float
    peak_hours_utilization: float | None = None
    offpeak_hours_utilization: float | None = None
    gpus: list[GpuUsage]
    instances: list[InstanceUsage]
    idle_stretch_count: int
    idle_stretches: list[IdleStretch] = Field(description="the longest idle stretches, most costly first")
    distribution: list[HistogramBin] = Field(default_factory=list, description="GPU time by utilization, in tenths")
    by_hour: list[ProfilePoint]
    by_weekday: list[ProfilePoint]
    trend: list[TrendPoint]


class CostLine(BaseModel):
    """One line of a billing breakdown."""

    name: str
    category: str | None = None
    detail: str | None = None
    currency: str | None = None
    rows: int
    billed_cost: float
    effective_cost: float


class BillingSection(BaseModel):
    rows: int
    currency: str | None = Field(None, description="the billing currency (None when the export mixes currencies)")
    currencies: list[str]
    total_billed_cost: float | None = None
    total_effective_cost: float | None = None
    total_list_cost: float | None = None
    exact_totals: dict[str, str] = Field(default_factory=dict, description="the totals as exact decimal text")
    period_start: str | None = None
    period_end: str | None = None
    by_service: list[CostLine]
    by_resource: list[CostLine] = Field(description="most costly resources; the last line sums the rest")
    by_team: list[CostLine] = Field(description="chargeback by team/project from the Tags column")
    unused_commitment_cost: float = 0.0
    storage_after_compute_cost: float = 0.0
    steady_on_demand_cost: float = 0.0
    steady_on_demand_resources: int = 0
    trend: list[TrendPoint]


class InventoryResource(BaseModel):
    resource: str
    gpu_type: str | None = None
    gpu_count: int
    price_per_gpu_hour: float
    currency: str
    team: str | None = None
    project: str | None = None
    start: str
    end: str | None = None
    project_end: str | None = None
    hours: float = Field(description="rented hours up to its end (or the as-of time)")
    gpu_hours: float
    cost: float
    telemetry_gpus: int


class ChargebackLine(BaseModel):
    team: str
    project: str
    resources: int
    gpu_hours: float
    cost: float
    currency: str


class ForgottenResource(BaseModel):
    resource: str
    reason: str = Field(description="after_project_end | no_telemetry")
    hours: float
    cost: float
    currency: str


class InventorySection(BaseModel):
    as_of: str
    resources: list[InventoryResource]
    chargeback: list[ChargebackLine]
    forgotten: list[ForgottenResource]
    total_cost: float
    currency: str


class UsageInputs(BaseModel):
    mode: Literal["files", "summary"]
    files: list[FileSummary] = Field(default_factory=list, description="each file read, and how its rows were accounted for")
    gpu_count: int | None = None
    avg_utilization: float | None = None
    price_per_gpu_hour: float | None = None
    period_hours: float | None = None
    currency: str
    billing_mode: str
    as_of: str | None = None


class UsageReport(BaseModel):
    """The usage and waste analysis. Money is in ``currency`` (billing sections keep the
    export's own currency, named in the section)."""

    inputs: UsageInputs
    currency: str
    summary: UsageSummary
    billing: BillingSection | None = None
    telemetry: TelemetrySection | None = None
    inventory: InventorySection | None = None
    findings: list[Finding] = Field(default_factory=list)
    assumptions: list[Assumption] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
