"""The "假设" line of a Chinese answer is Chinese: report assumptions are worded by the presenter
(names, described values, public sources), never as raw keys, English market descriptions or
internal module paths — in every tool whose answer carries one. Checked with the page scan's
own word checker (zh_words.leaks)."""

from __future__ import annotations

import pytest
from zh_words import leaks

from advisor.assistant import ask


@pytest.mark.parametrize("question", [
    "H100 单卡每小时 18 元，签一年，这个报价合理吗？",
    "A800 整机 8 卡每月 4 万，包一年，价格合适吗",
    "做 lora 微调 qwen2.5-7b，1亿token，8卡A100，多少钱",
    "部署 qwen2.5-72b 推理服务，每天 5000 万 token，用 H20，一个月多少钱",
])  # fmt: skip
def test_the_assumed_line_of_a_chinese_answer_has_no_english(question: str) -> None:
    answer = ask(question, offline=True, lang="zh").answer
    assumed = next((p for p in answer.split("\n\n") if p.startswith("**假设：**")), "")
    assert assumed and not leaks([assumed]), (leaks([assumed]), assumed)
