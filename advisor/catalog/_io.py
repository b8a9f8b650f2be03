"""Reading data files: YAML with the C loader when available, and turning pydantic
validation errors into one-line :class:`~advisor.errors.DataError` messages that name the
file, the row and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from advisor.errors import DataError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """Parse one YAML file; a missing or malformed file raises DataError naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DataError(str(path), "file not found") from exc
    except OSError as exc:
        raise DataError(str(path), f"cannot read file ({exc.strerror})") from exc
    try:
        return yaml.load(text, Loader=_LOADER)  # noqa: S506 - safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(
            str(path), f"not valid YAML: {problem}", row=(mark.line + 1) if mark else None
        ) from exc


def list_section(path: Path, data: Any, key: str) -> list[Any]:
    """The list under ``key`` at the top of a catalog file."""
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise DataError(str(path), f"expected a top-level '{key}:' list")
    return data[key]


def mapping_section(path: Path, data: Any, key: str) -> dict[str, Any]:
    """The mapping under ``key`` at the top of a catalog file."""
    if not isinstance(data, dict) or not isinstance(data.get(key), dict):
        raise DataError(str(path), f"expected a top-level '{key}:' mapping")
    return data[key]


def data_error(path: Path | str, exc: ValidationError, *, row: int | str | None) -> DataError:
    """The first problem of a pydantic ValidationError as a DataError naming row and field."""
    first = exc.errors(include_url=False)[0]
    field = ".".join(str(part) for part in first.get("loc", ())) or None
    message = first.get("msg", "invalid value")
    if first.get("type") == "missing":
        problem = "required field is missing"
    elif "input" in first and first.get("type") != "extra_forbidden":
        shown = first["input"]
        text = repr(shown)
        if len(text) > 60:
            text = text[:57] + "..."
        problem = f"{message} (got {text})"
    elif first.get("type") == "extra_forbidden":
        problem = "unknown field"
    else:
        problem = message
    return DataError(str(path), problem, row=row, field=field)
