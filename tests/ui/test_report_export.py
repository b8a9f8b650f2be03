"""The report builder on real tool results: Markdown and HTML with figures, findings,
assumptions; raw HTML in a result is escaped; nothing but the records goes in."""

from __future__ import annotations

from ui_helpers import FIXTURES

from advisor.tools import estimate_training_cost, review_contract
from ui import report
from ui.services import plain


def records():
    est = plain(estimate_training_cost(model="llama-3-8b", method="lora", samples=50_000, tokens_per_sample=800,
                                       epochs=3, gpu="a100", currency="CNY", lang="zh"))
    con = plain(review_contract(path=str(FIXTURES / "contract_zh.txt"), lang="zh"))
    return [
        {"id": "a", "kind": "estimate_training_cost", "title": "LoRA", "lang": "zh", "when": "2026-01-01 10:00",
         "question": None, "answer": None, "result": est},
        {"id": "b", "kind": "review_contract", "title": "合同", "lang": "zh", "when": "2026-01-01 10:05",
         "question": None, "answer": None, "result": con},
    ]


def test_markdown_has_figures_findings_and_assumptions():
    md = report.to_markdown(records(), "zh", when="2026-01-01 10:10")
    assert md.startswith("# 算力成本报告")
    assert "¥" in md and "费用构成" in md and "同一任务在各计费方式下的费用" in md
    assert "发现与建议" in md and "检查清单" in md
    assert "假设与来源" in md
    assert "> " in md  # quoted clauses of the contract findings
    assert not any(word in md for word in ("REQUIREMENTS", "CALIBRATION", "[S1]", "note_zh"))


def test_html_is_standalone_and_escapes_raw_html():
    recs = records()
    recs[0]["title"] = "<script>alert(1)</script>"
    md = report.to_markdown(recs, "en")
    page = report.to_html(md, "en")
    assert page.startswith("<!doctype html>") and "<table>" in page
    assert "<script>" not in page and "&lt;script&gt;" in page
