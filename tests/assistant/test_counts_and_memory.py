"""Card counts however they are written, memory-only questions answered with a fit verdict (no data
amount needed, no invented time or cost), and the hours a usage question says the cards ran."""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline import parse_question
from advisor.assistant.offline.verdict import mark

pytestmark = pytest.mark.usefixtures("clean_llm_env")


@pytest.mark.parametrize(("form", "n"), [
    ("单张{g}", 1), ("单卡 {g}", 1), ("一张{g}", 1), ("a single {g}", 1), ("on an {g}", 1), ("on one {g}", 1),
    ("{g} x8", 8), ("{g} 80GB x8", 8), ("{g} ×4.", 4), ("8x {g}", 8), ("16×{g}", 16), ("{g}（8卡）", 8),
    ("一台8卡{g}", 8), ("两台{g}", 16), ("2 nodes of 8 {g}", 16), ("4张{g}", 4),
])  # fmt: skip
@pytest.mark.parametrize("gpu", ["A100", "H100"])
def test_card_counts_in_every_form(form: str, n: int, gpu: str) -> None:
    text = f"LoRA fine-tune qwen2.5-7b on 100M tokens, {form.format(g=gpu)}, what does it cost?"
    args = parse_question(text).args
    assert args.get("gpu", "").startswith(gpu) and args.get("gpu_count") == n, args


def test_an_article_alone_names_the_card_without_counting_it() -> None:
    assert "gpu_count" not in parse_question("what does an A100 cost per hour for a 7B LoRA on 100M tokens?").args


@pytest.mark.parametrize(("text", "lang", "gpu"), [
    ("技术说要全参微调一个13B的模型，单张A100 80G显存放得下么？", "zh", "A100-80GB"),
    ("will a 48GB card fit qlora of a 70B?", "en", None),
    ("qlora 70B，24G够吗？", "zh", None),
    ("Can a single H100 fit a full fine-tune of llama-3-8b?", "en", "H100-SXM"),
    ("LoRA微调qwen2.5-7b，一张4090跑得动吗", "zh", "RTX-4090"),
])  # fmt: skip
def test_memory_only_questions_get_a_fit_verdict_and_no_invented_cost(text: str, lang: str, gpu: str | None) -> None:
    r = ask(text, offline=True)
    assert r.intent == "estimate_training_cost"
    call = r.tool_calls[0]
    if gpu:
        assert call.args["gpu"] == gpu
    head = r.answer.split("\n\n")
    verdict = next(p for p in head if p.startswith(mark(lang).strip()))
    assert "GB" in verdict
    cur = "$" if lang == "en" else "¥"
    assert cur not in r.answer  # the nominal data amount's cost is never shown
    assert ("tokens or samples" if lang == "en" else "数据量") in r.answer


def test_a_memory_size_names_a_card_of_that_memory_and_says_so() -> None:
    from advisor.catalog import get_catalog

    for gb in (24, 48, 80):
        parsed = parse_question(f"qlora 70B, will a {gb}GB card fit?")
        assert get_catalog().gpu(parsed.args["gpu"]).memory_gb == gb
        assert any(n["name"] == "gpu.by_memory" for n in parsed.assumptions)


def test_a_memory_check_becomes_a_priced_job_once_the_data_is_given() -> None:
    r1 = ask("qlora 70B，24G够吗？", offline=True)
    r2 = ask("数据1亿token，用8张呢", history=r1.history, offline=True)
    assert r2.tool_calls and r2.tool_calls[0].args.get("tokens_b") == pytest.approx(0.1)
    assert "¥" in r2.answer


@pytest.mark.parametrize(("text", "hours"), [
    ("we rent 4x 4090 at ¥2/hr each, ran 300 hours last month, util around 65%. wasted how much?", 300),
    ("上个月16张A100只跑了200小时，利用率50%，浪费多少", 200),
    ("8张H100，利用率40%，上个月浪费了多少", 730),
])  # fmt: skip
def test_usage_counts_the_hours_the_cards_ran(text: str, hours: float) -> None:
    parsed = parse_question(text)
    assert parsed.intent == "analyze_usage" and parsed.args["period_hours"] == pytest.approx(hours)
