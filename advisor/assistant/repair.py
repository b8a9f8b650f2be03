"""The LLM path's argument repair: the offline frame's reading of the question is the base,
the model's tool arguments are edits to it (docs/LLM.md "Argument repair").

- A value the frame read (number or text) stands, unless the model's value also traces to
  the question: to a figure or a word that no part of the frame's reading claimed.
- Fields the model left empty are filled from the frame.
- A value the frame did not read must trace to the question's unclaimed words, to a result
  an earlier call of this turn returned, or be that field's own default (the request model's
  default or the ``defaults.yaml`` entry of the same name) — never any other default.
- A tool choice that differs from a confident frame intent is resolved: the frame's tool runs.

Every change is a :class:`Repair`, recorded in the result and stated in one line.

:func:`read_frame` is the one adapter to the offline parser: it is the only place that
knows the parser's output (``parse_question``: intent, tool arguments, spans).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from advisor.assistant.grounding import word_numbers
from advisor.assistant.numbers import close, numbers_in
from advisor.assistant.offline.frames import frames_of
from advisor.assistant.offline.parse import parse_question
from advisor.assistant.offline.project import project
from advisor.assistant.offline.slots_money import CURRENCY_BY_LANGUAGE
from advisor.catalog import get_catalog
from advisor.glossary import term
from advisor.tools import TOOL_NAMES
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

__all__ = ["Frame", "Repair", "read_frame", "repair_call", "repair_line"]

# What a number the user said may become in an argument: the unit conversions the
# argument names imply (``_b`` = billions, ``_hours``, shares 0..1).
_CONVERSIONS = (
    1.0, 1e-9, 1e-6, 1e-3, 1e3, 1e6, 1e9, 1e-2, 1e2,
    HOURS_PER_DAY, 7 * HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR, 1 / HOURS_PER_MONTH, 1 / HOURS_PER_DAY,
    1 / HOURS_PER_YEAR, 1e4 * 1e-9, 1e8 * 1e-9, 1e4,
)  # fmt: skip
_PATH_KEYS = ("path", "files", "prices_file")
# How each kind of repair is stated to the model and in the result (English, for the record).
_LINES = {
    "replaced": "{tool}.{field}: {m} -> {v} (the question says so)", "filled": "{tool}.{field}: filled {v} from the question",
    "dropped": "{tool}.{field}: dropped {m} (not in the question)",
    "unknown": "{tool}.{field}: dropped {m} (not a field of {tool})", "tool": "tool: {v} instead of {m} (what the question asks for)"}


@dataclass(frozen=True)
class Repair:
    """One change to a model's call: ``kind`` is replaced, filled, dropped, unknown (not a
    field of the tool) or tool (another tool runs)."""

    tool: str
    field: str
    kind: str
    model: Any = None
    value: Any = None

    def line(self) -> str:
        return _LINES[self.kind].format(tool=self.tool, field=self.field, m=_show(self.model), v=_show(self.value))

    def short(self, lang: str) -> str:
        """The change as the answer states it: the value used, never the model's invented one."""
        v = _show(self.value)
        if self.kind in ("replaced", "filled"):
            return f"{self.field} = {v}"
        if self.kind in ("dropped", "unknown"):
            return term("repair.default", lang, field=self.field)
        return term("repair.instead", lang, value=v)


def _show(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list | dict):
        return f"[{len(value)}]"
    return str(value)


def repair_line(repairs: list[Repair], lang: str) -> str:
    """The one line an answer carries when its tool calls were repaired."""
    if not repairs:
        return ""
    return term("repair.line", lang, items="; ".join(dict.fromkeys(r.short(lang) for r in repairs)))


def _norm(text: str) -> str:
    return re.sub(r"[\s\-_.·]+", "", str(text).lower())


@dataclass
class Frame:
    """The offline reading of the conversation, as the repair layer uses it."""

    intent: str
    pending: str | None
    confident: bool
    language: str
    question: str
    words: list[str]
    parsed: Any = None
    claimed: list[tuple[int, int]] = field(default_factory=list)
    document: tuple[int, int] | None = None
    defaulted: set[str] = field(default_factory=set)
    """Fields whose frame value is a default, not a reading of the question."""
    _args: dict[str, dict[str, Any]] = field(default_factory=dict)

    def args_for(self, tool: str) -> dict[str, Any]:
        """The frame's reading projected onto ``tool``'s arguments."""
        if tool not in self._args:
            parsed = self.parsed
            if parsed is None:
                self._args[tool] = {}
            elif tool in (parsed.intent, parsed.pending):
                self._args[tool] = dict(parsed.args)
            else:
                self._args[tool] = project(tool, parsed.context, language=parsed.language, question=self.question)
        return self._args[tool]

    def free_text(self) -> str:
        """The user's words with the parts the frame's reading claimed blanked out."""
        chars = list(self.question)
        for start, end in self.claimed:
            chars[start:end] = " " * (end - start)
        return "\n".join([*self.words[:-1], "".join(chars)])

    def free_numbers(self) -> list[float]:
        return word_numbers([self.free_text()])

    def user_text(self) -> str:
        """The user's own words without a pasted document (whose figures count only through
        the tools that read it)."""
        if self.document is None:
            return "\n".join(self.words)
        start, end = self.document
        return "\n".join([*self.words[:-1], self.question[:start] + self.question[end:]])


def read_frame(question: str, previous: Any, words: list[str]) -> Frame:
    """The adapter: today's ``parse_question`` output as a :class:`Frame`."""
    parsed = parse_question(question, previous)
    claimed = [(s.start, s.end) for s in parsed.spans]
    document = next(((s.start, s.end) for s in parsed.spans if s.slot == "text"), None)
    typed = frames_of(parsed)
    confident = (parsed.intent in TOOL_NAMES and parsed.intent != "search_knowledge" and not parsed.missing
                 and bool(typed) and typed[0].confidence >= 1)
    defaulted = {k for f in typed for k, v in f.args.items() if v.source == "default"}
    return Frame(intent=parsed.intent, pending=parsed.pending, confident=confident, language=parsed.language,
                 question=question, words=words, parsed=parsed, claimed=claimed, document=document,
                 defaulted=defaulted)


def _model_choice() -> set[str]:
    # lazy: loads openai only when this runs (cold start)
    from advisor.tools.langchain import llm_settings

    return set(llm_settings()["schema"].get("model_choice", []))


@lru_cache(maxsize=1)
def _catalog_defaults() -> dict[str, Any]:
    """``defaults.yaml`` values by the field name they stand for (the key's last part)."""
    try:
        defaults = get_catalog().defaults
        out: dict[str, Any] = {}
        for key in defaults:
            out.setdefault(key.split(".")[-1], defaults.value(key))
            out.setdefault(key.replace(".", "_"), defaults.value(key))
        return out
    except Exception:  # noqa: BLE001 - no catalog: only the request models' defaults count
        return {}


def _own_defaults(info: Any, key: str, lang: str) -> list[Any]:
    values: list[Any] = []
    if info is not None and info.default is not None and not callable(info.default):
        values.append(info.default)
    if key in _catalog_defaults():
        values.append(_catalog_defaults()[key])
    if key == "currency":
        values.append(CURRENCY_BY_LANGUAGE.get(lang, "USD"))
    return values


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _traces_number(value: float, free: list[float]) -> bool:
    return any(close(value, s * c, rel=0.005) for s in free for c in _CONVERSIONS)


_NAMED = {"gpu": "gpu", "gpus": "gpu", "model": "model", "provider": "provider"}


def _canonical(key: str, value: str) -> str:
    """A GPU, model or provider name as its catalog id (the one vocabulary), else normalized."""
    kind = _NAMED.get(key.split(".")[-1])
    if kind is not None:
        try:
            return get_catalog().name_index(kind).resolve(value)
        except Exception:  # noqa: BLE001 - an unknown name is compared as written
            pass
    return _norm(value)


def _same(a: Any, b: Any, key: str = "") -> bool:
    if _is_number(a) and _is_number(b):
        return close(float(a), float(b), rel=0.005)
    if isinstance(a, str) and isinstance(b, str):
        return _norm(a) == _norm(b) or _canonical(key, a) == _canonical(key, b)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return all(_same(x, y, key) for x, y in zip(a, b, strict=True))
    return bool(a == b)


class _Checker:
    """The tracing rules for one call."""

    def __init__(self, frame: Frame, seen: list[Any]) -> None:
        self.frame = frame
        self.free = frame.free_numbers()
        self.free_text = _norm(frame.free_text())
        self.all_text = "\n".join(frame.words)
        self.seen_numbers = [v for v in seen if _is_number(v)]
        self.seen_text = {_norm(v) for v in seen if isinstance(v, str) and len(v) <= 80}

    def traces(self, value: Any) -> bool:
        if isinstance(value, bool):
            return False  # a boolean is only ever what the frame read or the field's default
        if _is_number(value):
            return _traces_number(float(value), self.free) or any(close(float(value), s) for s in self.seen_numbers)
        if isinstance(value, str):
            v = _norm(value)
            return bool(v) and (v in self.free_text or v in self.seen_text)
        if isinstance(value, list):
            return all(self.traces(v) for v in value)
        return False


def repair_call(
    tool: str,
    args: dict[str, Any],
    frame: Frame,
    *,
    seen: list[Any] | None = None,
    tools_run: list[str] | None = None,
) -> tuple[str, dict[str, Any], list[Repair]]:
    """The tool to run and its arguments after repair, with every change made.

    ``seen``: values earlier results of this turn returned (a recommendation's card may be
    priced next); ``tools_run``: the tools this turn already ran."""

    repairs: list[Repair] = []
    if (frame.confident and tool != frame.intent and tool in TOOL_NAMES and tool != "search_knowledge"
            and frame.intent not in (tools_run or [])):
        repairs.append(Repair(tool="tool", field="tool", kind="tool", model=tool, value=frame.intent))
        tool = frame.intent
    fixed, more = _repair_args(tool, args, frame, _Checker(frame, seen or []))
    return tool, fixed, repairs + more


def _repair_args(tool: str, args: dict[str, Any], frame: Frame, check: _Checker) -> tuple[dict[str, Any], list[Repair]]:
    # lazy: loads openai only when this runs (cold start)
    from advisor.tools.langchain import HIDDEN_FIELDS, request_model

    fields = request_model(tool).model_fields
    theirs = {k: v for k, v in frame.args_for(tool).items() if k in fields and k not in HIDDEN_FIELDS}
    out: dict[str, Any] = {}
    repairs: list[Repair] = []

    def note(key: str, kind: str, model: Any = None, value: Any = None) -> None:
        repairs.append(Repair(tool=tool, field=key, kind=kind, model=model, value=value))

    for key, value in args.items():
        if value is None or key in HIDDEN_FIELDS:
            continue
        if key not in fields:
            note(key, "unknown", value)
            continue
        if key in _PATH_KEYS:
            paths = value if isinstance(value, list) else [value]
            kept = [p for p in paths if isinstance(p, str) and p in check.all_text]
            if len(kept) < len(paths):
                note(key, "dropped", ", ".join(str(p) for p in paths if p not in kept))
            if kept:
                out[key] = kept if isinstance(value, list) else kept[0]
            continue
        if key == "stages" and isinstance(value, list):
            out[key], sub = _repair_stages(tool, value, theirs.get(key) or [], frame, check)
            repairs.extend(sub)
            continue
        if key in _model_choice():
            out[key] = value  # the search wording, how many sections: the model's to choose
            continue
        if key == "text" and isinstance(value, str):
            if _norm(value) and _norm(value) in _norm(frame.question):
                out[key] = value
            elif "text" in theirs:
                out[key] = theirs["text"]
                note(key, "replaced", value[:40], str(theirs["text"])[:40])
            else:
                note(key, "dropped", value[:40])
            continue
        mine = theirs.get(key)
        own_default = any(_same(value, d, key) for d in _own_defaults(fields[key], key, frame.language))
        if mine is not None:
            if _same(value, mine, key) or check.traces(value) or (key in frame.defaulted and own_default):
                out[key] = value
            else:
                out[key] = mine
                note(key, "replaced", value, mine)
            continue
        if check.traces(value) or own_default:
            out[key] = value
        else:
            note(key, "dropped", value)
    for key, mine in theirs.items():
        if key not in out and mine is not None and not (key in args and args[key] is not None and key in _PATH_KEYS):
            out[key] = mine
            note(key, "filled", value=mine)
    return out, repairs


def _repair_stages(tool: str, stages: list[Any], theirs: list[Any], frame: Frame,
                   check: _Checker) -> tuple[list[dict[str, Any]], list[Repair]]:
    """Each stage's values traced like a call's; stages the frame read but the model left
    out are added."""
    by_name = {s.get("stage"): s for s in theirs if isinstance(s, dict)}
    out: list[dict[str, Any]] = []
    repairs: list[Repair] = []
    for i, stage in enumerate(s for s in stages if isinstance(s, dict)):
        mine = by_name.get(stage.get("stage"), {})
        item: dict[str, Any] = {}
        for key, value in stage.items():
            if value is None:
                continue
            if key == "stage":
                item[key] = value
            elif key in mine:
                item[key] = value if (_same(value, mine[key], key) or check.traces(value)) else mine[key]
                if item[key] is not value:
                    repairs.append(Repair(tool=tool, field=f"stages[{i}].{key}", kind="replaced", model=value,
                                          value=mine[key]))
            elif check.traces(value):
                item[key] = value
            else:
                repairs.append(Repair(tool=tool, field=f"stages[{i}].{key}", kind="dropped", model=value))
        for key, value in mine.items():
            item.setdefault(key, value)
        out.append(item)
    named = {s.get("stage") for s in out}
    for name, mine in by_name.items():
        if name not in named:
            out.append(dict(mine))
            repairs.append(Repair(tool=tool, field="stages", kind="filled", value=name))
    return out, repairs


def seen_values(result: dict[str, Any]) -> list[Any]:
    """Values a tool result offers later calls of the same turn: its numbers and short texts."""
    values: list[Any] = list(numbers_in(result))

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str) and len(node) <= 40:
            values.append(node)

    walk({k: v for k, v in result.items() if k in ("options", "pareto", "cheapest", "fastest", "gpu", "inputs", "best")})
    return values


def is_pricing(tool: str) -> bool:
    """A tool whose answer must quote its figures: every tool but those the LLM settings list
    as ``reply.figures_optional`` (guide search, contract review)."""
    # lazy: loads openai only when this runs (cold start)
    from advisor.tools.langchain import llm_settings

    return tool in TOOL_NAMES and tool not in llm_settings().get("reply", {}).get("figures_optional", [])
