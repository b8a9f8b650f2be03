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

Model: logistic regression on the 0/1 part and pair features, L2 penalty on the weights (not
the bias), fitted by Newton steps. The penalty is chosen by 5-fold cross-validation over the
dev texts (folds by text hash) as the one with the best F1 at the threshold that reaches
cross-validated precision >= PRECISION; the threshold is that one. The held-out halves are
never read here.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import re
import sys
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.contracts import commitment  # noqa: E402
from advisor.contracts.clauses import split_clauses  # noqa: E402
from advisor.contracts.detectors import detect_text  # noqa: E402
from advisor.contracts.reader import read_text  # noqa: E402
from advisor.contracts.vocabulary import cue_index, detectors  # noqa: E402
from bench.eval_contracts import FIXTURES, data_dir, half_of  # noqa: E402
from bench.eval_semantics import load_clauses  # noqa: E402

PENALTIES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
PRECISION = 0.90  # cross-validated precision on the pooled dev texts (13 negatives to 1 positive; LegalBench is 1:1)
FOLDS = 5
LENGTHS = (1, 2, 5, 10, 20, 50, 100, 200, 500)
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


def fit(x: np.ndarray, y: np.ndarray, penalty: float, steps: int = 30) -> np.ndarray:
    """Weights (bias last) of an L2-penalised logistic regression, by Newton steps."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    reg = np.full(xb.shape[1], penalty)
    reg[-1] = 1e-6
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ (p - y) + reg * w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def scores(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ w[:-1] + w[-1]))) if len(x) else np.zeros(0)


def train(examples: list[dict], penalty: float) -> np.ndarray:
    """Two rounds: first every candidate of a positive text, then its best one."""
    w = None
    for _ in range(3):
        xs, ys = [], []
        for e in examples:
            if not len(e["x"]):
                continue
            if e["y"] and w is not None:
                best = int(np.argmax(scores(w, e["x"])))
                xs.append(e["x"][best : best + 1])
                ys.append([1])
            else:
                xs.append(e["x"])
                ys.append([e["y"]] * len(e["x"]))
        w = fit(np.vstack(xs).astype(float), np.concatenate(ys).astype(float), penalty)
    assert w is not None
    return w


def text_scores(w: np.ndarray, examples: list[dict]) -> np.ndarray:
    return np.array([2.0 if e["rule"] else (scores(w, e["x"]).max() if len(e["x"]) else 0.0) for e in examples])


def pr(pred: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    tp = float((pred & (y == 1)).sum())
    p = tp / max(pred.sum(), 1)
    r = tp / max((y == 1).sum(), 1)
    return p, r, 2 * p * r / (p + r) if p + r else 0.0


def pick_threshold(s: np.ndarray, y: np.ndarray) -> float:
    """The lowest threshold whose precision reaches PRECISION (best recall), else the best F1."""
    grid = np.round(np.arange(0.05, 0.96, 0.01), 2)
    ok = [t for t in grid if pr(s >= t, y)[0] >= PRECISION]
    return float(min(ok)) if ok else float(max(grid, key=lambda t: pr(s >= t, y)[2]))


def length_thresholds(negative: np.ndarray, threshold: float) -> list[list[float]]:
    """[n, threshold] rows: a document with n candidate sentences needs a sentence whose
    score only a share alpha/n of the cross-validated negative sentences reach, where alpha
    is that share at the one-sentence threshold; so a long contract is no likelier to show a
    false commitment than one clause (the 0.99 cap: beyond the data's resolution)."""
    alpha = float((negative >= threshold).mean())
    rows = []
    for n in LENGTHS:
        q = min(1.0, max(0.0, 1.0 - alpha / n))
        rows.append([n, round(min(0.99, max(threshold, float(np.quantile(negative, q)))), 3)])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args(argv)
    reader = commitment.reader()
    reader.threshold = 2.0  # the patterns alone
    examples = []
    for text, label in dev_texts():
        cands = candidates(text)
        examples.append({
            "y": label, "rule": by_patterns(text), "x": np.array([reader.features(c) for c in cands], dtype=float).reshape(-1, len(reader.names)),
            "fold": int(hashlib.sha1(text.encode("utf-8")).hexdigest(), 16) % FOLDS,
        })
    y = np.array([e["y"] for e in examples])
    rule = np.array([e["rule"] for e in examples])
    print(f"dev texts {len(examples)} (positive {int(y.sum())}); trap patterns alone P/R/F1 {pr(rule, y)}")
    best = None
    for penalty in PENALTIES:
        cv = np.zeros(len(examples))
        negatives = []
        for k in range(FOLDS):
            train_set = [e for e in examples if e["fold"] != k]
            test_idx = [i for i, e in enumerate(examples) if e["fold"] == k]
            w = train(train_set, penalty)
            cv[test_idx] = text_scores(w, [examples[i] for i in test_idx])
            negatives += [scores(w, examples[i]["x"]) for i in test_idx if not examples[i]["y"]]
        t = pick_threshold(cv, y)
        p, r, f = pr(cv >= t, y)
        curve = "  ".join(f"{u:.1f}:{pr(cv >= u, y)[0]:.2f}/{pr(cv >= u, y)[1]:.2f}" for u in (0.3, 0.5, 0.7, 0.8, 0.9))
        print(f"penalty {penalty:5}: threshold {t:.2f}  CV P {p:.3f} R {r:.3f} F1 {f:.3f}   P/R at {curve}")
        if best is None or f > best[0]:
            best = (f, penalty, t, np.concatenate(negatives))
    assert best is not None
    _, penalty, threshold, negative = best
    by_length = length_thresholds(negative, threshold)
    print(f"threshold by candidate sentences in a document: {by_length}")
    w = train(examples, penalty)
    p, r, f = pr(text_scores(w, examples) >= threshold, y)
    print(f"chosen penalty {penalty}, threshold {threshold:.2f}; refit on all dev texts P {p:.3f} R {r:.3f} F1 {f:.3f}")
    weights = {n: round(float(v), 3) for n, v in zip(reader.names, w[:-1], strict=True)}
    for n, v in sorted(weights.items(), key=lambda kv: -abs(kv[1])):
        print(f"  {n:24s} {v:+.3f}")
    if args.dry:
        return 0
    fitted = {"penalty": penalty, "threshold": threshold, "by_length": by_length, "bias": round(float(w[-1]), 3), "weights": weights}
    body = commitment.PATH.read_text(encoding="utf-8")
    body = re.split(r"\n# --- fitted", body)[0].rstrip("\n")
    block = yaml.safe_dump({"fitted": fitted}, sort_keys=False, allow_unicode=True)
    commitment.PATH.write_text(f"{body}\n# --- fitted by scripts/fit_min_commitment.py (do not edit by hand)\n{block}", encoding="utf-8")
    print(f"wrote {commitment.PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
