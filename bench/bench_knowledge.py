"""Knowledge retrieval benchmark: index build time (cold in a fresh process, and rebuilt with
jieba already loaded), warm search latency p50/p95 over the onboarding questions, and the
top-3 / top-1 hit rates on the tuned and held-out question sets.

Run: ``python -m bench knowledge`` (or ``make bench``).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "tests" / "knowledge" / "questions.yaml"
REPEATS = 20

_COLD = """
import json, time
t = time.perf_counter()
from advisor.knowledge.search import get_index
index = get_index()
print(json.dumps({"seconds": time.perf_counter() - t, "reported": index.build_seconds, "sections": index.sections}))
"""


def _cold_build() -> dict:
    proc = subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True, cwd=ROOT, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "cold build failed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run() -> dict:
    from advisor.knowledge.search import clear_index, get_index, search

    questions = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    cold = _cold_build()

    get_index()  # loads jieba in this process
    clear_index()
    started = time.perf_counter()
    index = get_index()
    warm_build = time.perf_counter() - started

    for q in questions:  # warm-up pass
        search(q["q"], k=5)
    latencies = []
    for _ in range(REPEATS):
        for q in questions:
            t = time.perf_counter()
            search(q["q"], k=5)
            latencies.append((time.perf_counter() - t) * 1000)

    rates = {}
    for name, held in (("tuned", False), ("held_out", True)):
        chosen = [q for q in questions if q["held_out"] == held]
        top3 = top1 = 0
        for q in chosen:
            slugs = [h.slug for h in search(q["q"], k=3)]
            top3 += q["expect"] in slugs[:3]
            top1 += bool(slugs) and slugs[0] == q["expect"]
        rates[name] = (top3 / len(chosen), top1 / len(chosen), len(chosen))

    return {
        "sections_indexed": index.sections,
        "index_build_cold_s (fresh process, incl. jieba)": round(cold["seconds"], 3),
        "index_build_warm_s (jieba loaded)": round(warm_build, 3),
        "search_p50_ms (warm)": round(statistics.median(latencies), 3),
        "search_p95_ms (warm)": round(_percentile(latencies, 0.95), 3),
        "search_max_ms (warm)": round(max(latencies), 3),
        "searches_timed": len(latencies),
        "top3_hit_rate_tuned": f"{rates['tuned'][0]:.3f} of {rates['tuned'][2]}",
        "top3_hit_rate_held_out": f"{rates['held_out'][0]:.3f} of {rates['held_out'][2]}",
        "top1_hit_rate_tuned": round(rates["tuned"][1], 3),
        "top1_hit_rate_held_out": round(rates["held_out"][1], 3),
    }


if __name__ == "__main__":  # pragma: no cover
    for key, value in run().items():
        print(f"{key:52s} {value}")
