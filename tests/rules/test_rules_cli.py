"""``advisor rules`` lists packs and rules; ``advisor rules check`` validates them, exiting 2
with one line per problem. Neither loads the rules engine."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from rules_helpers import valid_rule

from advisor.cli import main


def test_rules_json_lists_every_pack_with_titles_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    packs = {p["pack"]: p for p in doc["packs"]}
    assert {"sizing", "billing", "fleet", "risk", "budget"} <= set(packs)
    rule = next(r for r in packs["sizing"]["rules"] if r["id"] == "sizing.overkill_gpu")
    assert rule["severity"] == "warning" and rule["category"] == "right_sizing" and "C1" in rule["requirement"]
    assert rule["title"]["en"] and rule["title"]["zh"]
    assert sum(len(packs[p]["rules"]) for p in ("sizing", "billing", "fleet", "risk", "budget")) >= 40


def test_rules_for_one_pack_as_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--pack", "risk"]) == 0
    out = capsys.readouterr().out
    assert "risk.spot_on_critical_path" in out and "sizing." not in out


def test_unknown_pack_is_exit_2_with_close_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--pack", "fleat"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fleet" in err


def test_check_passes_on_the_shipped_packs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "check"]) == 0
    assert "all valid" in capsys.readouterr().out
    assert main(["rules", "check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_check_exits_2_with_one_line_per_problem(scratch_rules, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    scratch_rules([
        valid_rule(id="demo.a", when={"all": [{"fact": "gpu_count", "operator": "greater", "value": 8}]}),
        valid_rule(id="demo.b", when={"all": [{"fact": "gpu_cnt", "operator": "gt", "value": 8}]}),
    ])
    assert main(["rules", "check"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2
    assert "rule 'demo.a', field 'when.all[0].operator'" in lines[0]
    assert "rule 'demo.b', field 'when.all[0].fact'" in lines[1]
    assert main(["rules"]) == 2  # listing a broken pack is an error too, one line
    assert capsys.readouterr().err.count("\n") == 1


def test_the_rules_commands_never_import_the_engine() -> None:
    code = (
        "import sys; from advisor.cli import main; "
        "rc = main(['rules', '--json']) + main(['rules', 'check']); "
        "sys.stdout.flush(); print('DURABLE', 'durable' in sys.modules, rc, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert "DURABLE False 0" in done.stderr, done.stderr[-2000:]
