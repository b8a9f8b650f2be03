"""Every report that uses prices says which sheet, providers and dates priced it (issue #14):
the "Prices:" line of the view, in the CLI's short output and in the offline chat's answer, in
both languages, for every price-using tool. The line names the market the engine used: its
sheet, its cheapest provider and its dates, taken from ``market_for`` (not from the report)."""

from __future__ import annotations

from typing import Any

import pytest

from advisor import tools
from advisor.assistant.offline.compose import explain
from advisor.assistant.result import ToolCall
from advisor.catalog.market import market_for
from advisor.cli import main
from advisor.present import present
from advisor.present.fmt import text_of

# (tool, arguments, CLI argv, the card whose market prices the headline; None = the recommended card)
CASES: list[tuple[str, dict[str, Any], list[str], str | None]] = [
    ("estimate_training_cost", {"model": "llama-3.1-8b", "method": "lora", "tokens_b": 0.1, "gpu": "a100", "gpu_count": 8},
     ["estimate", "--model", "llama-3.1-8b", "--method", "lora", "--tokens", "100M", "--gpu", "a100", "--gpus", "8"],
     "A100-80GB"),
    ("recommend_hardware", {"model": "llama-3.1-8b", "method": "lora", "tokens_b": 0.1},
     ["recommend", "--model", "llama-3.1-8b", "--method", "lora", "--tokens", "100M"], None),
    ("compare_billing", {"gpu": "l40s", "gpu_count": 8, "wall_hours": 300},
     ["billing", "--gpu", "l40s", "--gpus", "8", "--hours", "300"], "L40S"),
    ("plan_project", {"model": "llama-2-7b", "pretrain_tokens_b": 100, "gpu": "h100"},
     ["plan", "--model", "llama-2-7b", "--pretrain-tokens", "100B", "--gpu", "h100"], "H100-SXM"),
    ("estimate_serving_cost", {"model": "llama-3.1-8b", "tokens_per_day": 1e7, "gpu": "4090"},
     ["serve", "--model", "llama-3.1-8b", "--tokens-per-day", "10M", "--gpu", "4090"], "RTX-4090"),
    ("check_quote", {"gpu": "a800", "price": 6.5, "currency": "CNY"},
     ["quote", "--gpu", "a800", "--price", "6.5", "--currency", "CNY"], "A800"),
    ("compare_own_vs_rent", {"gpu": "h100", "gpu_count": 16, "utilization": 0.6, "years": 3},
     ["own", "--gpu", "h100", "--gpus", "16", "--utilization", "0.6", "--years", "3"], "H100-SXM"),
]
DATES = {"en": "price dates", "zh": "报价日期"}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("tool", "args", "argv", "gpu"), CASES, ids=[c[0] for c in CASES])
def test_every_priced_report_names_its_sheet_providers_and_dates(
        tool: str, args: dict[str, Any], argv: list[str], gpu: str | None, lang: str,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    args = {**args, "lang": lang}
    report = getattr(tools, tool)(**args)
    card = gpu or report.cheapest.gpu
    # the quote is judged in its own currency; everything else in the market of the language
    home = args.get("currency") if tool == "check_quote" else ("CNY" if lang == "zh" else "USD")
    market = market_for(card, home)
    line = present(tool, report, lang).priced
    assert line is not None
    for expected in (market.sheets, market.cheapest.provider, text_of(market.dates(), lang), DATES[lang], card):
        assert expected in line, (expected, line)

    monkeypatch.setenv("COLUMNS", "400")
    assert main([*argv, "--lang", lang]) == 0
    assert "".join(line.split()) in "".join(capsys.readouterr().out.split())  # a long line wraps

    answer = explain([ToolCall(name=tool, args=args, result=report.model_dump(mode="json"))], lang)
    assert line in answer.splitlines()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_price_the_user_gives_is_cited_as_theirs(lang: str) -> None:
    report = tools.estimate_training_cost(model="llama-3.1-8b", method="lora", tokens_b=0.1, gpu="a100",
                                          price_per_gpu_hour=1.7, lang=lang)
    line = present("estimate_training_cost", report, lang).priced
    assert line is not None and ("your input" in line if lang == "en" else "你的输入" in line)
    assert ".csv" not in line


def test_a_provider_sheet_names_the_sheet_provider_and_dates() -> None:
    report = tools.compare_billing(gpu="a100", gpu_count=8, wall_hours=100, provider="alibaba", currency="CNY", lang="zh")
    line = present("compare_billing", report, "zh").priced
    assert line is not None and "cny_list_prices.csv" in line and "alibaba" in line and "报价日期" in line
