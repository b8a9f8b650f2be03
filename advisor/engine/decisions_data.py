"""Defaults of the decision tools (issue #12): ``knowledge/decisions/*.yaml`` layered over the
catalog's ``defaults.yaml``, so a decision report lists every value it used with its source.

The files use the defaults format (``key: {value, unit, source, note?}``). When
``ADVISOR_KNOWLEDGE_DIR`` points at a folder without ``decisions/``, the shipped files are used.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.catalog.defaults import DefaultEntry, Defaults, load_defaults
from advisor.config import ROOT, knowledge_dir
from advisor.engine.params import Params
from advisor.errors import DataError, InputError, close_matches


def _folder() -> Path:
    own = knowledge_dir() / "decisions"
    return own if own.is_dir() else ROOT / "knowledge" / "decisions"


@lru_cache(maxsize=4)
def _load(folder: str, stamp: tuple[tuple[str, float], ...]) -> dict[str, Defaults]:
    return {Path(name).stem: load_defaults(Path(name)) for name, _ in stamp}


@lru_cache(maxsize=8)
def _files(folder: str, _mtime_ns: int) -> tuple[str, ...]:
    """The folder's YAML files, listed again only when the folder changes (adding, removing or
    renaming a file changes its modification time)."""
    return tuple(sorted(str(p) for p in Path(folder).glob("*.yaml")))


def decision_defaults() -> list[Defaults]:
    folder = str(_folder())
    stamp = tuple((name, os.stat(name).st_mtime) for name in _files(folder, os.stat(folder).st_mtime_ns))
    return list(_load(folder, stamp).values())


class LayeredDefaults:
    """``get(key)`` from the first layer that has the key (decision files first)."""

    def __init__(self, layers: list[Any]) -> None:
        self._layers = layers

    def get(self, key: str) -> DefaultEntry:
        for layer in self._layers:
            if key in layer:
                return layer.get(key)  # type: ignore[no-any-return]
        known = [k for layer in self._layers for k in layer]
        near = close_matches(key, known)
        raise DataError("knowledge/decisions", "no such default", field=key,
                        hint=f"did you mean {', '.join(near)}?" if near else None)

    def __contains__(self, key: object) -> bool:
        return any(key in layer for layer in self._layers)


def decision_params(catalog: Any) -> Params:
    """Params reading the decision files, then the catalog defaults."""
    return Params(LayeredDefaults([*decision_defaults(), catalog.defaults]))


def by_currency(value: Any, currency: str, key: str) -> float:
    """A ``{USD: x, CNY: y}`` default in ``currency`` (a plain number is currency-free)."""
    if isinstance(value, dict):
        if currency not in value:
            raise DataError("knowledge/decisions", f"no {currency} value", field=key)
        return float(value[currency])
    return float(value)


def card_value(p: Params, prefix: str, gpu: Any, currency: str, *, what: str, flag: str) -> tuple[float, str]:
    """``prefix.<gpu id>`` in ``currency``; InputError naming the request field when absent."""
    key = f"{prefix}.{gpu.id}"
    try:
        return by_currency(p(key), currency, key), key
    except DataError:
        raise InputError(flag, None, f"{what} for {gpu.id} (no dated figure in knowledge/decisions)") from None
