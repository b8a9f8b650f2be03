"""Complete Chinese: every page, in Chinese mode, is scanned for Latin-script words outside
the allowlist. Each page is walked with a result on it (a question asked, a sample loaded, a
tool run).

Allowed: product, framework and organisation names and units with no Chinese usage
(tests/ui/zh_allowlist.yaml), every GPU, model and provider name of the catalog, identifiers
(a word joined to others by ``.`` or ``_``, or carrying digits: ``utilization.gpu``,
``node-002``), CamelCase names (a team's or a product's), code in backticks, links and file names, a cited author ("Kaplan 等"), the title of a
published work in 《》 and text quoted verbatim from a source in 「」 (a price sheet's SKU),
kept in their own language as Chinese writing does.

Both the page's own words (titles, labels, buttons, options, headers) and the words that
come from data (assumption names, units and sources, rule sources, answers, table cells) must
be Chinese; the count per page is written to tests/artifacts/zh_scan.json. The word checker is
tests/ui/zh_words.py."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import ask, open_page
from zh_words import leaks


def chrome(at: Any) -> list[str]:
    """The page's own words."""
    out: list[str] = [str(e.value) for kind in ("title", "subheader", "header") for e in getattr(at, kind)]
    out += [f"{m.label} {m.value}" for m in at.metric]
    for kind in ("button", "text_input", "number_input", "selectbox", "radio", "toggle", "checkbox", "slider",
                 "text_area", "expander", "tabs"):
        for e in getattr(at, kind, []):
            out.append(str(getattr(e, "label", "") or ""))
            out += [str(o) for o in (getattr(e, "options", None) or [])]
    out += [str(c) for df in at.dataframe for c in df.value.columns]
    return out


def content(at: Any) -> list[str]:
    """Words that come from data: texts, captions, alerts, table cells."""
    out = [str(e.value) for kind in ("markdown", "caption", "error", "warning", "info", "success") for e in getattr(at, kind)]
    out += [str(v) for df in at.dataframe for row in df.value.astype(str).values.tolist() for v in row]
    return out


def _zh(app: Any) -> Any:
    app.radio(key="set_lang__en").set_value("zh").run()
    return app


def budgets_with_spend(at: Any) -> Any:
    """A budget with imported spend (the FOCUS sample) on the test's own ledger, shown as of a day in its month."""
    from advisor.ledger import import_focus, open_ledger, set_budget

    with open_ledger() as led:
        import_focus(led, Path(__file__).resolve().parents[1] / "fixtures" / "usage" / "focus_1.0_sample.csv")
        set_budget(led, "PeoriaData/BrightPathMatrix", "100", "2024-09", "CNY")
    return at.date_input(key="bud_as_of").set_value("2024-09-10").run()


PAGES = {
    "chat": lambda at: ask(at, "微调一个 Llama-3-8B，LoRA，5 万条样本，要花多少钱？"),
    # error states: a tool's refusal, a contract question without a contract, a card no catalog lists
    "chat:refusal": lambda at: ask(at, "分析一下我们的 GPU 利用率"),
    "chat:contract_without_file": lambda at: ask(at, "帮我看看这份合同有没有坑"),
    "plan:unknown_gpu": lambda at: at.text_input(key="plan_gpu").set_value("Z9000").run(),
    "estimate": lambda at: at,
    "recommend": lambda at: at,
    "billing": lambda at: at,
    "plan": lambda at: at,
    "decide": lambda at: at,
    "contract": lambda at: at.button(key="con_sample").click().run().button(key="con_go").click().run(),
    "usage": lambda at: at.button(key="use_sample_btn").click().run(),
    "budgets": lambda at: budgets_with_spend(at),
    "learn": lambda at: at,
    "report": lambda at: at,
}


SCAN = Path(__file__).resolve().parents[1] / "artifacts" / "zh_scan.json"


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_page_is_chinese_in_chinese_mode(app, page: str) -> None:
    at = open_page(_zh(app), page.split(":")[0])
    at = PAGES[page](at)
    assert not at.exception, at.exception
    assert ":" not in page or at.error or "无法" in str([m.value for m in at.markdown]), f"{page}: no error shown"
    from_data = leaks(content(at))
    SCAN.parent.mkdir(parents=True, exist_ok=True)
    counts = json.loads(SCAN.read_text("utf-8")) if SCAN.exists() else {}
    counts[page] = {"from_data": len(from_data), "examples": sorted(set(w.split(" in ")[0] for w in from_data))[:40]}
    SCAN.write_text(json.dumps(counts, ensure_ascii=False, indent=1), "utf-8")
    found = leaks(chrome(at))
    assert not found, f"{len(found)} untranslated on {page}: " + "; ".join(found[:25])
    assert not from_data, f"{len(from_data)} untranslated data words on {page}: " + "; ".join(from_data[:25])


CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("page", sorted({p.split(":")[0] for p in PAGES}))
def test_every_page_is_english_in_english_mode(app, page: str) -> None:
    at = open_page(app, page.split(":")[0])
    assert not at.exception, at.exception
    found = [text for text in chrome(at) if CJK.search(text) and "算力成本顾问" not in text and "中文" not in text]
    assert not found, f"{len(found)} Chinese strings on the English {page} page: {found[:10]}"
