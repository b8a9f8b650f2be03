"""The durable host: thread safety, no state left behind, errors surfaced, both languages,
missing and extra facts, registration that survives reloads and changed packs."""

from __future__ import annotations

import importlib
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import valid_rule

from advisor.errors import InputError, RuleError, UnknownNameError
from advisor.rules import evaluate, evaluate_packs, get_pack
from advisor.rules.cases import load_cases

SCENARIOS = load_cases(Path(__file__).with_name("scenarios.yaml"), pack="estimate")
ESTIMATE_PACKS = ["sizing", "billing", "fleet", "risk", "budget"]
_CJK = re.compile(r"[\u3400-\u9fff]")


def _dump(findings: list[Any]) -> list[dict[str, Any]]:
    return [f.model_dump(mode="json") for f in findings]


def _rss_bytes() -> int:
    import os

    with open("/proc/self/statm", encoding="ascii") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_16_threads_give_the_same_findings_as_one() -> None:
    jobs = [(pack, s.facts) for s in SCENARIOS for pack in ESTIMATE_PACKS]
    expected = [_dump(evaluate(pack, facts)) for pack, facts in jobs]
    assert any(expected), "the scenarios should produce findings"
    mismatches: list[tuple[int, int]] = []
    errors: list[BaseException] = []
    start = threading.Barrier(16)

    def worker(t: int) -> None:
        try:
            start.wait()
            for i in range(500):
                k = (t * 37 + i) % len(jobs)
                pack, facts = jobs[k]
                if _dump(evaluate(pack, facts, lang="zh" if i % 2 else "en")) != _relang(expected[k], i % 2):
                    mismatches.append((t, i))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(16)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors[:3]
    assert not mismatches, f"{len(mismatches)} of 8,000 evaluations differed, e.g. {mismatches[:5]}"
    from advisor.rules.host import stats

    assert stats()["live_sessions"] == 0


def _relang(findings: list[dict[str, Any]], zh: int) -> list[dict[str, Any]]:
    if not zh:
        return findings
    out = []
    for f in findings:
        t = f["text"]["zh"]
        out.append({**f, "lang": "zh", "title": t["title"], "detail": t["detail"], "recommendation": t["recommendation"]})
    return out


def leftover_facts(pack: Any) -> list[Any]:
    """The facts the engine still holds for ``pack`` (none once every evaluation is done)."""
    import durable_rules_engine

    from advisor.rules import host

    proc = host._process()
    with proc.lock:
        name = host._register(proc, pack)
        try:
            return list(proc.host.get_ruleset(name).get_facts(host._SID))
        except durable_rules_engine.error as exc:
            if host._NO_STATE in str(exc):
                return []
            raise


def test_5000_evaluations_leave_no_state_and_flat_memory() -> None:
    from advisor.rules.host import stats

    facts = next(s.facts for s in SCENARIOS if "1,024-GPU" in s.name)
    assert len(evaluate("risk", facts)) >= 3
    for _ in range(500):  # warm up: registration, caches, allocator
        evaluate("risk", facts)
    before = _rss_bytes()
    first = stats()["evaluations"]
    for _ in range(5000):
        evaluate("risk", facts)
    grown = _rss_bytes() - before
    after = stats()
    # 5,000 facts in one engine session: each is retracted after its evaluation.
    assert after["evaluations"] - first == 5000
    assert after["live_sessions"] == 0 and after["unhandled"] == 0
    assert leftover_facts(get_pack("risk")) == []
    assert grown < 4 * 2**20, f"RSS grew {grown / 2**20:.1f} MiB over 5,000 evaluations"


def test_an_exception_inside_an_action_is_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    import advisor.rules.host as host

    facts = next(s.facts for s in SCENARIOS if "70B full fine-tune on one T4" in s.name)

    def broken(*args: Any) -> Any:
        raise ZeroDivisionError("boom in a rule action")

    monkeypatch.setattr(host, "build_finding", broken)
    with pytest.raises(RuleError, match="rule action failed: ZeroDivisionError: boom in a rule action") as info:
        evaluate("sizing", facts)
    assert "rule 'sizing." in info.value.one_line()
    monkeypatch.undo()
    assert evaluate("sizing", facts), "the engine keeps working after a failed action"
    assert host.stats()["live_sessions"] == 0


def test_an_exception_left_in_the_engine_state_is_raised() -> None:
    import advisor.rules.host as host

    pack = get_pack("sizing")
    session = host._Session(pack, {}, {}, "en", host.build_finding, seen=True)
    with pytest.raises(RuleError, match="rule action failed: exception caught"):
        host._raise_failures(pack, session, {"sid": "x", "exception": "exception caught boom"}, True)


def test_every_finding_has_both_languages_with_placeholders_filled() -> None:
    seen: set[str] = set()
    for scenario in SCENARIOS:
        for finding in evaluate_packs(ESTIMATE_PACKS, scenario.facts, lang="zh"):
            seen.add(finding.rule_id)
            assert finding.lang == "zh" and finding.title == finding.text["zh"].title
            for lang in ("en", "zh"):
                t = finding.text[lang]
                for part in (t.title, t.detail, t.recommendation):
                    assert part.strip() and "{" not in part and "}" not in part, (finding.rule_id, part)
                assert bool(_CJK.search(t.title)) == (lang == "zh"), (finding.rule_id, lang, t.title)
    assert len(seen) >= 40, f"only {len(seen)} rules fired across the scenarios"


def test_evidence_records_the_conditions_that_held() -> None:
    facts = next(s.facts for s in SCENARIOS if "8 × H100" in s.name)
    [finding] = [f for f in evaluate("sizing", facts) if f.rule_id == "sizing.overkill_gpu"]
    conditions = finding.evidence["conditions"]
    assert {"fact": "cheaper_gpu_saving_share", "operator": "gte", "value": 0.3, "actual": facts["cheaper_gpu_saving_share"]} in conditions
    assert {c["fact"] for c in conditions} == {"cheaper_gpu_saving_share", "gpu_tier", "cheaper_gpu_tier"}
    assert finding.evidence["cheaper_gpu"] == facts["cheaper_gpu"]
    assert finding.savings is not None and finding.savings.currency == "USD"
    assert finding.savings.amount == pytest.approx(facts["cheaper_gpu_saving"], abs=0.01)


def test_evidence_entries_of_used_facts_are_copied() -> None:
    facts = {"spot_used": True, "interruptible": False, "gpu_count": 8, "gpu": "A100-80GB",
             "_evidence": {"spot_used": {"quote": "billing: spot", "location": "request"}, "model": {"quote": "unused"}}}
    [finding] = [f for f in evaluate("risk", facts) if f.rule_id == "risk.spot_on_critical_path"]
    assert finding.evidence["spot_used"] == {"value": True, "quote": "billing: spot", "location": "request"}
    assert "model" not in finding.evidence


def test_missing_facts_match_nothing_and_extra_keys_are_ignored() -> None:
    assert evaluate_packs(ESTIMATE_PACKS, {}) == []
    facts = SCENARIOS[0].facts
    noisy = {**facts, "unknown_key": [1, 2], "another": {"x": 1}, "gpu_tier_note": None}
    assert _dump(evaluate_packs(ESTIMATE_PACKS, noisy)) == _dump(evaluate_packs(ESTIMATE_PACKS, facts))


def test_findings_are_sorted_most_severe_first() -> None:
    facts = next(s.facts for s in SCENARIOS if "spot for a long" in s.name)
    findings = evaluate_packs(ESTIMATE_PACKS, facts)
    order = {"critical": 0, "warning": 1, "info": 2}
    keys = [(order[f.severity], f.pack, f.rule_id) for f in findings]
    assert keys == sorted(keys) and findings[0].severity == "critical"


def test_wrong_fact_types_and_bad_arguments_are_input_errors() -> None:
    with pytest.raises(InputError, match="fact gpu_count"):
        evaluate("sizing", {"gpu_count": "eight"})
    with pytest.raises(InputError, match="lang"):
        evaluate("sizing", {}, lang="fr")
    with pytest.raises(UnknownNameError, match="did you mean sizing"):
        evaluate("sizng", {})


def test_numpy_values_and_awkward_floats_reach_the_engine() -> None:
    np = pytest.importorskip("numpy")
    base = {"method": "full", "params_b": 7.0, "gpu": "A100-80GB", "gpu_count": 8, "cost_total": 100.0, "currency": "USD",
            "gpu_hours": 2000.0, "has_validation_run": False}
    plain = {f.rule_id for f in evaluate("sizing", base)}
    as_numpy = {**base, "params_b": np.float64(7.0), "gpu_count": np.int64(8), "has_validation_run": np.bool_(False)}
    assert {f.rule_id for f in evaluate("sizing", as_numpy)} == plain
    # durable's JSON parser rejects an exponent without a decimal point (1e-05, 1e+20)
    for value in (1e-05, 5e-06, -1e-07, 1e20, 1e300, 2.5e-310, float("nan"), float("inf")):
        evaluate_packs(ESTIMATE_PACKS, {**base, "mfu": value, "gpu_hours": value, "cost_total": value})
    assert "sizing.low_mfu" in {f.rule_id for f in evaluate("sizing", {**base, "mfu": 1e-05})}


def test_registration_is_idempotent_and_survives_a_module_reload() -> None:
    import advisor.rules.host as host

    facts = SCENARIOS[0].facts
    before = _dump(evaluate_packs(ESTIMATE_PACKS, facts))
    engine_host = host._process().host
    rulesets = host.stats()["rulesets"]
    reloaded = importlib.reload(host)
    assert reloaded._process().host is engine_host
    assert _dump(evaluate_packs(ESTIMATE_PACKS, facts)) == before
    assert reloaded.stats()["rulesets"] == rulesets


def test_a_changed_pack_registers_beside_the_old_one(scratch_rules) -> None:  # type: ignore[no-untyped-def]
    facts = {"cheaper_gpu_saving": 50.0, "gpu_tier": "flagship", "cheaper_gpu": "L40S", "wall_hours": 3.0, "currency": "CNY"}
    path = scratch_rules([valid_rule()])
    first = get_pack("demo").ruleset_name
    assert [f.rule_id for f in evaluate("demo", facts)] == ["demo.overkill"]
    rule = valid_rule()
    rule["when"]["all"][0]["value"] = 100
    scratch_rules([rule])
    assert get_pack("demo").ruleset_name != first
    assert evaluate("demo", facts) == []
    assert path.exists()


def test_matches_is_a_python_regex_searched_anywhere(scratch_rules) -> None:  # type: ignore[no-untyped-def]
    rule = valid_rule(when={"all": [{"fact": "gpu", "operator": "matches", "value": r"h\d{3}"}]}, savings=None, evidence=[])
    rule["text"] = {"en": {"title": "{gpu}", "detail": "d", "recommendation": "r"},
                    "zh": {"title": "卡 {gpu}", "detail": "细节", "recommendation": "建议"}}
    scratch_rules([rule])
    assert [f.title for f in evaluate("demo", {"gpu": "NVIDIA H100-SXM"})] == ["NVIDIA H100-SXM"]
    assert evaluate("demo", {"gpu": "A100-80GB"}) == []
    assert [f.title for f in evaluate("demo", {"gpu": "昇腾 h910"}, lang="zh")] == ["卡 昇腾 h910"]


def test_packs_evaluated_together_give_each_packs_own_findings() -> None:
    """evaluate_packs runs the packs of one domain as one engine ruleset: the findings must be
    exactly those of each pack evaluated on its own, in both languages."""
    from advisor.findings import sort_findings
    from advisor.rules import packs_for_domain

    packs = packs_for_domain("estimate")
    assert len(packs) >= 3
    scenarios = load_cases(Path(__file__).with_name("scenarios.yaml"), pack="estimate")
    fired_any = 0
    for scenario in scenarios:
        for lang in ("en", "zh"):
            alone = sort_findings([f for name in packs for f in evaluate(name, scenario.facts, lang=lang)])
            together = evaluate_packs(packs, scenario.facts, lang=lang)
            assert together == alone, scenario.name
            fired_any += len(together)
    assert fired_any > 0


def test_matches_conditions_of_two_packs_evaluated_together_do_not_collide(scratch_rules) -> None:  # type: ignore[no-untyped-def]
    def matching(rule_id: str, pattern: str) -> dict:  # type: ignore[type-arg]
        rule = valid_rule(id=rule_id, when={"all": [{"fact": "gpu", "operator": "matches", "value": pattern}]},
                          savings=None, evidence=[])
        rule["text"] = {"en": {"title": rule_id, "detail": "d", "recommendation": "r"},
                        "zh": {"title": f"规则 {rule_id}", "detail": "细节", "recommendation": "建议"}}
        return rule

    scratch_rules([matching("one.h100", r"h100")], name="one")
    scratch_rules([matching("two.a100", r"a100"), matching("two.any", r"[ah]\d{3}")], name="two")
    for gpu, expected in (("H100-SXM", {"one.h100", "two.any"}), ("A100-80GB", {"two.a100", "two.any"}),
                          ("RTX 4090", set())):
        assert {f.rule_id for f in evaluate_packs(["one", "two"], {"gpu": gpu})} == expected, gpu
