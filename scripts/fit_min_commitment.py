"""Fit the minimum-commitment sentence reader (advisor/contracts/commitment.yaml, `fitted`).

    .venv/bin/python scripts/fit_min_commitment.py          # cross-validate, fit, write the weights
    .venv/bin/python scripts/fit_min_commitment.py --dry    # print the figures, write nothing

Data: the DEV halves only (bench.eval_contracts.half_of) of LegalBench Minimum Commitment,
the CUAD clause set tests/fixtures/contracts/min_commitment/cuad.yaml, the semantic
clauses of classes commitment / commitment_floor (a clause is positive when a reviewer
accepts trap or ok for it), and, as negatives, the clauses of the other LegalBench CUAD sets
(Cap On Liability, Renewal Term, Termination For Convenience, Notice Period; any label) and
the LegalBench terms-of-service sentences: a whole contract holds hundreds of sentences that
are no commitment, so the reader must be right on them too. A text is an example; its candidate sentences are those the
minimum_commitment detector reads (cue and exclusions); a text is predicted positive when
the detector's trap patterns fire without the reader, or any candidate scores above the
threshold. A positive text with several candidates trains on its best-scoring one (two
rounds), every candidate of a negative text is a negative.

Model and choice (scripts/logit.py): logistic regression on the 0/1 part and pair features,
L2 penalty chosen by 5-fold cross-validation over the dev texts (folds by text hash), the
threshold the lowest reaching cross-validated precision >= PRECISION. The held-out halves are
never read here.
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
from advisor.contracts.clauses import split_clauses  # noqa: E402
from advisor.contracts.detectors import detect_text  # noqa: E402
from advisor.contracts.reader import read_text  # noqa: E402
from advisor.contracts.vocabulary import cue_index, detectors  # noqa: E402
from bench.eval_contracts import FIXTURES, data_dir, half_of  # noqa: E402
from bench.eval_semantics import load_clauses  # noqa: E402

PRECISION = 0.90  # cross-validated precision on the pooled dev texts (13 negatives to 1 positive; LegalBench is 1:1)
NEGATIVE_SETS = ("cuad_Cap_On_Liability_test.tsv", "cuad_Renewal_Term_test.tsv", "cuad_Termination_For_Convenience_test.tsv",
                 "cuad_Notice_Period_To_Terminate_Renewal_test.tsv", "unfair_tos_test.tsv")


def dev_texts() -> list[tuple[str, int]]:
    csv.field_size_limit(10**9)
    path = data_dir() / "legalbench" / "cuad_Minimum_Commitment_test.tsv"
    with path.open(encoding="utf-8", newline="") as fh:
        rows = [(r["text"], int(r["label"].strip().lower() == "yes")) for r in csv.DictReader(fh, delimiter="\t")]
    items = yaml.safe_load((FIXTURES / "min_commitment" / "cuad.yaml").read_text(encoding="utf-8"))["items"]
    rows += [(i["text"], int(i["label"] == "yes")) for i in items]
    for c in load_clauses():
        if c["cls"] in ("commitment", "commitment_floor"):
            rows.append((c["text"], int(bool({"trap", "ok"} & set(str(c["expect"]).split("|"))))))
    # whole contracts hold hundreds of clauses that are no commitment: the other clause sets
    # (their clauses of every label) and the terms-of-service sentences are negatives
    seen = {t for t, _ in rows}
    for name in NEGATIVE_SETS:
        with (data_dir() / "legalbench" / name).open(encoding="utf-8", newline="") as fh:
            rows += [(r["text"], 0) for r in csv.DictReader(fh, delimiter="\t") if r["text"] not in seen]
    unique = dict((t, y) for t, y in reversed(rows))  # a text once, with its first label
    return [(t, y) for t, y in unique.items() if half_of(t) == "dev"]


def candidates(text: str) -> list[str]:
    spec = next(s for s in detectors() if s.name == "minimum_commitment")
    out = []
    for clause in split_clauses(read_text(text)):
        for s in clause.sentences:
            low = s.text.lower()
            if "minimum_commitment" in cue_index().names(low) and not (spec.exclude_any and spec.exclude_any.search(s.text, low)):
                out.append(s.text)
    return out


def by_patterns(text: str) -> bool:
    """The detector's verdict without the reader (its threshold set out of reach)."""
    return any(h.detector == "minimum_commitment" for h in detect_text(text))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args(argv)
    reader = commitment.reader()
    reader.threshold = 2.0  # the patterns alone
    examples = [
        {"y": label, "rule": by_patterns(text), "fold": logit.fold_of(text),
         "x": np.array([reader.features(c) for c in candidates(text)], dtype=float).reshape(-1, len(reader.names))}
        for text, label in dev_texts()
    ]
    y = np.array([e["y"] for e in examples])
    rule = np.array([e["rule"] for e in examples])
    print(f"dev texts {len(examples)} (positive {int(y.sum())}); trap patterns alone P/R/F1 {logit.pr(rule, y)}")
    fitted = logit.cross_validate(examples, PRECISION)
    w, cv = fitted.pop("w"), fitted.pop("cv")
    print(f"chosen penalty {fitted['penalty']}, threshold {fitted['threshold']:.2f}, CV P/R {cv}; by length {fitted['by_length']}")
    fitted["weights"] = {n: round(float(v), 3) for n, v in zip(reader.names, w, strict=True)}
    for n, v in sorted(fitted["weights"].items(), key=lambda kv: -abs(kv[1])):
        print(f"  {n:24s} {v:+.3f}")
    if not args.dry:
        logit.write_fitted(commitment.PATH, fitted, "scripts/fit_min_commitment.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
