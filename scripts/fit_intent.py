"""Fit the offline assistant's intent evidence weights (knowledge/lexicon.yaml ``intent_evidence``) and
``intent_selection.margin`` on the DEV halves of the persona sets. A build tool kept out of the runtime
package; run it from the repository root::

    python scripts/fit_intent.py                 # cross-validate, print the comparison
    python scripts/fit_intent.py --write         # ... and write the fitted weights to the lexicon

The model is the runtime's own: an intent scores the sum of the weights of its evidence items that hold
(``advisor.assistant.offline.intent.scores``) and the highest wins. Fitting is a multinomial logistic
regression over those item indicators (numpy only), L2-regularised toward the hand weights (``--prior hand``,
scaled by one fitted temperature) or toward zero (``--prior zero``); items marked ``hand: true`` are
structure (a pasted contract is a review, "hi" a greeting) and keep their weight.

The target of one question is the SET of decisions after which the whole parse (follow-up merge, memory
check, missing inputs) ends on the expected intent: each candidate decision is forced into
``parse_question`` once. The regularisation and the margin are chosen by 5-fold cross-validation inside
dev (folds by a salted hash of the id); the accuracy printed for a fold is that of ``intent.choose`` with
the weights fitted without it. Test halves are never read.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import re
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

from advisor.assistant.offline import intent as intent_mod
from advisor.assistant.offline.intent import Decision, Evidence, choose, features
from advisor.assistant.offline.parse import parse_question
from bench.persona_eval import SETS, load

LEXICON = Path(__file__).resolve().parents[1] / "knowledge" / "lexicon.yaml"
LAMBDAS = (0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
MARGINS = (0.0, 0.25, 0.5, 1.0, 2.0)
FOLDS = 5


def evidence() -> tuple[list[Evidence], np.ndarray]:
    """The lexicon's evidence items and which of them are fixed (``hand: true``)."""
    items = intent_mod._vocabulary()[2]
    raw = intent_mod.lexicon()["intent_evidence"]
    return items, np.array([bool(e.get("hand")) for e in raw])


def gather(names: list[str]) -> list[dict[str, Any]]:
    """Per dev question: its features, and the decisions after which its parse ends on the expected intent."""
    items, _ = evidence()
    intents = list(dict.fromkeys(e.intent for e in items))
    rows = []
    for name in names:
        for item in load(SETS[name], "dev"):
            previous = None
            for earlier in item.get("history") or []:
                previous = parse_question(earlier, previous)
            seen: dict[str, Any] = {}

            def forced(scan: Any, c: str, seen: dict[str, Any] = seen) -> Decision:
                seen["found"], seen["values"] = features(scan), bool(scan.values)
                stated = any(e.intent == c and e.weight > 0 and not e.implied and e.holds(seen["found"]) for e in items)
                return Decision(c, stated and c != "clarify", "forced by fit_intent", found=frozenset(seen["found"]))

            accept = set()
            for c in intents:
                with mock.patch("advisor.assistant.offline.parse.classify", lambda scan, c=c: forced(scan, c)):
                    if parse_question(item["text"], previous).intent == item["expect"]["intent"]:
                        accept.add(c)
            rows.append({"id": item["id"], "set": name, "lang": item["lang"], "found": seen["found"],
                         "values": seen["values"], "accept": accept, "followup": bool(item.get("history"))})
    return rows


class Model:
    """Scores = (H * w) @ M over the intents whose evidence holds; softmax; likelihood of the accepted set."""

    def __init__(self, rows: list[dict[str, Any]], items: list[Evidence]) -> None:
        self.intents = list(dict.fromkeys(e.intent for e in items))
        self.H = np.array([[e.holds(r["found"]) for e in items] for r in rows], dtype=float)
        self.M = np.zeros((len(items), len(self.intents)))
        for j, e in enumerate(items):
            self.M[j, self.intents.index(e.intent)] = 1.0
        self.active = (self.H @ self.M) > 0
        self.A = np.array([[c in r["accept"] for c in self.intents] for r in rows]) & self.active

    def loss_grad(self, w: np.ndarray, idx: np.ndarray) -> tuple[float, np.ndarray]:
        H, act, A = self.H[idx], self.active[idx], self.A[idx]
        keep = A.any(axis=1)  # a question no decision gets right teaches nothing
        H, act, A = H[keep], act[keep], A[keep]
        S = (H * w) @ self.M
        S = np.where(act, S, -np.inf)
        S = S - S.max(axis=1, keepdims=True)
        P = np.exp(S)
        P /= P.sum(axis=1, keepdims=True)
        Q = np.where(A, P, 0.0)
        q = Q.sum(axis=1, keepdims=True)
        loss = float(-np.log(q).sum())
        dS = P - Q / q
        grad = (H * (dS @ self.M.T)).sum(axis=0)
        return loss, grad


def fit(model: Model, idx: np.ndarray, w0: np.ndarray, fixed: np.ndarray, lam: float, prior: str) -> np.ndarray:
    """Weights (in the hand weights' scale) minimising the loss + lam/2 |w - prior|^2 (L-BFGS)."""
    scale = temperature(model, idx, w0)
    mean = w0 * scale if prior == "hand" else np.where(fixed, w0 * scale, 0.0)
    free = ~fixed

    def f(x: np.ndarray) -> tuple[float, np.ndarray]:
        w = mean.copy()
        w[free] = x
        loss, g = model.loss_grad(w, idx)
        return loss + lam / 2 * float(((x - mean[free]) ** 2).sum()), g[free] + lam * (x - mean[free])

    return np.where(free, _expand(lbfgs(f, mean[free]), free, mean), mean) / scale


def _expand(x: np.ndarray, free: np.ndarray, base: np.ndarray) -> np.ndarray:
    out = base.copy()
    out[free] = x
    return out


def lbfgs(f: Any, x: np.ndarray, memory: int = 10, steps: int = 300) -> np.ndarray:
    """Minimise a smooth convex ``f(x) -> (value, gradient)``: limited-memory BFGS, backtracking line search."""
    value, g = f(x)
    pairs: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(steps):
        q = g.copy()
        alphas = []
        for s, y in reversed(pairs):
            a = (s @ q) / (y @ s)
            alphas.append(a)
            q -= a * y
        if pairs:
            s, y = pairs[-1]
            q *= (s @ y) / (y @ y)
        for (s, y), a in zip(pairs, reversed(alphas), strict=True):
            q += s * (a - (y @ q) / (y @ s))
        step = 1.0
        while True:
            new = x - step * q
            new_value, new_g = f(new)
            if new_value <= value - 1e-4 * step * (g @ q) or step < 1e-10:
                break
            step /= 2
        if abs(value - new_value) < 1e-9 * max(1.0, abs(value)):
            return new
        s, y = new - x, new_g - g
        if s @ y > 1e-12:
            pairs = [*pairs[-memory + 1 :], (s, y)]
        x, value, g = new, new_value, new_g
    return x


def temperature(model: Model, idx: np.ndarray, w0: np.ndarray) -> float:
    """The one factor turning hand points into logits: the best likelihood of the hand weights."""
    grid = np.exp(np.linspace(np.log(0.05), np.log(5.0), 41))
    return float(grid[int(np.argmin([model.loss_grad(w0 * s, idx)[0] for s in grid]))])


def accuracy(rows: list[dict[str, Any]], idx: np.ndarray, items: list[Evidence], w: np.ndarray, margin: float) -> int:
    weighted = [e._replace(weight=float(x)) for e, x in zip(items, w, strict=True)]
    return sum(choose(rows[i]["found"], rows[i]["values"], weighted, margin).intent in rows[i]["accept"] for i in idx)


def fold_of(item_id: str) -> int:
    return int(hashlib.sha256(f"fit_intent:{item_id}".encode()).hexdigest(), 16) % FOLDS


def cross_validate(rows: list[dict[str, Any]], model: Model, items: list[Evidence], w0: np.ndarray, fixed: np.ndarray,
                   prior: str) -> tuple[dict[float, int], dict[float, int]]:
    folds = np.array([fold_of(r["id"]) for r in rows])
    by_lam = {lam: 0 for lam in LAMBDAS}
    fitted: dict[float, list[tuple[np.ndarray, np.ndarray]]] = {lam: [] for lam in LAMBDAS}
    for k in range(FOLDS):
        train, held = np.flatnonzero(folds != k), np.flatnonzero(folds == k)
        for lam in LAMBDAS:
            w = fit(model, train, w0, fixed, lam, prior)
            fitted[lam].append((w, held))
            by_lam[lam] += accuracy(rows, held, items, w, 0.0)
    best = max(LAMBDAS, key=lambda lam: (by_lam[lam], lam))
    by_margin = {m: sum(accuracy(rows, held, items, w, m) for w, held in fitted[best]) for m in MARGINS}
    return by_lam, by_margin


def write(w: np.ndarray, margin: float, names: list[str], lam: float, prior: str) -> None:
    text = LEXICON.read_text(encoding="utf-8")
    head, _, rest = text.partition("\nintent_evidence:\n")
    table, sep, tail = rest.partition("\n\n")
    lines = table.split("\n")
    assert len(lines) == len(w), (len(lines), len(w))
    lines = [re.sub(r"w: -?[\d.]+", f"w: {x:.2f}".rstrip("0").rstrip("."), line, count=1) for line, x in zip(lines, w, strict=True)]
    head = re.sub(r"(margin: )[\d.]+", f"\\g<1>{margin:g}", head, count=1)
    head = re.sub(r"# fitted: .*", f"# fitted: scripts/fit_intent.py on the dev halves of {', '.join(names)} "
                  f"(prior {prior}, L2 {lam:g} by {FOLDS}-fold cross-validation)", head, count=1)
    LEXICON.write_text(head + "\nintent_evidence:\n" + "\n".join(lines) + sep + tail, encoding="utf-8")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=",".join(SETS), help="persona sets whose dev halves are fitted")
    ap.add_argument("--held", help="a persona set whose dev half is kept out of the fit and scored (hand vs fitted)")
    ap.add_argument("--prior", choices=("hand", "zero"), default="hand")
    ap.add_argument("--pairs", type=int, default=0,
                    help="also fit one item per (intent, feature) for features held by at least this many questions")
    ap.add_argument("--cache", help="a file keeping the gathered questions between runs (delete it when the code changes)")
    ap.add_argument("--write", action="store_true", help="write the fitted weights and margin to the lexicon")
    args = ap.parse_args(argv)
    names = args.sets.split(",")
    items, fixed = evidence()
    cache = Path(args.cache) if args.cache else None
    if cache and cache.exists():
        rows = pickle.loads(cache.read_bytes())
    else:
        rows = gather(names + ([args.held] if args.held else []))
        if cache:
            cache.write_bytes(pickle.dumps(rows))
    held = [r for r in rows if r["set"] == args.held]
    rows = [r for r in rows if r["set"] in names]
    w0 = np.array([e.weight for e in items])
    if args.pairs:
        counts: dict[str, int] = {}
        for r in rows:
            for f in r["found"]:
                counts[f] = counts.get(f, 0) + 1
        kinds = [i for i in dict.fromkeys(e.intent for e in items) if i not in ("greeting", "help")]
        extra = [Evidence(i, 0.0, frozenset({f}), (), frozenset(), True) for f in sorted(counts) if counts[f] >= args.pairs
                 for i in kinds]
        items, w0, fixed = [*items, *extra], np.concatenate([w0, np.zeros(len(extra))]), np.concatenate([fixed, np.zeros(len(extra), bool)])
        print(f"+ {len(extra)} (intent, feature) items")
    model = Model(rows, items)
    everything = np.arange(len(rows))
    reachable = sum(bool(r["accept"]) for r in rows)
    hand = accuracy(rows, everything, items, w0, float(intent_mod._vocabulary()[3]["margin"]))
    print(f"dev questions {len(rows)} ({', '.join(names)}), reachable by some decision {reachable}")
    print(f"hand weights: {hand}/{len(rows)} ({hand / len(rows):.1%}) right on dev (no fitting: the same on every fold)")
    by_lam, by_margin = cross_validate(rows, model, items, w0, fixed, args.prior)
    for lam, n in by_lam.items():
        print(f"  prior {args.prior} L2 {lam:<6g} cross-validated {n}/{len(rows)} ({n / len(rows):.1%})")
    lam = max(LAMBDAS, key=lambda x: (by_lam[x], x))
    margin = max(MARGINS, key=lambda m: (by_margin[m], -m))
    print(f"  margins at L2 {lam:g}: " + ", ".join(f"{m:g}: {n}" for m, n in by_margin.items()))
    w = fit(model, everything, w0, fixed, lam, args.prior)
    refit = accuracy(rows, everything, items, w, margin)
    print(f"chosen L2 {lam:g}, margin {margin:g}: cross-validated {by_margin[margin]}/{len(rows)}, refit on all dev {refit}")
    if by_margin[margin] <= hand:
        print("the fitted weights do not beat the hand weights on cross-validated dev")
    if held:
        h, f = (accuracy(held, np.arange(len(held)), items, x, m) for x, m in ((w0, 0.0), (w, margin)))
        print(f"held-out {args.held} dev ({len(held)}): hand {h} ({h / len(held):.1%}), fitted {f} ({f / len(held):.1%})")
    if args.write:
        write(w, margin, names, lam, args.prior)
        print(f"wrote {LEXICON}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
