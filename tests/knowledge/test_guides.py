"""The guides: front matter, pairing of languages, the requirement coverage map, structure,
and worked-example blocks that name real tools, valid arguments and report fields."""

from __future__ import annotations

import re
import sys
import typing

import pytest

import advisor.tools as tools
from advisor.errors import DataError
from advisor.knowledge.examples import find_blocks, parse_block
from advisor.knowledge.guides import load_guides, read_guide
from advisor.rules.schema import REQUIREMENT_IDS

GUIDES = load_guides()
BY_LANG = {lang: {g.slug: g for g in GUIDES if g.lang == lang} for lang in ("en", "zh")}
CHECKLIST = {"en": "Checklist", "zh": "检查清单"}
SOURCES = {"en": "Sources", "zh": "来源"}


def test_both_languages_have_the_same_slugs() -> None:
    assert len(BY_LANG["en"]) >= 13
    assert set(BY_LANG["en"]) == set(BY_LANG["zh"])


@pytest.mark.parametrize("slug", sorted(BY_LANG["en"]))
def test_front_matter_matches_across_languages(slug: str) -> None:
    en, zh = BY_LANG["en"][slug], BY_LANG["zh"][slug]
    assert en.meta.requirements == zh.meta.requirements
    assert en.meta.order == zh.meta.order
    assert re.search(r"[\u4e00-\u9fff]", zh.meta.title) and re.search(r"[\u4e00-\u9fff]", zh.meta.summary)
    assert not re.search(r"[\u4e00-\u9fff]", en.meta.title)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_requirement_is_covered_in_each_language(lang: str) -> None:
    coverage: dict[str, list[str]] = {rid: [] for rid in REQUIREMENT_IDS}
    for guide in BY_LANG[lang].values():
        for rid in guide.meta.requirements:
            coverage[rid].append(guide.slug)
    missing = [rid for rid, slugs in coverage.items() if not slugs]
    assert not missing, f"{lang}: no guide covers {missing}"


def test_orders_are_unique() -> None:
    for lang in ("en", "zh"):
        orders = [g.meta.order for g in BY_LANG[lang].values()]
        assert len(orders) == len(set(orders))


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: f"{g.lang}/{g.slug}")
def test_guide_structure(guide) -> None:
    headings = [s.heading for s in guide.sections if s.heading]
    assert len(headings) >= 4, headings
    assert guide.sections[0].heading == "", "a guide opens with an introduction before its first ##"
    checklist = guide.section(CHECKLIST[guide.lang])
    assert checklist is not None and checklist.text.count("- [ ]") >= 3
    assert guide.section(SOURCES[guide.lang]) is not None
    assert len(set(s.anchor for s in guide.sections)) == len(guide.sections)


def test_zh_and_en_guides_have_the_same_examples() -> None:
    for slug, en in BY_LANG["en"].items():
        zh = BY_LANG["zh"][slug]
        strip = ("currency", "lang", "budget", "approval_threshold", "price_per_gpu_hour")  # money differs by currency
        ex_en = [parse_block(m.group(1)) for m in find_blocks(en.body)]
        ex_zh = [parse_block(m.group(1)) for m in find_blocks(zh.body)]
        assert [(e.tool, {k: v for k, v in e.args.items() if k not in strip}, e.show) for e in ex_en] == \
               [(e.tool, {k: v for k, v in e.args.items() if k not in strip}, e.show) for e in ex_zh], slug
        assert all(e.args.get("currency") == "USD" for e in ex_en if "currency" in e.args)
        assert all(e.args.get("currency") == "CNY" for e in ex_zh if "currency" in e.args)


def _models(tool_name: str):
    fn = getattr(tools, tool_name)
    hints = typing.get_type_hints(fn, vars(sys.modules[fn.__module__]))
    request = next(a for a in typing.get_args(hints["request"]) if a is not type(None))
    return request, hints["return"]


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: f"{g.lang}/{g.slug}")
def test_examples_name_real_tools_valid_args_and_report_fields(guide) -> None:
    for match in find_blocks(guide.body):
        example = parse_block(match.group(1))
        assert example.tool in tools.TOOL_NAMES
        request, report = _models(example.tool)
        request.model_validate(example.args)
        for path in example.show:
            root = path.split(".")[0].split("[")[0]
            assert root in report.model_fields, f"{guide.path}: {path} is not a field of {report.__name__}"


def test_most_guides_carry_a_worked_example() -> None:
    with_examples = [g for g in BY_LANG["en"].values() if find_blocks(g.body)]
    assert len(with_examples) >= len(BY_LANG["en"]) - 3


_MONEY = re.compile(r"[$¥￥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:美元|元)(?![\u4e00-\u9fff])")
# The only amounts typed in prose are published prices quoted with their source (RunPod docs).
_QUOTED_AMOUNTS = {"$0.10", "$0.20", "$80", "0.20 美元", "80 美元"}


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: f"{g.lang}/{g.slug}")
def test_no_hand_typed_amounts(guide) -> None:
    prose = re.sub(r"```.*?```", "", guide.body, flags=re.S)
    found = {m.group(0).strip() for m in _MONEY.finditer(prose)}
    assert found <= _QUOTED_AMOUNTS, f"{guide.path}: amounts must come from the engine: {found - _QUOTED_AMOUNTS}"


def test_broken_front_matter_is_reported_with_file_and_field(tmp_path) -> None:
    bad = tmp_path / "99-bad.md"
    bad.write_text("---\ntitle: x\nrequirements: [Z9]\nsummary: y\norder: 1\n---\nbody\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"99-bad.md.*requirements.*Z9"):
        read_guide(bad, "en")
    bad.write_text("no front matter\n", encoding="utf-8")
    with pytest.raises(DataError, match="front matter"):
        read_guide(bad, "en")
