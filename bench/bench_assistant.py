"""Assistant benchmark: offline ``ask`` latency and cold ``advisor ask --offline`` start-up.

Targets (issue #5): offline ``ask`` under 300 ms at p95 in-process after warm-up; cold
``advisor ask --offline "..."`` under 2 s. Also reports the end-to-end question-set
accuracy (first tool call's name and key arguments, as tests/assistant/test_ask_questionset.py).

In-process: every turn of both question sets (chains with their history), one warm-up
pass, then ``REPEATS`` timed passes; wall clock and CPU (thread) time, since a busy machine
preempts. Cold: a fresh process per run (``.venv/bin/advisor``), median of ``COLD_RUNS``,
for an English and a Chinese question, wall clock and the child's CPU time (on a loaded
machine the wall clock is mostly waiting for a core; the load average is reported).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "assistant" / "data"
REPEATS = 3
COLD_RUNS = 3
COLD_QUESTIONS = {
    "en": "LoRA fine-tune Llama-3-8B on 50k samples of 800 tokens, 3 epochs, on 8 A100s: how much?",
    "zh": "用8张A100全参微调Llama-3-8B，1亿token，要多少钱",
}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _conversations() -> list[list[dict]]:
    from bench.question_eval import load_turns

    return [c for path in sorted(DATA.glob("questions*.yaml")) for c in load_turns(path)]


def _accuracy(conversations: list[list[dict]]) -> tuple[float, int]:
    from advisor.assistant import ask
    from bench.question_eval import check

    right = total = 0
    for chain in conversations:
        history = None
        for expected in chain:
            r = ask(expected["q"], history=history, offline=True)
            parsed = r.history[-1].get("parsed") or {}
            first = r.tool_calls[0] if r.tool_calls else None
            intent = first.name if first and r.intent not in ("clarify", "onboarding") else r.intent
            args = dict(first.args) if first else {}
            if "lang" not in (parsed.get("args") or {}):
                args.pop("lang", None)
            seen = SimpleNamespace(intent=intent, language=r.lang, is_followup=parsed.get("is_followup", False),
                                   args=args, missing=parsed.get("missing", []), reason="")
            right += not check(expected, seen)  # type: ignore[arg-type]
            total += 1
            history = r.history
    return right / total, total


def _in_process(conversations: list[list[dict]]) -> dict:
    from advisor.assistant import ask

    wall: list[float] = []
    cpu: list[float] = []
    for repeat in range(REPEATS + 1):
        for chain in conversations:
            history = None
            for turn in chain:
                start, start_cpu = time.perf_counter(), time.thread_time()
                history = ask(turn["q"], history=history, offline=True).history
                if repeat:  # the first pass is the warm-up
                    wall.append((time.perf_counter() - start) * 1000)
                    cpu.append((time.thread_time() - start_cpu) * 1000)
    return {
        "offline_ask_ms_p50": round(statistics.median(wall), 1),
        "offline_ask_ms_p95": round(_percentile(wall, 0.95), 1),
        "offline_ask_ms_max": round(max(wall), 1),
        "offline_ask_cpu_ms_p95": round(_percentile(cpu, 0.95), 1),
        "offline_ask_turns_timed": len(wall),
    }


def _cold(question: str) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of a fresh ``advisor ask --offline``."""
    import resource

    exe = ROOT / ".venv" / "bin" / "advisor"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "advisor.cli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ADVISOR_LLM"))}
    times, cpu = [], []
    for _ in range(COLD_RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([*cmd, "ask", "--offline", question], capture_output=True, env=env, cwd=ROOT,
                              timeout=120, check=False)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise RuntimeError(f"advisor ask failed: {done.stderr.decode(errors='replace').strip()[:300]}")
    return statistics.median(times), statistics.median(cpu)


def run() -> dict:
    conversations = _conversations()
    figures: dict = {}
    figures["machine_load_1min"] = round(os.getloadavg()[0], 2)
    figures["machine_cpus"] = os.cpu_count()
    for lang, question in COLD_QUESTIONS.items():
        wall, cpu = _cold(question)
        figures[f"cold_cli_ask_offline_s_{lang}"] = round(wall, 2)
        figures[f"cold_cli_ask_offline_cpu_s_{lang}"] = round(cpu, 2)
    accuracy, total = _accuracy(conversations)
    figures["question_set_accuracy_end_to_end"] = round(accuracy, 4)
    figures["question_set_turns"] = total
    figures.update(_in_process(conversations))
    figures["targets"] = "offline ask p95 < 300 ms; cold CLI < 2 s"
    return figures


if __name__ == "__main__":  # pragma: no cover
    for key, value in run().items():
        print(f"{key:40s} {value}")
