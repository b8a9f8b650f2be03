"""Worked examples in guides: fenced ``advisor-example`` blocks that name a tool, its
arguments and the report fields to show. Guides never type result figures by hand; the
renderer calls the tool and fills a small table from this module.

A block::

    ```advisor-example
    tool: estimate_training_cost
    args: {model: llama-3.1-8b, method: lora, tokens_b: 0.15, gpu: A100-80GB}
    show: [cost.total, "billing[mode=spot].total", "billing[].total"]
    ```

``show`` entries are dotted paths into ``report.model_dump()``. ``name[key=value]`` selects
the list item whose ``key`` equals ``value``; ``name[]`` expands to one row per item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

BLOCK_RE = re.compile(r"^```advisor-example[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
_SEGMENT = re.compile(r"^(?P<name>[A-Za-z_][\w]*)(?:\[(?P<sel>[^\]]*)\])?$")
_ITEM_LABEL_KEYS = ("mode", "name", "stage", "gpu", "rule_id", "id", "title")


class ExampleError(ValueError):
    """A worked example that cannot be shown (bad block, failed tool call, missing field)."""


@dataclass(frozen=True)
class Example:
    """One parsed ``advisor-example`` block."""

    tool: str
    args: dict[str, Any]
    show: tuple[str, ...]
    source: str = field(default="", compare=False)


@dataclass(frozen=True)
class Row:
    """One table row: the path that produced it, an item label for expanded lists, the value."""

    path: str
    item: str | None
    value: Any
    missing: bool = False
    offered: bool = True  # False when a selected list item says ``available: false``


def parse_block(text: str) -> Example:
    """Parse the YAML body of a block; ExampleError with a one-line reason when malformed."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ExampleError(f"block is not valid YAML ({str(exc).splitlines()[0]})") from exc
    if not isinstance(data, dict):
        raise ExampleError("block must be a mapping with tool, args and show")
    unknown = sorted(set(data) - {"tool", "args", "show"})
    if unknown:
        raise ExampleError(f"unknown keys {unknown}; expected tool, args, show")
    tool, args, show = data.get("tool"), data.get("args") or {}, data.get("show")
    if not isinstance(tool, str) or not tool:
        raise ExampleError("missing 'tool' (a tool name such as estimate_training_cost)")
    if not isinstance(args, dict):
        raise ExampleError("'args' must be a mapping of tool arguments")
    if not isinstance(show, list) or not show or not all(isinstance(s, str) for s in show):
        raise ExampleError("'show' must be a non-empty list of dotted field paths")
    for path in show:
        parse_path(path)
    return Example(tool=tool, args=dict(args), show=tuple(show), source=text)


def find_blocks(markdown: str) -> list[re.Match[str]]:
    """The ``advisor-example`` fenced blocks of a Markdown text, in order."""
    return list(BLOCK_RE.finditer(markdown))


def parse_path(path: str) -> list[tuple[str, str | None]]:
    """``"billing[mode=spot].total"`` -> ``[("billing", "mode=spot"), ("total", None)]``."""
    segments = []
    for part in path.split("."):
        m = _SEGMENT.match(part.strip())
        if not m:
            raise ExampleError(f"bad field path {path!r}: use dotted names, name[key=value] or name[]")
        sel = m.group("sel")
        if sel is not None and sel and "=" not in sel:
            raise ExampleError(f"bad selector [{sel}] in {path!r}: use [key=value] or []")
        segments.append((m.group("name"), sel))
    return segments


def _label_of(item: Any, index: int) -> str:
    if isinstance(item, dict):
        for key in _ITEM_LABEL_KEYS:
            value = item.get(key)
            if isinstance(value, str) and value:
                return value
    return str(index + 1)


def resolve(report: dict[str, Any], path: str) -> list[Row]:
    """The rows a ``show`` path produces from a report dict; missing fields give a row with
    ``missing=True`` rather than an exception, so the renderer can show them."""
    rows: list[tuple[str | None, bool, Any]] = [(None, True, report)]
    for name, sel in parse_path(path):
        nxt: list[tuple[str | None, bool, Any]] = []
        for label, offered, node in rows:
            if not isinstance(node, dict) or name not in node:
                return [Row(path, label, None, missing=True)]
            value = node[name]
            if sel is None:
                nxt.append((label, offered, value))
                continue
            if not isinstance(value, list):
                return [Row(path, label, None, missing=True)]
            if sel == "":
                nxt.extend((_label_of(item, i), _offered(item), item) for i, item in enumerate(value))
                continue
            key, want = (s.strip() for s in sel.split("=", 1))
            match = next((it for it in value if isinstance(it, dict) and str(it.get(key)) == want), None)
            if match is None:
                return [Row(path, label, None, missing=True)]
            nxt.append((label, _offered(match), match))
        rows = nxt
    if not rows:  # an expansion over an empty list: nothing to show, which is not an error
        return [Row(path, None, [])]
    return [Row(path, label, value, offered=offered) for label, offered, value in rows]


def _offered(item: Any) -> bool:
    return not (isinstance(item, dict) and item.get("available") is False)
