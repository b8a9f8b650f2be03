"""The model catalog (``knowledge/catalog/models.yaml``): the shape of each open model as
its config.json gives it, so that the engine can size FLOPs and memory from a name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from advisor.catalog.gpus import Positive, Source, Text
from advisor.datafile import load_rows

Count = Annotated[int, Field(ge=1)]


class ModelSpec(BaseModel):
    """One model. ``params_b`` is the total in billions; ``active_params_b`` is set for
    mixture-of-experts models only (None means every parameter is used per token)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Text
    name: Text
    family: Text
    aliases: tuple[Text, ...] = ()
    params_b: Positive
    active_params_b: Positive | None = None
    layers: Count
    hidden_size: Count
    intermediate_size: Count
    heads: Count
    kv_heads: Count
    vocab_size: Count
    context_length: Count
    experts: Count | None = None
    experts_per_token: Count | None = Field(default=None, validate_default=True)
    source: Source

    @field_validator("active_params_b")
    @classmethod
    def _active_below_total(cls, value: float | None, info: ValidationInfo) -> float | None:
        total = info.data.get("params_b")
        if value is not None and total is not None and value >= total:
            raise ValueError(f"active_params_b must be smaller than params_b ({total})")
        return value

    @field_validator("kv_heads")
    @classmethod
    def _kv_divides_heads(cls, value: int, info: ValidationInfo) -> int:
        heads = info.data.get("heads")
        if heads is not None and (value > heads or heads % value):
            raise ValueError(f"kv_heads must divide heads ({heads})")
        return value

    @field_validator("experts_per_token")
    @classmethod
    def _moe_complete(cls, value: int | None, info: ValidationInfo) -> int | None:
        experts, active = info.data.get("experts"), info.data.get("active_params_b")
        given = [v is not None for v in (value, experts, active)]
        if any(given) and not all(given):
            raise ValueError(
                "a MoE model needs experts, experts_per_token and active_params_b together"
            )
        if value is not None and experts is not None and value >= experts:
            raise ValueError(f"experts_per_token must be smaller than experts ({experts})")
        return value

    @property
    def is_moe(self) -> bool:
        return self.experts is not None

    @property
    def active_b(self) -> float:
        """Parameters used per token, in billions (the total for dense models)."""
        return float(self.active_params_b if self.active_params_b is not None else self.params_b)


def load_models(path: Path) -> list[ModelSpec]:
    """Read and validate ``models.yaml``; any problem raises DataError with row and field."""
    return load_rows(path, "models", ModelSpec, "model")
