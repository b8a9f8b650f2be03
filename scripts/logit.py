"""The logistic fit shared by the sentence readers' fitting scripts (fit_min_commitment.py,
fit_protections.py): L2-penalised logistic regression by Newton steps, multiple-instance
training (a positive text trains on its best-scoring candidate sentence), the penalty chosen
by k-fold cross-validation over the texts given (the dev halves), the threshold the lowest
whose cross-validated precision reaches a target, and the thresholds by document length.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import numpy as np
import yaml

PENALTIES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
FOLDS = 5
LENGTHS = (1, 2, 5, 10, 20, 50, 100, 200, 500)


def fold_of(text: str) -> int:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest(), 16) % FOLDS


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


def train(examples: list[dict[str, Any]], penalty: float) -> np.ndarray:
    """Examples are {"y": 0/1, "x": candidates x features, "rule": bool, "fold": int}. First
    every candidate of a positive text is a positive, then (two rounds) only its best one;
    every candidate of a negative text is a negative."""
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


def text_scores(w: np.ndarray, examples: list[dict[str, Any]]) -> np.ndarray:
    """A text's score: 2 when the patterns alone already find it, 0 when they already decide it
    otherwise (``decided``: the reader is not asked), else its best candidate's."""
    return np.array([2.0 if e["rule"] else 0.0 if e.get("decided") or not len(e["x"]) else scores(w, e["x"]).max() for e in examples])


def pr(pred: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    tp = float((pred & (y == 1)).sum())
    p = tp / max(pred.sum(), 1)
    r = tp / max((y == 1).sum(), 1)
    return p, r, 2 * p * r / (p + r) if p + r else 0.0


def pick_threshold(s: np.ndarray, y: np.ndarray, precision: float, strict: bool = False) -> float:
    """The lowest threshold whose precision reaches ``precision`` (best recall), else the best
    F1 (``strict``: else 1.0, a reader that never speaks)."""
    grid = np.round(np.arange(0.05, 0.96, 0.01), 2)
    ok = [t for t in grid if pr(s >= t, y)[0] >= precision]
    return float(min(ok)) if ok else 1.0 if strict else float(max(grid, key=lambda t: pr(s >= t, y)[2]))


def length_thresholds(negative: np.ndarray, threshold: float) -> list[list[float]]:
    """[n, threshold] rows: a document with n candidate sentences needs a sentence whose
    score only a share alpha/n of the cross-validated negative sentences reach, where alpha
    is that share at the one-sentence threshold; so a long contract is no likelier to show a
    false reading than one clause (the 0.99 cap: beyond the data's resolution)."""
    if not len(negative):
        return [[n, threshold] for n in LENGTHS]
    alpha = float((negative >= threshold).mean())
    rows = []
    for n in LENGTHS:
        q = min(1.0, max(0.0, 1.0 - alpha / n))
        rows.append([n, round(min(0.99, max(threshold, float(np.quantile(negative, q)))), 3)])
    return rows


def cross_validate(examples: list[dict[str, Any]], precision: float, label: str = "", strict: bool = False) -> dict[str, Any]:
    """Choose the penalty by FOLDS-fold CV (best F1 at the threshold reaching ``precision``),
    refit on every example, and return the fitted block {penalty, threshold, by_length, bias,
    weights (a vector)} with the CV figures."""
    y = np.array([e["y"] for e in examples])
    best = None
    for penalty in PENALTIES:
        cv = np.zeros(len(examples))
        negatives = []
        for k in range(FOLDS):
            held = [i for i, e in enumerate(examples) if e["fold"] == k]
            w = train([e for e in examples if e["fold"] != k], penalty)
            cv[held] = text_scores(w, [examples[i] for i in held])
            negatives += [scores(w, examples[i]["x"]) for i in held if not examples[i]["y"]]
        t = pick_threshold(cv, y, precision, strict)
        p, r, f = pr(cv >= t, y)
        print(f"{label} penalty {penalty:5}: threshold {t:.2f}  CV P {p:.3f} R {r:.3f} F1 {f:.3f}")
        if best is None or f > best[0]:
            best = (f, penalty, t, np.concatenate(negatives) if negatives else np.zeros(0), (p, r))
    assert best is not None
    _, penalty, threshold, negative, (p, r) = best
    w = train(examples, penalty)
    return {"penalty": penalty, "threshold": threshold, "by_length": length_thresholds(negative, threshold),
            "bias": round(float(w[-1]), 3), "w": w[:-1], "cv": (round(float(p), 3), round(float(r), 3))}


def write_fitted(path: Path, fitted: dict[str, Any], script: str) -> None:
    """Replace the ``fitted`` section at the end of the data file ``path``."""
    body = re.split(r"\n# --- fitted", path.read_text(encoding="utf-8"))[0].rstrip("\n")
    block = yaml.safe_dump({"fitted": fitted}, sort_keys=False, allow_unicode=True)
    path.write_text(f"{body}\n# --- fitted by {script} (do not edit by hand)\n{block}", encoding="utf-8")
    print(f"wrote {path}")
