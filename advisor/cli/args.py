"""Flag parsing for the cost and decision commands: one parser per command, built from the
flags listed in ``options.yaml``, so every command spells a shared flag the same way.

argparse is used under typer for these commands because they share one large set of
workload flags; a parse error is one line on stderr and exit code 2, like every other error.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

import typer

from advisor.datafile import read_mapping
from advisor.errors import DataError, InputError
from advisor.numeric import parse_fraction, parse_number, quantity_of
from advisor.units import parse_billions, parse_count

OPTIONS_FILE = Path(__file__).with_name("options.yaml")


class ArgumentError(InputError):
    def __init__(self, message: str) -> None:
        self.field, self.value, self.accepted = "argument", None, message
        Exception.__init__(self, message)
        self.message, self.hint = message, None


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one-line AdvisorErrors, not usage dumps."""

    def error(self, message: str) -> NoReturn:
        raise ArgumentError(f"{message} (see `{self.prog} --help`)")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """Negative numbers are values, not flags: ``--price -2`` reaches the validator, which
        then says what is accepted."""
        joined: list[str] = []
        items = list(args or [])
        i = 0
        while i < len(items):
            a = items[i]
            if a.startswith("--") and "=" not in a and i + 1 < len(items) and re.match(r"^-\.?\d", items[i + 1]):
                joined.append(f"{a}={items[i + 1]}")
                i += 2
                continue
            joined.append(a)
            i += 1
        return super().parse_args(joined, namespace)


def _typed(field: str, parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type whose error is the parser's own one-line message."""

    def run(text: str) -> Any:
        try:
            return parse(text)
        except InputError as exc:
            raise argparse.ArgumentTypeError(exc.one_line()) from None

    run.__name__ = field
    return run


def size(field: str, billions: bool = True) -> Callable[[str], float]:
    return _typed(field, lambda text: parse_billions(text, field) if billions else parse_count(text, field))


def number(field: str, *, positive: bool = True) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = parse_number(text, field, quantity=quantity_of(field), suffixes=False)
        if positive and not value > 0:
            raise InputError(field, text, "a positive number")
        return value

    return _typed(field, parse)


def integer(field: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = parse_number(text, field, quantity=quantity_of(field), accepted="a whole number")
        if value != int(value):
            raise InputError(field, text, "a whole number")
        if value <= 0:
            raise InputError(field, text, "a positive whole number")
        return int(value)

    return _typed(field, parse)


def name(field: str) -> Callable[[str], str]:
    """A name (GPU, model, provider): never empty, never only spaces."""

    def parse(text: str) -> str:
        if not text.strip():
            raise InputError(field, text, f"a {field} name (it is empty)")
        return text.strip()

    return _typed(field, parse)


def lang(text: str) -> str:
    """A language: zh or en, in any case."""
    if text.lower() not in ("zh", "en"):
        raise InputError("lang", text, "zh or en")
    return text.lower()


def port(text: str) -> int:
    """A TCP port, 1-65535."""
    if not text.strip().isdigit() or not 1 <= int(text) <= 65535:
        raise InputError("port", text, "a port number from 1 to 65535")
    return int(text)


def names(text: str) -> list[str]:
    """Comma-separated names: ``a100,h100``."""
    return [x.strip() for x in text.split(",") if x.strip()]


def numbers(field: str) -> Callable[[str], list[float]]:
    """Comma-separated non-negative numbers: ``64,64,256``."""

    def parse(text: str) -> list[float]:
        try:
            values = [float(x) for x in text.replace("，", ",").split(",") if x.strip()]
        except ValueError:
            raise InputError(field, text, "comma-separated numbers, e.g. 64,64,256") from None
        if not values or any(v < 0 for v in values):
            raise InputError(field, text, "comma-separated non-negative numbers, e.g. 64,64,256")
        return values

    parse.__name__ = field
    return parse


_STAGE_KEYS = {"gpus": "gpu_count", "tokens": "tokens_b", "params": "params_b"}
_STAGE_TEXT = {"billing", "gpu", "method", "provider", "settlement_provider", "precision", "optimizer"}


def stage(text: str) -> dict[str, Any]:
    """``pretrain:months=2,gpus=1000,billing=monthly`` -> a stage dict (values parsed by the tool)."""
    title, _, rest = text.partition(":")
    out: dict[str, Any] = {"stage": title.strip().lower()}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not value.strip():
            raise ArgumentError(f"--stage {text!r}: expected key=value pairs after the stage name")
        k = key.strip().lower().replace("-", "_")
        k = _STAGE_KEYS.get(k, k)
        v = value.strip()
        if k in _STAGE_TEXT:
            out[k] = v.lower() if k in ("billing", "method") else v
        elif k == "emergency":
            out[k] = v.lower() in ("1", "yes", "true", "y")
        elif k == "tokens_b":
            out[k] = size("tokens")(v)
        elif k == "tokens_per_day":
            out[k] = size("tokens-per-day", False)(v)
        else:
            out[k] = number(k, positive=False)(v)
    return out


# How each `type` of options.yaml becomes argparse settings; the flag's name words its errors.
_TYPES: dict[str, Callable[[str], dict[str, Any]]] = {
    "size": lambda f: {"type": size(f)},
    "count": lambda f: {"type": size(f, billions=False)},
    "number": lambda f: {"type": number(f)},
    "number0": lambda f: {"type": number(f, positive=False)},
    "integer": lambda f: {"type": integer(f)},
    "name": lambda f: {"type": name(f)},
    "lower": lambda f: {"type": str.lower},
    "lang": lambda f: {"type": _typed(f, lang)},
    "port": lambda f: {"type": _typed(f, port)},
    "int": lambda f: {"type": int},
    "names": lambda f: {"type": names},
    "fraction": lambda f: {"type": _typed(f, lambda text: parse_fraction(text, f))},
    "numbers": lambda f: {"type": numbers(f)},
    "stage": lambda f: {"type": stage, "action": "append"},
    "flag": lambda f: {"action": "store_true", "default": None},
    "switch": lambda f: {"action": "store_true"},
    "bool": lambda f: {"action": argparse.BooleanOptionalAction, "default": None},
    "negative": lambda f: {"action": "store_false", "default": None},
}
_SETTINGS = ("help", "default", "required", "metavar", "choices", "nargs")


@lru_cache(maxsize=1)
def options() -> dict[str, Any]:
    """options.yaml: the flag groups and the commands (read once; read-only)."""
    return read_mapping(OPTIONS_FILE)


def _add(target: Any, option: dict[str, Any]) -> None:
    flag = option["flag"]
    unknown = set(option) - {"flag", "dest", "type", "only", *_SETTINGS} or {option.get("type", "")} - {"", *_TYPES}
    if unknown:  # e.g. an unquoted comma in a help text makes a key of its tail
        raise DataError(str(OPTIONS_FILE), f"{flag}: unknown {sorted(unknown)[0]!r}")
    field = flag.removeprefix("--")
    settings = {k: option[k] for k in _SETTINGS if k in option}
    if "type" in option:
        settings.update(_TYPES[option["type"]](field))
    if flag.startswith("-"):
        settings["dest"] = option.get("dest", field.replace("-", "_"))
    target.add_argument(flag, **settings)


def parser(command: str) -> Parser:
    """The argparse parser of one command of options.yaml."""
    spec, groups = options()["commands"][command], options()["groups"]
    p = Parser(prog=f"advisor {command}", description=spec.get("description", spec["help"]), epilog=spec.get("epilog"))
    for item in spec["options"]:
        if isinstance(item, dict):
            _add(p, item)
            continue
        group = groups[item]
        target = p.add_argument_group(group["title"]) if group.get("title") else p
        for option in group["options"]:
            if command in option.get("only", [command]):
                _add(target, option)
    return p


_PASS = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


def command(app: typer.Typer, name: str, run: Callable[[argparse.Namespace], None]) -> None:
    """Add options.yaml's command ``name`` (its last word) to ``app``: typer hands its words to
    the command's parser, and ``run`` gets the parsed flags."""

    def call(ctx: typer.Context) -> None:
        p = parser(name)
        if any(a in ("-h", "--help") for a in ctx.args):
            p.print_help()
        else:
            run(p.parse_args(ctx.args))

    app.command(name.split()[-1], context_settings=_PASS, add_help_option=False, help=options()["commands"][name]["help"])(call)


def group(app: typer.Typer, name: str, commands: dict[str, Callable[[argparse.Namespace], None]]) -> None:
    """Add the command group ``name`` (help in options.yaml's ``command_groups``) with its commands."""
    sub = typer.Typer(help=options()["command_groups"][name], no_args_is_help=True, add_completion=False)
    for word, run in commands.items():
        command(sub, f"{name} {word}", run)
    app.add_typer(sub, name=name)


def to_request(ns: argparse.Namespace, drop: tuple[str, ...] = ("json", "details")) -> dict[str, Any]:
    """Namespace -> request keyword arguments (unset flags left out)."""
    data = {k: v for k, v in vars(ns).items() if v is not None and k not in drop}
    if "deadline_days" in data:
        days = data.pop("deadline_days")
        data.setdefault("deadline_hours", days * 24)
    return data
