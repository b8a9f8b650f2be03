"""The GPU catalog (``knowledge/catalog/gpus.yaml``): one validated :class:`Gpu` per card,
with dense peak throughput per precision, memory, power and where each figure comes from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from advisor.datafile import load_rows
from advisor.errors import InputError

Generation = Literal["volta", "turing", "ampere", "ada", "hopper", "blackwell", "cdna3", "davinci"]
Tier = Literal["flagship", "datacenter", "inference", "workstation", "consumer", "npu"]
Precision = Literal["bf16", "fp16", "fp8", "fp32"]
PRECISIONS: tuple[str, ...] = ("bf16", "fp16", "fp8", "fp32")

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Source = Annotated[str, StringConstraints(strip_whitespace=True, min_length=8)]
Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]


class Gpu(BaseModel):
    """One accelerator. Throughput is dense (no sparsity), in TFLOPS (INT8 in TOPS);
    ``None`` means the card has no such mode or no published figure."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Text
    name: Text
    vendor: Text
    generation: Generation
    tier: Tier
    aliases: tuple[Text, ...] = ()
    memory_gb: Positive
    memory_bandwidth_gb_s: Positive
    bf16_tflops: Positive | None
    fp16_tflops: Positive
    fp8_tflops: Positive | None
    fp32_tflops: Positive | None
    int8_tops: Positive | None
    tdp_w: Positive
    interconnect: Text
    interconnect_gb_s: Positive
    form_factor: Text
    uncertain: bool
    notes: str = ""
    source: Source

    @property
    def precisions(self) -> list[str]:
        """The precisions this card has a peak figure for, e.g. ``["fp16", "fp32"]`` on a T4."""
        return [p for p in PRECISIONS if getattr(self, f"{p}_tflops") is not None]

    def peak_tflops(self, precision: str) -> float:
        """Dense peak TFLOPS at ``precision`` (bf16, fp16, fp8 or fp32).

        Raises InputError for an unknown precision or one the card lacks, naming the
        precisions it has.
        """
        key = str(precision).strip().lower()
        if key not in PRECISIONS:
            raise InputError("precision", precision, "one of bf16, fp16, fp8, fp32")
        value = getattr(self, f"{key}_tflops")
        if value is None:
            raise InputError(
                "precision",
                precision,
                f"a precision that {self.id} supports: {', '.join(self.precisions)}",
            )
        return float(value)


def load_gpus(path: Path) -> list[Gpu]:
    """Read and validate ``gpus.yaml``; any problem raises DataError with row and field."""
    return load_rows(path, "gpus", Gpu, "GPU")
