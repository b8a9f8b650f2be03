"""Helpers shared by the command modules: JSON output and rich tables."""

from __future__ import annotations

import json
import sys
from typing import Any


def to_jsonable(obj: Any) -> Any:
    """A pydantic model or plain data -> JSON-ready data."""
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    return obj


def emit_json(obj: Any) -> None:
    """Print exactly one JSON document on stdout."""
    sys.stdout.write(json.dumps(to_jsonable(obj), ensure_ascii=False, indent=2))
    sys.stdout.write("\n")


def console():  # type: ignore[no-untyped-def]
    from rich.console import Console

    return Console()
