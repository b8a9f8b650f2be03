"""Offline parser benchmark: accuracy on the question sets and parse time per question.

Target (issue #5): parsing is a small part of an offline `ask` (< 300 ms p95) — aim for
< 5 ms per question. Times are taken warm (after one pass that compiles nothing new but
fills the catalog-lookup cache), over every turn of both question sets, repeated.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "assistant" / "data"
SETS = {"tuned": DATA / "questions.yaml", "held_out": DATA / "questions_holdout.yaml"}
REPEATS = 5


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run() -> dict:
    from advisor.assistant.offline import parse_question
    from advisor.assistant.offline.evaluate import evaluate, load_turns

    figures: dict = {}
    for name, path in SETS.items():
        result = evaluate(path)
        figures[f"accuracy_{name}"] = round(result["accuracy"], 4)
        figures[f"questions_{name}"] = result["total"]
    conversations = [c for path in SETS.values() for c in load_turns(path)]
    times: list[float] = []
    for repeat in range(REPEATS + 1):
        for turns in conversations:
            previous = None
            for turn in turns:
                start = time.perf_counter()
                previous = parse_question(turn["q"], previous)
                elapsed = (time.perf_counter() - start) * 1000
                if repeat:  # the first pass warms caches
                    times.append(elapsed)
    figures["parse_ms_p50"] = round(statistics.median(times), 3)
    figures["parse_ms_p95"] = round(_percentile(times, 0.95), 3)
    figures["parse_ms_max"] = round(max(times), 3)
    figures["parse_target_ms"] = 5.0
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:24s} {value}")
