"""Render guides for reading: every ``advisor-example`` block is replaced by a small table of
the named report fields, computed by the tool at render time, with a line naming the tool and
its inputs. A failure never leaves a silent blank: it becomes a visible warning line.

``call_tool(name, args) -> dict`` computes the reports: the faces pass ``advisor.tools.report_json``
(the tools sit above this layer, so this module never imports them); tests pass their own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from advisor.errors import AdvisorError
from advisor.glossary import has, term
from advisor.knowledge.examples import Example, ExampleError, Row, find_blocks, parse_block, resolve
from advisor.knowledge.guides import Lang, check_lang, get_guide
from advisor.money import format_money

CallTool = Callable[[str, dict[str, Any]], dict[str, Any]]

_MONEY_LEAVES = frozenset({"total", "low", "high", "amount", "unit_price", "budget", "savings", "saving",
                           "cost", "price_per_hour", "mixed_total", "all_high_end_total"})
_NOT_MONEY_ROOTS = frozenset({"gpu_hours", "wall_hours", "compute_gpu_hours", "mfu", "memory"})


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, AdvisorError):
        return exc.one_line()
    text = " ".join(str(exc).split()) or exc.__class__.__name__
    return text if isinstance(exc, ExampleError) else f"{exc.__class__.__name__}: {text}"


def _label_key(path: str) -> tuple[str, str | None]:
    """``billing[mode=spot].total`` -> (``billing[].total``, ``spot``)."""
    item = None
    m = re.search(r"\[[^\]=]+=([^\]]*)\]", path)
    if m:
        item = m.group(1).strip()
    return re.sub(r"\[[^\]]*\]", "[]", path), item


def _item_text(item: str | None, lang: Lang) -> str:
    """A list item's key (billing mode, cost component) in words, from the glossary."""
    if item is None:
        return ""
    for group in ("mode", "component_short"):
        if has(f"{group}.{item}"):
            return term(f"{group}.{item}", lang)
    return item


def label_for(row: Row, lang: Lang) -> str:
    """A readable label for a table row, in ``lang``; the raw path when none is known."""
    key, selected = _label_key(row.path)
    item = _item_text(row.item or selected, lang)
    suffix = "" if row.offered else term("example.not_offered", lang)
    if not has(f"example.label.{key}"):
        return f"`{row.path}`" + (f" ({item})" if item else "") + suffix
    text = term(f"example.label.{key}", lang, item=item)
    return text.replace(" ()", "").replace("（）", "").rstrip(":： ") + suffix


def _number(value: float) -> str:
    """Three significant figures or so: 1,234 · 69.6 · 2.54 · 3.2e-03."""
    if value != 0 and abs(value) < 0.01:
        return f"{value:.1e}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    text = f"{value:,.1f}" if abs(value) >= 10 else f"{value:,.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_value(row: Row, lang: Lang, currency: str | None) -> str:
    """The cell text of a row: money with its currency, hours, GB, yes/no."""
    value = row.value
    if row.missing:
        return term("example.missing_cell", lang)
    if value is None or value == []:
        return term("example.none", lang) if value == [] else "—"
    if isinstance(value, bool):
        return term("value.yes" if value else "value.no", lang)
    if isinstance(value, int | float):
        key, _ = _label_key(row.path)
        parts = key.split(".")
        root, leaf = parts[0].replace("[]", ""), parts[-1].replace("[]", "")
        v = float(value)
        if leaf in _MONEY_LEAVES and root not in _NOT_MONEY_ROOTS:
            return format_money(v, currency) if currency else _number(v)
        if root in ("gpu_hours", "compute_gpu_hours"):
            return term("example.gpu_hours", lang, v=_number(v))
        if root == "wall_hours" or leaf.endswith("_hours"):
            return term("example.hours", lang, v=_number(v))
        if leaf.endswith("_gb"):
            return f"{_number(v)} GB"
        if root == "mfu" or leaf == "mfu" or leaf.endswith("_share"):
            return f"{v * 100:.0f} %"
        if leaf == "slice":
            return term("example.slice", lang, v=f"{v * 100:.0f} %")
        if leaf == "flops":
            return f"{v:.3g}"
        return _number(v)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _args_text(args: dict[str, Any]) -> str:
    shown = (f"{k}={v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
    return ", ".join(shown) or "defaults"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_example(example: Example, lang: Lang, call_tool: CallTool) -> str:
    """The Markdown that replaces one block: the tool line, a table, and warning lines for any
    failure (failed call, missing field)."""
    call = call_tool
    head = term("example.head", lang, tool=example.tool, args=_args_text(example.args))
    try:
        report = call(example.tool, dict(example.args))
        if not isinstance(report, dict):
            raise ExampleError(f"tool returned {type(report).__name__}, expected a report mapping")
    except Exception as exc:  # any failure must show in the page, never vanish
        return f"{head}\n\n{term('example.failed', lang, tool=example.tool, error=_one_line(exc))}"
    cost = report.get("cost")
    currency = (cost.get("currency") if isinstance(cost, dict) else None) or report.get("currency")
    currency = currency or example.args.get("currency")
    lines = [head, "", term("example.cols", lang), "|---|---|"]
    problems = []
    for path in example.show:
        for row in resolve(report, path):
            lines.append(f"| {_cell(label_for(row, lang))} | {_cell(format_value(row, lang, currency))} |")
            if row.missing:
                problems.append(term("example.missing", lang, tool=example.tool, path=path))
    if problems:
        lines.append("")
        lines.extend(dict.fromkeys(problems))
    return "\n".join(lines)


def render_markdown(markdown: str, lang: Lang, call_tool: CallTool) -> str:
    """Replace every ``advisor-example`` block of a Markdown text by its rendered table."""
    check_lang(lang)
    cache: dict[str, str] = {}
    out, pos = [], 0
    for match in find_blocks(markdown):
        out.append(markdown[pos : match.start()])
        body = match.group(1)
        if body not in cache:
            try:
                cache[body] = render_example(parse_block(body), lang, call_tool)
            except ExampleError as exc:
                cache[body] = term("example.failed", lang, tool="advisor-example", error=_one_line(exc))
        out.append(cache[body])
        pos = match.end()
    out.append(markdown[pos:])
    return "".join(out)


def render_guide(slug: str, lang: Lang, call_tool: CallTool) -> str:
    """A whole guide as Markdown for reading: title, summary, body with examples computed."""
    guide = get_guide(slug, lang)
    body = render_markdown(guide.body, lang, call_tool)
    return f"# {guide.title}\n\n*{guide.meta.summary}*\n\n{body.rstrip()}\n"
