"""Usage analysis at scale: 500 GPUs × 30 days of 1-minute samples (21.6 million rows).

Generates the fleet with :mod:`advisor.usage.synth` into a temporary file, then runs the
whole ``analyze_usage`` in a child process and reads its peak memory with
``resource.getrusage(RUSAGE_CHILDREN)``. Targets: under 60 s and under 4 GB.

    python -m bench usage                      # Parquet, the default
    python -m bench.bench_usage --format csv   # the same fleet as nvidia-smi CSV text (3 GB)
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 60.0
TARGET_PEAK_GB = 4.0
PRICE = 2.0


def _child(path: str) -> None:
    """Run in the child: analyse ``path`` and print the figures as one JSON line."""
    from advisor.tools import analyze_usage

    started = time.perf_counter()
    r = analyze_usage(files=[path], price_per_gpu_hour=PRICE)
    elapsed = time.perf_counter() - started
    tel = r.telemetry
    print(
        json.dumps(
            {
                "elapsed_s": elapsed,
                "self_peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
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


def run(gpus: int = 500, days: float = 30.0, fmt: str = "parquet") -> dict:
    """Generate, analyse in a child process, and return the figures."""
    from advisor.usage.synth import FleetSpec, write_fleet

    spec = FleetSpec(gpus=gpus, days=days, interval_s=60)
    with tempfile.TemporaryDirectory(prefix="bench-usage-") as tmp:
        path = Path(tmp) / f"fleet.{'parquet' if fmt == 'parquet' else 'csv'}"
        started = time.perf_counter()
        info = write_fleet(path, spec)
        generate_s = time.perf_counter() - started
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "bench.bench_usage", "--child", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise RuntimeError(f"analysis failed: {proc.stderr.strip().splitlines()[-1:]}")
        child = json.loads(proc.stdout.strip().splitlines()[-1])
        file_mb = path.stat().st_size / 1e6
    peak_gb = after.ru_maxrss * 1024 / 1e9  # Linux: kilobytes
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    planted = set(info["forgotten_uuids"])
    return {
        "format": fmt,
        "rows": info["rows"],
        "gpus": gpus,
        "file_mb": round(file_mb, 1),
        "generate_s": round(generate_s, 1),
        "analyse_wall_s": round(wall, 1),
        "analyse_in_child_s": round(child["elapsed_s"], 1),
        "analyse_cpu_s": round(cpu, 1),
        "peak_rss_gb": round(peak_gb, 2),
        "rows_read": child["rows_read"],
        "rows_used": child["rows_used"],
        "avg_utilization": round(child["avg_utilization"], 4),
        "idle_gpu_hours": round(child["idle_gpu_hours"], 1),
        "waste_cost_usd": round(child["waste_cost"], 2),
        "target_saving_usd": round(child["target_saving"], 2),
        "forgotten_found_planted": f"{len(set(child['forgotten']) & planted)}/{len(planted)} (extra {len(set(child['forgotten']) - planted)})",
        "findings": ", ".join(child["findings"]),
        "under_60_s": wall < TARGET_SECONDS,
        "under_4_gb": peak_gb < TARGET_PEAK_GB,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_usage")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--format", choices=("parquet", "csv"), default="parquet")
    parser.add_argument("--gpus", type=int, default=500)
    parser.add_argument("--days", type=float, default=30.0)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child)
        return 0
    for key, value in run(args.gpus, args.days, args.format).items():
        print(f"{key:28s} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
