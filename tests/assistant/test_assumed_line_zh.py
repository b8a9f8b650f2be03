"""The "假设" line of a Chinese answer is Chinese: report assumptions are worded by the presenter
(names, described values, public sources), never as raw keys, English market descriptions or
internal module paths — in every tool whose answer carries one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from advisor.assistant import ask
from advisor.catalog.catalog import find_names

pytestmark = pytest.mark.usefixtures("clean_llm_env")

_ALLOWED = re.compile(r"[\w.-]+\.csv|CNY|USD")
_WORDS = {w for group in yaml.safe_load((Path(__file__).parents[1] / "ui" / "zh_allowlist.yaml").read_text(encoding="utf-8")).values()
          for w in group}  # the zh scan's allowlist: one list of Latin words a Chinese page may show


@pytest.mark.parametrize("question", [
    "H100 单卡每小时 18 元，签一年，这个报价合理吗？",
    "A800 整机 8 卡每月 4 万，包一年，价格合适吗",
    "做 lora 微调 qwen2.5-7b，1亿token，8卡A100，多少钱",
    "部署 qwen2.5-72b 推理服务，每天 5000 万 token，用 H20，一个月多少钱",
])  # fmt: skip
def test_the_assumed_line_of_a_chinese_answer_has_no_english(question: str) -> None:
    answer = ask(question, offline=True, lang="zh").answer
    assumed = next((p for p in answer.split("\n\n") if p.startswith("**假设：**")), "")
    rest = _ALLOWED.sub(" ", assumed)
    for hit in find_names("gpu", rest.lower()) + find_names("model", rest.lower()):
        rest = rest[: hit.start] + " " * (hit.end - hit.start) + rest[hit.end :]
    words = [w for w in re.findall(r"[A-Za-z_]{3,}", rest) if w not in _WORDS and not w.isupper()]
    assert not words, (words, assumed)
