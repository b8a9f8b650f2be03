"""Fit the protection readers (advisor/contracts/protections.yaml, `fitted`).

    .venv/bin/python scripts/fit_protections.py          # cross-validate, fit, write the weights
    .venv/bin/python scripts/fit_protections.py --dry    # print the figures, write nothing

Data, DEV halves only (bench.eval_contracts.half_of), per reader (the detector of the same
name in patterns.yaml, its checklist category C):
- the semantic clauses (tests/fixtures/contracts/semantics/clauses.yaml): a clause of
  category C is positive when a reviewer accepts `ok` for it, else negative; a clause of
  another category is a negative (except the categories near C in RELATED);
- the contract fixtures (tests/fixtures/contracts/*.txt): positive when C is expected ok,
  negative when C is expected missing;
- as negatives, the LegalBench clause sets and terms-of-service sentences (a whole contract
  holds many sentences that protect nothing).
A text's candidates are the sentences the detector reads (its cue, require and exclude); it
counts as predicted positive when a candidate scores above the threshold. The threshold is
chosen on the texts the reader will be asked about: every positive (as if its wording were
unknown to the patterns) and the negatives no pattern of the detector already decides. A
reader that reaches PRECISION at no threshold is left silent (threshold 1). Fit and choice: scripts/logit.py
(precision target PRECISION). The held-out halves are never read here.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import logit  # noqa: E402

from advisor.contracts import commitment  # noqa: E402
from advisor.contracts.clauses import normalize_space, split_clauses  # noqa: E402
from advisor.contracts.detectors import detect_text  # noqa: E402
from advisor.contracts.reader import read_text  # noqa: E402
from advisor.contracts.vocabulary import cue_index, detectors  # noqa: E402
from bench.eval_contracts import FIXTURES, data_dir, half_of  # noqa: E402
from bench.eval_semantics import load_clauses  # noqa: E402

PRECISION = 0.90
RELATED = [{"price_lock", "price_change"}, {"sla_compensation", "failure_recompute"},
           {"early_termination", "termination_for_convenience"}, {"billing_after_release", "storage_retention"}]
LEGALBENCH = ("cuad_Minimum_Commitment_test.tsv", "cuad_Cap_On_Liability_test.tsv", "cuad_Renewal_Term_test.tsv",
              "cuad_Termination_For_Convenience_test.tsv", "cuad_Notice_Period_To_Terminate_Renewal_test.tsv", "unfair_tos_test.tsv")
LABELLED = {"price_lock": "cuad_Price_Restrictions_test.tsv"}  # a set whose "Yes" clauses are this protection


def texts(category: str) -> list[tuple[str, int]]:
    near = set().union(*(g for g in RELATED if category in g)) - {category}
    rows = []
    for c in load_clauses():
        if c["category"] == category:
            rows.append((c["text"], int("ok" in str(c["expect"]).split("|"))))
        elif c["category"] not in near:
            rows.append((c["text"], 0))
    for expected in sorted(FIXTURES.glob("*.expected.yaml")):
        e = yaml.safe_load(expected.read_text(encoding="utf-8"))
        label = 1 if category in (e.get("ok") or []) else 0 if category in (e.get("missing") or []) else None
        if label is not None:
            rows.append((expected.with_name(expected.name.replace(".expected.yaml", ".txt")).read_text(encoding="utf-8"), label))
    csv.field_size_limit(10**9)
    for name in (*LEGALBENCH, LABELLED.get(category)):
        if name:
            with (data_dir() / "legalbench" / name).open(encoding="utf-8", newline="") as fh:
                rows += [(r["text"], int(name == LABELLED.get(category) and r["label"].strip().lower() == "yes"))
                         for r in csv.DictReader(fh, delimiter="\t")]
    unique = dict((t, y) for t, y in reversed(rows))  # a text once, with its first label
    return [(t, y) for t, y in unique.items() if half_of(t) == "dev"]


def candidates(text: str, name: str) -> list[str]:
    """The sentences the detector ``name`` reads in ``text``."""
    spec = next(s for s in detectors() if s.name == name)
    out = []
    for clause in split_clauses(read_text(text)):
        whole = normalize_space(f"{clause.heading or ''}\n{clause.text}")
        if spec.cue_scope == "clause" and not (name in cue_index().names(whole.lower()) and (spec.require_any is None or spec.require_any.search(whole))):
            continue
        for s in clause.sentences:
            low = s.text.lower()
            if spec.cue_scope != "clause" and (name not in cue_index().names(low) or (spec.require_any and not spec.require_any.search(s.text, low))):
                continue
            heading = clause.heading and s.text.rstrip().endswith(clause.heading)
            if not heading and not (spec.exclude_any and spec.exclude_any.search(s.text, low)):
                out.append(s.text)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry", action="store_true", help="print the figures, write nothing")
    parser.add_argument("--only", help="fit this reader only")
    args = parser.parse_args(argv)
    readers = commitment.readers()
    for name in readers:
        if name != "commitment":
            readers[name].threshold = 2.0  # the patterns alone
    fitted = (yaml.safe_load(commitment.PROTECTIONS.read_text(encoding="utf-8")) or {}).get("fitted") or {}
    for name, spec in ((s.name, s) for s in detectors() if s.reader and s.reader != "commitment"):
        if args.only and name != args.only:
            continue
        reader = readers[spec.reader]
        examples, rule = [], []
        for text, label in texts(str(spec.category)):
            cands = candidates(text, name)
            if cands:
                x = np.array([reader.features(c) for c in cands], dtype=float).reshape(-1, len(reader.names))
                kinds = {h.kind for h in detect_text(text) if h.detector == name}
                rule.append("protect" in kinds)
                examples.append({"y": label, "rule": False, "decided": bool(kinds) and not label, "x": x, "fold": logit.fold_of(text)})
        y = np.array([e["y"] for e in examples])
        print(f"{name}: dev texts {len(examples)} (positive {int(y.sum())}); protect patterns alone P/R/F1 {logit.pr(np.array(rule), y)}")
        block = logit.cross_validate(examples, PRECISION, name, strict=True)
        w, cv = block.pop("w"), block.pop("cv")
        print(f"{name}: chosen penalty {block['penalty']}, threshold {block['threshold']:.2f}, CV P/R {cv}; by length {block['by_length']}")
        block["weights"] = {n: round(float(v), 3) for n, v in zip(reader.names, w, strict=True) if abs(v) >= 0.0005}
        print("  " + "  ".join(f"{n} {v:+.2f}" for n, v in sorted(block["weights"].items(), key=lambda kv: -abs(kv[1]))[:12]))
        fitted[spec.reader] = block
    if not args.dry:
        logit.write_fitted(commitment.PROTECTIONS, fitted, "scripts/fit_protections.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
