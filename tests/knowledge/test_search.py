"""Retrieval: onboarding questions find the expected guide in the top 3 (tuned and held-out
sets measured separately), language detection and fallback, hit fields, errors, and a quiet
jieba."""

from __future__ import annotations

import subprocess
import sys

import pytest

from advisor.errors import InputError
from advisor.knowledge.guides import load_guides
from advisor.knowledge.search import get_index, search
from advisor.knowledge.tokenize import detect_lang, stem, tokenize_en, tokenize_zh

TOP = 3
TARGET = 0.9


def _hit_rate(questions: list[dict]) -> tuple[float, list[str]]:
    misses = []
    for q in questions:
        slugs = [h.slug for h in search(q["q"], k=TOP)]
        if q["expect"] not in slugs[:TOP]:
            misses.append(f"{q['q']} -> expected {q['expect']}, got {slugs}")
    return 1 - len(misses) / len(questions), misses


def test_question_set_is_large_bilingual_and_valid(questions) -> None:
    slugs = {g.slug for g in load_guides("en")}
    assert len(questions) >= 40
    zh = sum(q["lang"] == "zh" for q in questions)
    assert abs(zh - (len(questions) - zh)) <= 2
    assert all(q["expect"] in slugs for q in questions)
    assert all(detect_lang(q["q"]) == q["lang"] for q in questions)
    held = [q for q in questions if q["held_out"]]
    assert len(held) >= 15 and {q["lang"] for q in held} == {"zh", "en"}
    assert {q["expect"] for q in questions} == slugs, "every guide has at least one question"


@pytest.mark.parametrize("held_out", [False, True], ids=["tuned", "held-out"])
def test_top3_hit_rate(questions, held_out: bool) -> None:
    chosen = [q for q in questions if q["held_out"] == held_out]
    rate, misses = _hit_rate(chosen)
    assert rate >= TARGET, "\n".join(misses)


def test_chinese_query_returns_chinese_sections_with_all_fields() -> None:
    hits = search("抢占式实例被回收前会提前通知吗", k=5)
    assert hits and all(h.lang == "zh" for h in hits)
    top = hits[0]
    assert top.slug == "05-off-peak-and-spot"
    assert top.path == "knowledge/guides/zh/05-off-peak-and-spot.md"
    assert top.title and top.section and top.snippet and top.score > 0
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_english_query_returns_english_sections() -> None:
    hits = search("spot instance reclaim notice", k=3)
    assert hits[0].lang == "en" and hits[0].slug == "05-off-peak-and-spot"


def test_lang_overrides_detection_and_falls_back_when_nothing_matches() -> None:
    assert all(h.lang == "zh" for h in search("LoRA QLoRA", lang="zh", k=3))
    # An English index cannot match Chinese words: the search falls back to the Chinese guides.
    assert all(h.lang == "zh" for h in search("包年包月", lang="en", k=3))


def test_sources_sections_are_not_returned() -> None:
    for q in ("51huadong cloud news source article", "来源 云资讯"):
        assert all(h.section not in ("Sources", "来源") for h in search(q, k=10))


def test_at_most_two_sections_per_guide() -> None:
    hits = search("spot preemptible reclaim checkpoint interruption notice", k=10)
    slugs = [h.slug for h in hits]
    assert all(slugs.count(s) <= 2 for s in slugs)


def test_no_match_gives_no_hits() -> None:
    assert search("xyzzy plugh", k=5) == []


@pytest.mark.parametrize(("kwargs", "field"), [({"query": "  "}, "query"), ({"query": "x", "k": 0}, "k"),
                                                ({"query": "x", "k": 51}, "k"), ({"query": "x", "lang": "fr"}, "lang")])
def test_bad_input_is_one_clear_error(kwargs, field) -> None:
    with pytest.raises(InputError) as err:
        search(**kwargs)
    assert err.value.field == field


def test_index_is_built_once_and_cached() -> None:
    assert get_index() is get_index()
    assert get_index().sections > 100


def test_domain_dictionary_and_stemming() -> None:
    assert "包年包月" in tokenize_zh("包年包月和按量付费哪个划算")
    assert "断点续训" in tokenize_zh("断点续训怎么做")
    assert "lora" in tokenize_zh("LoRA 微调")
    assert tokenize_en("Pricing of reserved GPUs") == ["pric", "reserv", "gpu"]
    assert stem("monthly") == stem("month") and stem("utilization") == stem("utilized")


def test_jieba_loads_quietly() -> None:
    code = ("import warnings; warnings.simplefilter('error');"
            "from advisor.knowledge.tokenize import tokenize_zh; print(tokenize_zh('显存不够怎么办'))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "显存" in proc.stdout
