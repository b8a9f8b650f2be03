"""One report, every face: the CLI command, the UI card, the chat answer, the session export and
the MCP result show the same figures under the same words, for every tool with a presenter.

Each case runs the tool once (the same arguments the CLI command is given), then collects the
figures each face shows — ``label: value`` pairs, in order — and the one-sentence summary, and
asserts they are equal. A face that formats a figure its own way, renames it or drops it fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from ui_helpers import FIXTURES, ROOT

from advisor import tools
from advisor.assistant.offline.compose import explain
from advisor.assistant.result import ToolCall
from advisor.cli import main
from advisor.present import PRESENTERS, present
from advisor.present.view import View
from ui import report as export
from ui.services import plain

CONTRACT = FIXTURES / "contract_en.txt"
FOCUS = ROOT / "tests" / "fixtures" / "usage" / "focus_1.0_sample.csv"

# (tool, arguments, the CLI command that asks for the same report)
CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("estimate_training_cost",
     {"model": "llama-3.1-8b", "method": "lora", "samples": 50000, "tokens_per_sample": 800, "gpu": "a100",
      "gpu_count": 8, "currency": "CNY", "lang": "zh"},
     ["estimate", "--model", "llama-3.1-8b", "--method", "lora", "--samples", "50k", "--tokens-per-sample", "800",
      "--gpu", "a100", "--gpus", "8", "--currency", "CNY", "--lang", "zh"]),
    ("recommend_hardware", {"model": "llama-3.1-8b", "method": "lora", "tokens_b": 0.1, "lang": "en"},
     ["recommend", "--model", "llama-3.1-8b", "--method", "lora", "--tokens", "100M", "--lang", "en"]),
    ("compare_billing", {"gpu": "h100", "gpu_count": 8, "wall_hours": 720, "lang": "zh"},
     ["billing", "--gpu", "h100", "--gpus", "8", "--hours", "720", "--lang", "zh"]),
    ("compare_billing", {"gpu": "a100", "gpu_count": 8, "jobs": 500, "job_hours": 0.25, "increment": "hour", "lang": "en"},
     ["billing", "--gpu", "a100", "--gpus", "8", "--jobs", "500", "--job-minutes", "15", "--increment", "hour"]),
    ("plan_project", {"model": "llama-2-7b", "pretrain_tokens_b": 1000, "finetune_tokens_b": 0.5,
                      "serving_tokens_per_day": 5e7, "gpu": "h100", "lang": "en"},
     ["plan", "--model", "llama-2-7b", "--pretrain-tokens", "1T", "--finetune-tokens", "0.5B",
      "--serve-tokens-per-day", "50M", "--gpu", "h100"]),
    ("estimate_serving_cost", {"model": "llama-3.1-70b", "tokens_per_day": 1e8, "gpu": "h100", "lang": "zh"},
     ["serve", "--model", "llama-3.1-70b", "--tokens-per-day", "100M", "--gpu", "h100", "--lang", "zh"]),
    ("check_quote", {"gpu": "h800", "price": 90000, "unit": "node_month", "currency": "CNY", "lang": "zh"},
     ["quote", "--gpu", "h800", "--price", "90000", "--unit", "node_month", "--currency", "CNY", "--lang", "zh"]),
    ("check_quote", {"gpu": "h100", "price": 2.1, "term_months": 12, "lang": "en"},
     ["quote", "--gpu", "h100", "--price", "2.10", "--term-months", "12"]),
    ("compare_own_vs_rent", {"gpu": "h100", "gpu_count": 64, "utilization": 0.7, "years": 4, "base_gpus": 64,
                             "peak_gpus": 256, "lang": "en"},
     ["own", "--gpu", "h100", "--gpus", "64", "--utilization", "0.7", "--years", "4", "--base", "64", "--peak", "256"]),
    ("review_contract", {"path": str(CONTRACT), "lang": "en"}, ["review", str(CONTRACT), "--lang", "en"]),
    ("analyze_usage", {"gpu_count": 16, "avg_utilization": 0.45, "gpu": "h100", "lang": "zh"},
     ["usage", "--gpus", "16", "--avg-util", "45%", "--gpu", "h100", "--lang", "zh"]),
    ("price_history", {"gpu": "h100", "currency": "CNY", "lang": "zh"},
     ["prices", "--history", "h100", "--currency", "CNY", "--lang", "zh"]),
    ("budget_status", {"as_of": "2024-10-01", "lang": "zh"}, ["budget", "status", "--as-of", "2024-10-01", "--lang", "zh"]),
]
FIGURE_MD = re.compile(r"^- (?P<label>[^*\n][^\n]*?)(?:: |：)\*\*(?P<value>[^*\n]+)\*\*", re.M)


def figures_of(v: View) -> list[tuple[str, str]]:
    return [(f.label, f.value) for f in (v.headline, *v.figures)]


def markdown_figures(text: str) -> list[tuple[str, str]]:
    return [(m["label"], m["value"]) for m in FIGURE_MD.finditer(text)]


def cli_figures(out: str, v: View) -> list[tuple[str, str]]:
    """The figure lines the CLI printed (after the summary line), as ``(label, value)``: the
    value is what follows the label and its colon, up to the range or note."""
    lines = [line.strip() for line in out.splitlines()]
    start = lines.index(v.summary) + 1
    found = []
    for line in lines[start:start + 1 + len(v.figures)]:
        label, _, rest = re.split(r"(: |：)", line, maxsplit=1)
        value = re.split(r"  | \(|（", rest, maxsplit=1)[0]
        found.append((label, value))
    return found


def _report(tool: str, args: dict[str, Any]) -> Any:
    if tool == "price_history":
        from advisor.tools.price_history import price_history

        return price_history(args["gpu"], args["currency"], lang=args["lang"])
    return getattr(tools, tool)(**args)


def test_every_presented_tool_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(PRESENTERS)


@pytest.mark.parametrize(("tool", "args", "argv"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_every_face_shows_the_same_figures(tool: str, args: dict[str, Any], argv: list[str], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lang = args["lang"]
    if tool == "budget_status":  # a ledger with a budget and a month of imported billing
        monkeypatch.setenv("ADVISOR_DATABASE_URL", f"sqlite:///{tmp_path / 'ledger.db'}")
        assert main(["budget", "set", "ml/llm", "50000", "--period", "2024-09", "--currency", "CNY"]) == 0
        assert main(["budget", "import", str(FOCUS), "--json"]) == 0
        capsys.readouterr()
    result = plain(_report(tool, args))
    view = present(tool, result, lang)
    expected = figures_of(view)
    assert len(expected) >= 2 and all(value and value != "—" for _, value in expected[:2]), expected

    # CLI: the command itself, on a wide terminal so no line wraps
    monkeypatch.setenv("COLUMNS", "400")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert view.summary in [line.strip() for line in out.splitlines()]
    assert cli_figures(out, view) == expected

    # chat: the answer the offline assistant (and the LLM fallback) writes for this result
    answer = explain([ToolCall(name=tool, args=args, result=result)], lang)
    assert f"**{view.summary}**" in answer and markdown_figures(answer) == expected

    # export: the session report's Markdown
    record = {"kind": tool, "title": "t", "lang": lang, "when": "2026-01-01 10:00", "question": None, "result": result}
    md = export.to_markdown([record], lang, when="2026-01-01 10:00")
    assert f"**{view.summary}**" in md and markdown_figures(md) == expected

    # MCP: the text an MCP client (an LLM) reads first. MCP requests carry no language: the
    # report is the English one of the same request.
    if tool in tools.TOOL_NAMES:
        from advisor.mcp.server import call_tool

        request = {k: v for k, v in args.items() if k != "lang"}
        en = view if lang == "en" else present(tool, plain(_report(tool, {**request, "lang": "en"})), "en")
        text = call_tool(tool, request).content[0].text  # type: ignore[union-attr]
        assert f"**{en.summary}**" in text and markdown_figures(text) == figures_of(en)

    # UI: the card every page draws, its metrics in order
    data = tmp_path / "card.json"
    data.write_text(json.dumps({"tool": tool, "result": result, "lang": lang}, ensure_ascii=False), encoding="utf-8")
    at = AppTest.from_string(_card_script(data), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    assert [(m.label, m.value) for m in at.metric] == expected
    assert f"**{view.summary}**" in [m.value for m in at.markdown]


def _card_script(path: Path) -> str:
    return (
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from ui.components.view import tool_card\n"
        f"with open({str(path)!r}, encoding='utf-8') as f:\n"
        "    data = json.load(f)\n"
        "tool_card(data['tool'], data['result'], data['lang'], 'same')\n"
    )
