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
from advisor.knowledge.guides import Lang, check_lang, get_guide, load_guides
from advisor.money import format_money

CallTool = Callable[[str, dict[str, Any]], dict[str, Any]]

_LABELS: dict[str, tuple[str, str]] = {
    "cost.total": ("Total cost (expected)", "总成本（预期）"),
    "cost.low": ("Total cost (low)", "总成本（低）"),
    "cost.high": ("Total cost (high)", "总成本（高）"),
    "cost.currency": ("Currency", "币种"),
    "cost.components[].amount": ("Cost item: {item}", "费用分项：{item}"),
    "billing[].total": ("Billed {item}", "计费方式：{item}"),
    "billing[].wall_hours": ("Wall-clock time, {item}", "实际耗时（{item}）"),
    "alternatives.fractional.slice": ("Smallest card slice that fits", "放得下的最小分片"),
    "alternatives.fractional.price_per_hour": ("Price of that slice per hour", "该分片每小时价格"),
    "alternatives.cheaper_gpu.gpu": ("Cheaper card for this job", "更省钱的卡型"),
    "alternatives.cheaper_gpu.cost": ("Total on that card", "换卡后的总成本"),
    "alternatives.mixed_fleet.mixed_total": ("Mixed fleet total", "混搭后的总成本"),
    "alternatives.mixed_fleet.saving": ("Mixed fleet saving", "混搭节省"),
    "gpu_hours.expected": ("GPU-hours (expected)", "卡时（预期）"),
    "gpu_hours.low": ("GPU-hours (low)", "卡时（低）"),
    "gpu_hours.high": ("GPU-hours (high)", "卡时（高）"),
    "compute_gpu_hours.expected": ("Compute GPU-hours (expected)", "纯计算卡时（预期）"),
    "wall_hours.expected": ("Wall-clock time (expected)", "实际耗时（预期）"),
    "wall_hours.low": ("Wall-clock time (low)", "实际耗时（低）"),
    "wall_hours.high": ("Wall-clock time (high)", "实际耗时（高）"),
    "memory.per_gpu_gb": ("Memory needed per GPU", "每卡显存需求"),
    "memory.gpu_memory_gb": ("Memory of the GPU", "显卡显存"),
    "memory.fits": ("Fits in GPU memory", "显存放得下"),
    "mfu.expected": ("Utilization (MFU, expected)", "算力利用率（MFU，预期）"),
    "flops": ("Training FLOPs", "训练 FLOPs"),
    "meets_deadline": ("Meets the deadline", "能赶上截止时间"),
    "findings[].title": ("Finding ({item})", "规则发现（{item}）"),
    "gpu.name": ("GPU", "显卡"),
    "gpu.count": ("GPUs", "卡数"),
}
_TEXT = {
    "en": {
        "head": "**Worked example**: `{tool}` with {args}",
        "cols": "| Field | Value |",
        "failed": "> ⚠ Example could not be computed (`{tool}`): {error}",
        "missing": "> ⚠ Field not in the `{tool}` report: `{path}`",
        "missing_cell": "⚠ not in report",
        "not_offered": " (no provider offers it yet)",
        "slice": "{v} of a card",
        "yes": "yes",
        "no": "no",
        "none": "none",
        "hours": "{v} h",
        "gpu_hours": "{v} GPU-h",
    },
    "zh": {
        "head": "**算例**：`{tool}`，输入 {args}",
        "cols": "| 项目 | 数值 |",
        "failed": "> ⚠ 算例无法生成（`{tool}`）：{error}",
        "missing": "> ⚠ `{tool}` 的报告中没有这个字段：`{path}`",
        "missing_cell": "⚠ 报告中没有",
        "not_offered": "（暂无服务商报价）",
        "slice": "整卡的 {v}",
        "yes": "是",
        "no": "否",
        "none": "无",
        "hours": "{v} 小时",
        "gpu_hours": "{v} 卡时",
    },
}
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
    pair = _LABELS.get(key)
    suffix = "" if row.offered else _TEXT[lang]["not_offered"]
    if pair is None:
        return f"`{row.path}`" + (f" ({item})" if item else "") + suffix
    text = pair[0 if lang == "en" else 1].format(item=item)
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
    t = _TEXT[lang]
    value = row.value
    if row.missing:
        return t["missing_cell"]
    if value is None or value == []:
        return t["none"] if value == [] else "—"
    if isinstance(value, bool):
        return t["yes"] if value else t["no"]
    if isinstance(value, int | float):
        key, _ = _label_key(row.path)
        parts = key.split(".")
        root, leaf = parts[0].replace("[]", ""), parts[-1].replace("[]", "")
        v = float(value)
        if leaf in _MONEY_LEAVES and root not in _NOT_MONEY_ROOTS:
            return format_money(v, currency) if currency else _number(v)
        if root in ("gpu_hours", "compute_gpu_hours"):
            return t["gpu_hours"].format(v=_number(v))
        if root == "wall_hours" or leaf.endswith("_hours"):
            return t["hours"].format(v=_number(v))
        if leaf.endswith("_gb"):
            return f"{_number(v)} GB"
        if root == "mfu" or leaf == "mfu" or leaf.endswith("_share"):
            return f"{v * 100:.0f} %"
        if leaf == "slice":
            return t["slice"].format(v=f"{v * 100:.0f} %")
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
    t = _TEXT[lang]
    call = call_tool
    head = t["head"].format(tool=example.tool, args=_args_text(example.args))
    try:
        report = call(example.tool, dict(example.args))
        if not isinstance(report, dict):
            raise ExampleError(f"tool returned {type(report).__name__}, expected a report mapping")
    except Exception as exc:  # any failure must show in the page, never vanish
        return f"{head}\n\n{t['failed'].format(tool=example.tool, error=_one_line(exc))}"
    cost = report.get("cost")
    currency = (cost.get("currency") if isinstance(cost, dict) else None) or report.get("currency")
    currency = currency or example.args.get("currency")
    lines = [head, "", t["cols"], "|---|---|"]
    problems = []
    for path in example.show:
        for row in resolve(report, path):
            lines.append(f"| {_cell(label_for(row, lang))} | {_cell(format_value(row, lang, currency))} |")
            if row.missing:
                problems.append(t["missing"].format(tool=example.tool, path=path))
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
                cache[body] = _TEXT[lang]["failed"].format(tool="advisor-example", error=_one_line(exc))
        out.append(cache[body])
        pos = match.end()
    out.append(markdown[pos:])
    return "".join(out)


def render_guide(slug: str, lang: Lang, call_tool: CallTool) -> str:
    """A whole guide as Markdown for reading: title, summary, body with examples computed."""
    guide = get_guide(slug, lang)
    body = render_markdown(guide.body, lang, call_tool)
    return f"# {guide.title}\n\n*{guide.meta.summary}*\n\n{body.rstrip()}\n"


def example_problems(call_tool: CallTool, lang: Lang | None = None) -> list[str]:
    """One line per worked example that fails to render (for checks and CI)."""
    problems = []
    for guide in load_guides(lang):
        for match in find_blocks(guide.body):
            try:
                example = parse_block(match.group(1))
            except ExampleError as exc:
                problems.append(f"{guide.path}: {exc}")
                continue
            text = render_example(example, guide.lang, call_tool)
            problems.extend(f"{guide.path}: {line[2:]}" for line in text.splitlines() if line.startswith("> ⚠"))
    return problems
