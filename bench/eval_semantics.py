"""Clause-semantics classes (issue #15): each clause of tests/fixtures/contracts/semantics/
clauses.yaml reviewed as a one-clause contract, scored on the checklist status of its
category, per class, language and half.

    python -m bench.eval_semantics            # table; failures of the dev half are listed
    python -m bench.eval_semantics --show-test  # also list the failures of the test half
    python -m bench.eval_semantics --json
    python -m bench.eval_semantics --batch 11  # only the clauses of one batch

The clauses were written before the semantics layer was tuned. The half of a clause is fixed
by the SHA-1 of its normalized text (``bench.eval_contracts.half_of``: "dev" or "holdout");
tuning looked at the dev half only, and both halves are reported.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

from bench.eval_contracts import half_of

ROOT = Path(__file__).resolve().parents[1]
CLAUSES = ROOT / "tests" / "fixtures" / "contracts" / "semantics" / "clauses.yaml"


def load_clauses(path: Path = CLAUSES) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return list(data["clauses"])


def status_of(text: str, category: str) -> str:
    from advisor.tools.contract import review_contract

    report = review_contract(text=text)
    return {item.category: item.status for item in report.checklist}[category]


def evaluate(path: Path = CLAUSES, batch: int | None = None) -> dict[str, Any]:
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    failures: list[dict[str, Any]] = []
    for case in load_clauses(path):
        if batch is not None and case.get("batch") != batch:
            continue
        half = "dev" if half_of(case["text"]) == "dev" else "test"
        got = status_of(case["text"], case["category"])
        ok = got in str(case["expect"]).split("|")
        for key in (f"{case['cls']}/{case['lang']}", f"{case['cls']}/all", "all/all"):
            cell = table[key][half]
            cell[0] += int(ok)
            cell[1] += 1
        if not ok:
            failures.append({**case, "half": half, "got": got})
    return {"table": {k: dict(v) for k, v in table.items()}, "failures": failures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.eval_semantics", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show-test", action="store_true", help="list failures of the test half too")
    parser.add_argument("--batch", type=int, help="score only the clauses marked with this batch")
    args = parser.parse_args(argv)
    result = evaluate(batch=args.batch)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"{'class/lang':28s} {'dev':>9s} {'test':>9s}")
    for key in sorted(result["table"]):
        row = result["table"][key]
        cells = [f"{row[h][0]}/{row[h][1]}" if h in row else "-" for h in ("dev", "test")]
        print(f"{key:28s} {cells[0]:>9s} {cells[1]:>9s}")
    for f in result["failures"]:
        if f["half"] == "dev" or args.show_test:
            print(f"FAIL[{f['half']}] {f['cls']} {f['category']} expect {f['expect']} got {f['got']}: {f['text']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
