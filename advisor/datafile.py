"""Reading data files (every YAML file of knowledge/ and of the modules' own data), and turning
pydantic validation errors into one-line :class:`~advisor.errors.DataError` messages that name
the file, the row and the field. A base module: every layer may read its data through it.

YAML is read from the C parser's event stream and built into plain dicts/lists here,
which is about twice as fast as PyYAML's Python constructor (the catalog must load in well
under 50 ms). Scalars resolve exactly as ``yaml.safe_load`` would; documents that use
anchors, aliases, explicit tags or merge keys fall back to ``yaml.load`` with the safe
loader.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from yaml import events

from advisor.errors import DataError

if TYPE_CHECKING:
    from pydantic import ValidationError


def _written_twice(key: Any, mark: Any) -> yaml.MarkedYAMLError:
    """A key written twice in one mapping: YAML would keep the second and silently drop the first."""
    return yaml.MarkedYAMLError(problem=f"the key {key!r} is written twice", problem_mark=mark)


class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The safe loader (the C parser when built, ~10× faster) that refuses a key written twice.
    The rules reader uses it too."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # "<<: *base": merged keys may be overridden
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str | int | float | bool) and key in seen:
                raise _written_twice(key, key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


_LOADER = Loader
_RESOLVERS = yaml.resolver.Resolver.yaml_implicit_resolvers
_CONSTRUCT = yaml.constructor.SafeConstructor()
_STR_TAG = "tag:yaml.org,2002:str"
_CONVERT = {
    "tag:yaml.org,2002:null": _CONSTRUCT.construct_yaml_null,
    "tag:yaml.org,2002:bool": _CONSTRUCT.construct_yaml_bool,
    "tag:yaml.org,2002:int": _CONSTRUCT.construct_yaml_int,
    "tag:yaml.org,2002:float": _CONSTRUCT.construct_yaml_float,
    "tag:yaml.org,2002:timestamp": _CONSTRUCT.construct_yaml_timestamp,
}


class _Unsupported(Exception):
    """The document needs PyYAML's full constructor (anchors, tags, merge keys)."""


@lru_cache(maxsize=4096)
def _plain(value: str) -> Any:
    """A plain (unquoted) scalar resolved like the safe loader does."""
    for tag, pattern in _RESOLVERS.get(value[:1], ()):
        if pattern.match(value):
            convert = _CONVERT.get(tag)
            if convert is None:
                raise _Unsupported(tag)
            return convert(yaml.ScalarNode(tag, value))
    return value


def _scalar(event: events.ScalarEvent) -> Any:
    if event.anchor is not None:
        raise _Unsupported("anchor")
    if not event.style and event.implicit[0]:  # plain style is '' (C parser) or None
        return _plain(event.value)
    if event.tag not in (None, "!", _STR_TAG):
        raise _Unsupported(event.tag)
    return event.value


def _build(text: str) -> Any:
    stack: list[Any] = []
    keys: list[Any] = []
    root: Any = None
    documents = 0
    for event in yaml.parse(text, Loader=_LOADER):
        kind = type(event)
        if kind is events.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _Unsupported("several documents")  # the safe loader reports it
            continue
        if kind is events.ScalarEvent:
            value = _scalar(event)
        elif kind is events.MappingStartEvent or kind is events.SequenceStartEvent:
            if event.anchor is not None or (event.tag and not event.implicit):
                raise _Unsupported("anchor or tag")
            stack.append({} if kind is events.MappingStartEvent else [])
            keys.append(None)
            continue
        elif kind is events.MappingEndEvent or kind is events.SequenceEndEvent:
            value = stack.pop()
            keys.pop()
        elif kind is events.AliasEvent:
            raise _Unsupported("alias")
        else:
            continue
        if not stack:
            root = value
            continue
        top = stack[-1]
        if type(top) is list:
            top.append(value)
        elif keys[-1] is None:
            if isinstance(value, dict | list) or value == "<<":
                raise _Unsupported("complex or merge key")
            if value in top:
                raise _written_twice(value, event.start_mark)
            keys[-1] = value
        else:
            top[keys[-1]] = value
            keys[-1] = None
    return root


def read_yaml(path: Path) -> Any:
    """Parse one YAML file; a missing or malformed file raises DataError naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DataError(str(path), "file not found") from exc
    except OSError as exc:
        raise DataError(str(path), f"cannot read file ({exc.strerror})") from exc
    try:
        try:
            return _build(text)
        except _Unsupported:
            return yaml.load(text, Loader=_LOADER)  # noqa: S506 - safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(
            str(path), f"not valid YAML: {problem}", row=(mark.line + 1) if mark else None
        ) from exc


def read_mapping(path: Path) -> dict[str, Any]:
    """A YAML file whose top level is a mapping (an empty file is an empty mapping)."""
    data = read_yaml(path) or {}
    if not isinstance(data, dict):
        raise DataError(str(path), "expected a mapping at the top of the file")
    return data


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


def load_rows(path: Path, key: str, model: Any, what: str) -> list[Any]:
    """Validate each entry of the list under ``key`` as ``model``; ids must be unique.
    Any problem raises DataError naming the row (its id when it has one) and the field."""
    from pydantic import ValidationError  # the YAML readers above do not need pydantic
    rows: list[Any] = []
    seen: set[str] = set()
    for index, entry in enumerate(list_section(path, read_yaml(path), key), start=1):
        row = entry.get("id", index) if isinstance(entry, dict) else index
        if not isinstance(entry, dict):
            raise DataError(str(path), f"expected a mapping of {what} fields", row=row)
        try:
            item = model.model_validate(entry)
        except ValidationError as exc:
            raise data_error(path, exc, row=row) from exc
        if item.id in seen:
            raise DataError(str(path), f"duplicate id {item.id!r}", row=row, field="id")
        seen.add(item.id)
        rows.append(item)
    return rows
