"""Usage analysis at scale: 500 GPUs × 30 days of 1-minute samples (21.6 million rows).

Generates the fleet with :mod:`bench.synth_fleet` into a temporary file, then runs the
whole ``analyze_usage`` in a child process per engine and samples the peak memory of the
child's whole process tree (for Spark: the Python driver and its JVM). Targets (DuckDB): under
60 s and under 4 GB. With several engines, their reports are compared field by field (texts,
counts and findings exactly; floats to 1e-9 relative).

    python -m bench usage                                   # DuckDB, Parquet
    python -m bench.bench_usage --format csv                # the same fleet as nvidia-smi CSV text (3 GB)
    python -m bench.bench_usage --engines duckdb,spark      # both engines on the same file
    python -m bench.bench_usage --engines duckdb,spark --days 2.78   # 2.0 M rows
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 60.0
TARGET_PEAK_GB = 4.0
PRICE = 2.0


def _child(path: str, engine: str, report_out: str | None) -> None:
    """Run in the child: analyse ``path`` and print the figures as one JSON line."""
    from advisor.tools import analyze_usage

    started = time.perf_counter()
    r = analyze_usage(files=[path], price_per_gpu_hour=PRICE, engine=engine)
    elapsed = time.perf_counter() - started
    if report_out:
        Path(report_out).write_text(r.model_dump_json(), encoding="utf-8")
    tel = r.telemetry
    print(
        json.dumps(
            {
                "elapsed_s": elapsed,
                "rows_read": r.inputs.files[0].rows_read,
                "rows_used": r.inputs.files[0].rows_used,
                "gpus": r.summary.gpu_count,
                "avg_utilization": r.summary.avg_utilization,
                "idle_gpu_hours": r.summary.idle_gpu_hours,
                "waste_cost": r.summary.waste_cost,
                "target_saving": r.summary.target_saving,
                "forgotten": sorted(g.id for g in tel.gpus if g.forgotten) if tel else [],
                "findings": [f.rule_id for f in r.findings],
            }
        )
    )


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def _analyse(path: Path, engine: str, report_out: Path) -> dict[str, Any]:
    """One child process: wall time, CPU time and the peak memory of its process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.bench_usage", "--child", str(path), "--engine", engine, "--report-out", str(report_out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            peak[0] = max(peak[0], _tree_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    done.set()
    sampler.join()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{engine} analysis failed: {err.strip().splitlines()[-1:]}")
    child = json.loads(out.strip().splitlines()[-1])
    child["wall_s"] = wall
    child["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    child["peak_gb"] = max(peak[0], after.ru_maxrss * 1024) / 1e9
    return child


def differences(a: Any, b: Any, path: str = "report") -> list[str]:
    """Where two JSON documents differ: texts, counts and structure exactly, floats to 1e-9."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} items"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{path}[{i}]")]
    if isinstance(a, float) and isinstance(b, float):
        return [] if abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b)) else [f"{path}: {a!r} vs {b!r}"]
    return [] if a == b and type(a) is type(b) else [f"{path}: {a!r} vs {b!r}"]


def run(gpus: int = 500, days: float = 30.0, fmt: str = "parquet", engines: tuple[str, ...] = ("duckdb",)) -> dict:
    """Generate, analyse in a child process per engine, and return the figures."""
    from bench.synth_fleet import FleetSpec, write_fleet

    spec = FleetSpec(gpus=gpus, days=days, interval_s=60)
    figures: dict[str, Any] = {"format": fmt, "gpus": gpus}
    reports: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-usage-") as tmp:
        path = Path(tmp) / f"fleet.{'parquet' if fmt == 'parquet' else 'csv'}"
        started = time.perf_counter()
        info = write_fleet(path, spec)
        figures.update(rows=info["rows"], file_mb=round(path.stat().st_size / 1e6, 1),
                       generate_s=round(time.perf_counter() - started, 1))
        planted = set(info["forgotten_uuids"])
        for engine in engines:
            report_out = Path(tmp) / f"report-{engine}.json"
            child = _analyse(path, engine, report_out)
            reports[engine] = json.loads(report_out.read_text(encoding="utf-8"))
            p = f"{engine}."
            figures.update({
                p + "analyse_wall_s": round(child["wall_s"], 1),
                p + "analyse_in_child_s": round(child["elapsed_s"], 1),
                p + "rows_per_s": round(info["rows"] / child["wall_s"]),
                p + "cpu_s_python": round(child["cpu_s"], 1),
                p + "peak_rss_gb": round(child["peak_gb"], 2),
                p + "rows_read": child["rows_read"],
                p + "avg_utilization": round(child["avg_utilization"], 4),
                p + "idle_gpu_hours": round(child["idle_gpu_hours"], 1),
                p + "waste_cost_usd": round(child["waste_cost"], 2),
                p + "forgotten_found_planted": f"{len(set(child['forgotten']) & planted)}/{len(planted)} "
                                              f"(extra {len(set(child['forgotten']) - planted)})",
                p + "findings": ", ".join(child["findings"]),
            })
            print(f"measured {engine}: {json.dumps({k: v for k, v in figures.items() if k.startswith(p)})}",
                  file=sys.stderr, flush=True)  # kept even if a later engine is stopped
            if engine == "duckdb":
                figures["duckdb.under_60_s"] = child["wall_s"] < TARGET_SECONDS
                figures["duckdb.under_4_gb"] = child["peak_gb"] < TARGET_PEAK_GB
    if len(engines) > 1:
        first = engines[0]
        for other in engines[1:]:
            diff = differences(reports[first], reports[other])
            figures[f"same_report_{first}_{other}"] = not diff
            figures[f"differences_{first}_{other}"] = "; ".join(diff[:5]) or "none"
            figures[f"exactly_equal_{first}_{other}"] = reports[first] == reports[other]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_usage")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--engine", default="duckdb", help=argparse.SUPPRESS)
    parser.add_argument("--report-out", help=argparse.SUPPRESS)
    parser.add_argument("--format", choices=("parquet", "csv"), default="parquet")
    parser.add_argument("--gpus", type=int, default=500)
    parser.add_argument("--days", type=float, default=30.0)
    parser.add_argument("--engines", default="duckdb", help="comma-separated: duckdb,spark")
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.engine, args.report_out)
        return 0
    engines = tuple(e.strip() for e in args.engines.split(",") if e.strip())
    for key, value in run(args.gpus, args.days, args.format, engines).items():
        print(f"{key:36s} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
