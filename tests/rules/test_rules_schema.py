"""A broken pack fails to load with ONE line naming the file, the rule and the field; the
checker lists every problem; a valid pack loads."""

from __future__ import annotations

import pytest
from rules_helpers import valid_rule

from advisor.errors import RuleError
from advisor.rules import check_packs, evaluate, load_packs


def _load_error(scratch_rules, rule, name="demo", **top) -> RuleError:  # type: ignore[no-untyped-def]
    path = scratch_rules([rule], name=name, **top)
    with pytest.raises(RuleError) as info:
        load_packs()
    err = info.value
    line = err.one_line()
    assert "\n" not in line
    assert str(path) in line
    return err


def test_a_valid_pack_loads_and_evaluates(scratch_rules) -> None:  # type: ignore[no-untyped-def]
    scratch_rules([valid_rule()])
    assert list(load_packs()) == ["demo"]
    facts = {"cheaper_gpu_saving": 120.0, "gpu_tier": "flagship", "cheaper_gpu": "L40S", "wall_hours": 10.0, "currency": "USD"}
    [finding] = evaluate("demo", facts)
    assert finding.savings is not None and finding.savings.amount == 120.0
    assert check_packs() == []


BROKEN = [
    # (what is broken, the rule, the field the error must name, words of the problem)
    ("bad operator", valid_rule(when={"all": [{"fact": "gpu_count", "operator": "greater", "value": 8}]}), "when.all[0].operator", "unknown operator"),
    ("missing field", {k: v for k, v in valid_rule().items() if k != "severity"}, "severity", "required"),
    ("unknown fact", valid_rule(when={"all": [{"fact": "gpu_cnt", "operator": "gt", "value": 8}]}), "when.all[0].fact", "unknown fact 'gpu_cnt'"),
    ("unknown placeholder", valid_rule(text={**valid_rule()["text"], "en": {"title": "Use {cheap_gpu}", "detail": "x", "recommendation": "y"}}), "text.en.title", "unknown placeholder"),
    ("unknown format", valid_rule(text={**valid_rule()["text"], "en": {"title": "{wall_hours:days}", "detail": "x", "recommendation": "y"}}), "text.en.title", "unknown format"),
    ("stray brace", valid_rule(text={**valid_rule()["text"], "en": {"title": "Use {cheaper_gpu", "detail": "x", "recommendation": "y"}}), "text.en.title", "brace"),
    ("savings calls a function", valid_rule(savings="__import__('os').getcwd()"), "savings", "may be called"),
    ("savings reads an attribute", valid_rule(savings="cheaper_gpu_saving.real"), "savings", "not allowed"),
    ("savings on a string fact", valid_rule(savings="gpu * 2"), "savings", "is a string"),
    ("savings syntax", valid_rule(savings="cheaper_gpu_saving *"), "savings", "not an arithmetic expression"),
    ("unknown requirement", valid_rule(requirement=["C9"]), "requirement[0]", "unknown requirement id"),
    ("missing zh text", valid_rule(text={"en": valid_rule()["text"]["en"]}), "text.zh", "required"),
    ("zh text in English", valid_rule(text={**valid_rule()["text"], "zh": {"title": "Use it", "detail": "x", "recommendation": "y"}}), "text.zh.title", "Chinese"),
    ("id outside the pack", valid_rule(id="sizing.overkill"), "id", "start with the pack name"),
    ("value of the wrong type", valid_rule(when={"all": [{"fact": "gpu_count", "operator": "gt", "value": "eight"}]}), "when.all[0].value", "not an integer"),
    ("value not among the fact's values", valid_rule(when={"all": [{"fact": "gpu_tier", "operator": "eq", "value": "flagshp"}]}), "when.all[0].value", "not a value of this fact"),
    ("in without a list", valid_rule(when={"all": [{"fact": "gpu_tier", "operator": "in", "value": "flagship"}]}), "when.all[0].value", "non-empty list"),
    ("exists with a value", valid_rule(when={"all": [{"fact": "gpu", "operator": "exists", "value": 1}]}), "when.all[0].value", "takes no value"),
    ("ordering a string", valid_rule(when={"all": [{"fact": "gpu", "operator": "gt", "value": 3}]}), "when.all[0].value", "compares numbers"),
    ("bad regex", valid_rule(when={"all": [{"fact": "gpu", "operator": "matches", "value": "h100("}]}), "when.all[0].value", "invalid regex"),
    ("empty group", valid_rule(when={"any": []}), "when.any", "non-empty list"),
    ("unknown key in a condition", valid_rule(when={"all": [{"fact": "gpu", "operator": "exists", "op": "x"}]}), "when.all[0].op", "unknown key"),
    ("unknown field in a rule", {**valid_rule(), "serverity": "info"}, "serverity", "unknown field"),
    ("bad severity", valid_rule(severity="high"), "severity", "info"),
    ("unknown evidence fact", valid_rule(evidence=["cheaper_gpus"]), "evidence[0]", "unknown fact"),
    # durable-rules never returns from a rule that can hold with only absent facts
    ("only absent facts", valid_rule(when={"any": [{"fact": "gpu", "operator": "not_exists"},
                                                   {"fact": "gpu_count", "operator": "gt", "value": 8}]}),
     "when", "present"),
]


@pytest.mark.parametrize(("rule", "field", "words"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_broken_rule_names_file_rule_and_field(scratch_rules, rule, field, words) -> None:  # type: ignore[no-untyped-def]
    err = _load_error(scratch_rules, rule)
    line = err.one_line()
    assert err.rule == rule.get("id", "#1")
    assert f"rule '{err.rule}'" in line
    assert f"field '{field}'" in line, line
    assert words in line, line


def test_duplicate_rule_id(scratch_rules) -> None:  # type: ignore[no-untyped-def]
    path = scratch_rules([valid_rule(), valid_rule()])
    with pytest.raises(RuleError, match="duplicate rule id") as info:
        load_packs()
    assert f"{path}, rule 'demo.overkill', field 'id'" in info.value.one_line()


def test_contract_categories_are_the_design_vocabulary(scratch_rules) -> None:  # type: ignore[no-untyped-def]
    rule = valid_rule(id="contract.x", category="right_sizing")
    err = _load_error(scratch_rules, rule, name="contract")
    assert "field 'category'" in err.one_line() and "auto_renewal" in err.one_line()


def test_pack_name_must_match_the_file(scratch_rules, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = scratch_rules([valid_rule()])
    path.rename(tmp_path / "other.yaml")
    with pytest.raises(RuleError, match="must match the file name") as info:
        load_packs()
    assert "field 'pack'" in info.value.one_line()


def test_unknown_domain(scratch_rules) -> None:  # type: ignore[no-untyped-def]
    err = _load_error(scratch_rules, valid_rule(), domain="telemetry")
    assert "field 'domain'" in err.one_line() and "unknown domain" in err.one_line()


def test_invalid_yaml_is_one_line(scratch_rules, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "demo.yaml").write_text("pack: demo\nrules: [\n  - {id: x\n", encoding="utf-8")
    with pytest.raises(RuleError, match="not valid YAML at line") as info:
        load_packs()
    assert "\n" not in info.value.one_line()


def test_broken_fact_registry_names_the_fact(scratch_rules, tmp_path) -> None:  # type: ignore[no-untyped-def]
    scratch_rules([valid_rule()])
    registry = tmp_path / "facts" / "estimate.yaml"
    registry.write_text(registry.read_text(encoding="utf-8") + "\nbroken_fact: {type: decimal, description: x}\n", encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_packs()
    line = info.value.one_line()
    assert str(registry) in line and "field 'broken_fact'" in line and "type" in line


def test_a_fact_entry_with_a_key_written_twice_names_the_line(scratch_rules, tmp_path) -> None:  # type: ignore[no-untyped-def]
    scratch_rules([valid_rule()])
    registry = tmp_path / "facts" / "estimate.yaml"
    registry.write_text(registry.read_text(encoding="utf-8") + "\ntwice_fact:\n  type: number\n  type: number\n", encoding="utf-8")
    with pytest.raises(RuleError, match="written twice") as info:
        load_packs()
    assert str(registry) in info.value.one_line() and "line" in info.value.one_line()


def test_check_packs_reports_a_broken_registry_once(scratch_rules, tmp_path) -> None:  # type: ignore[no-untyped-def]
    scratch_rules([valid_rule()])
    (tmp_path / "facts" / "spare.yaml").write_text("x: {type: number}\n", encoding="utf-8")
    (tmp_path / "facts" / "estimate.yaml").write_text("gpu: {description: no type}\n", encoding="utf-8")
    problems = check_packs()
    assert len(problems) == 2, problems
    assert any("spare.yaml, field 'x'" in p for p in problems)
    assert sum("estimate.yaml, field 'gpu'" in p for p in problems) == 1


def test_check_packs_lists_every_broken_rule_once(scratch_rules) -> None:  # type: ignore[no-untyped-def]
    scratch_rules(
        [
            valid_rule(id="demo.a", when={"all": [{"fact": "gpu_count", "operator": "greater", "value": 8}]}),
            valid_rule(id="demo.b"),
            valid_rule(id="demo.c", requirement=["Z1"]),
        ]
    )
    problems = check_packs()
    assert len(problems) == 2
    assert "rule 'demo.a'" in problems[0] and "rule 'demo.c'" in problems[1]
    assert all("\n" not in p for p in problems)


def test_check_packs_reports_case_files_naming_unknown_rules(scratch_rules, tmp_path) -> None:  # type: ignore[no-untyped-def]
    scratch_rules([valid_rule()])
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "demo.yaml").write_text(
        "- {name: one, facts: {gpu_cnt: 1}, expect: [demo.overkil]}\n", encoding="utf-8"
    )
    problems = check_packs()
    assert any("unknown rule id 'demo.overkil'" in p and "field 'expect'" in p for p in problems)
    assert any("undeclared fact 'gpu_cnt'" in p for p in problems)


def test_the_shipped_packs_are_valid() -> None:
    assert check_packs() == []
