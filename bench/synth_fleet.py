"""Realistic synthetic GPU telemetry, for scale tests and demos.

Writes what ``nvidia-smi --query-gpu=timestamp,hostname,index,name,uuid,utilization.gpu,
utilization.memory,memory.used,memory.total,power.draw --format=csv -l 60`` would log on a
fleet, or the same table as Parquet. Nodes of eight GPUs follow one of four profiles:

- ``training``: busy around the clock (90-99 %) with short checkpoint dips;
- ``interactive``: a working-day curve (busy 09-19, low at night), idle at weekends;
- ``batch``: jobs of a few hours with idle gaps between them, quiet at weekends;
- ``forgotten``: busy for the first days, then idle to the end — left running after a phase.

Run ``python -m bench.synth_fleet --gpus 500 --days 30 --out fleet.parquet``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

GPUS_PER_NODE = 8
PROFILES = ("training", "interactive", "batch", "forgotten")
MODELS = {"NVIDIA H100 80GB HBM3": 81559.0, "NVIDIA A100-SXM4-80GB": 81920.0}
HEADER = (
    "timestamp",
    "hostname",
    "index",
    "name",
    "uuid",
    "utilization.gpu [%]",
    "utilization.memory [%]",
    "memory.used [MiB]",
    "memory.total [MiB]",
    "power.draw [W]",
)


@dataclass(frozen=True)
class FleetSpec:
    """What to generate. Shares are of nodes; the rest of the nodes are ``training``."""

    gpus: int = 500
    days: float = 30.0
    interval_s: int = 60
    start: str = "2026-06-01T00:00:00"  # a Monday
    seed: int = 7
    interactive_share: float = 0.3
    batch_share: float = 0.25
    forgotten_share: float = 0.05
    model: str = "NVIDIA H100 80GB HBM3"

    @property
    def samples_per_gpu(self) -> int:
        return int(round(self.days * 86400 / self.interval_s))

    @property
    def rows(self) -> int:
        return self.gpus * self.samples_per_gpu


def node_profiles(spec: FleetSpec) -> list[str]:
    """The profile of each node, in node order (deterministic for a seed)."""
    nodes = -(-spec.gpus // GPUS_PER_NODE)
    counts = {
        "interactive": int(round(nodes * spec.interactive_share)),
        "batch": int(round(nodes * spec.batch_share)),
        "forgotten": max(1, int(round(nodes * spec.forgotten_share))) if spec.forgotten_share > 0 else 0,
    }
    counts["training"] = max(0, nodes - sum(counts.values()))
    profiles = [p for p in PROFILES for _ in range(counts[p])][:nodes]
    rng = np.random.default_rng(spec.seed)
    rng.shuffle(profiles)
    return profiles


def _utilization(profile: str, t: np.ndarray, rng: np.random.Generator, spec: FleetSpec) -> np.ndarray:
    """Utilization in percent (0-100) for one GPU at epoch seconds ``t``."""
    n = t.size
    hour = (t % 86400) / 3600.0
    weekday = ((t // 86400).astype(np.int64) + 3) % 7  # 0 = Monday (1970-01-01 was a Thursday)
    weekend = weekday >= 5
    noise = rng.normal(0.0, 4.0, n)
    if profile == "training":
        util = 95.0 + noise * 0.8
        dips = rng.random(n) < 0.01  # checkpoint writes and restarts
        util[dips] = rng.uniform(0, 30, int(dips.sum()))
    elif profile == "interactive":
        day = np.clip(np.sin(np.pi * (hour - 8.0) / 12.0), 0.0, None)  # 08:00-20:00 hump
        util = 3.0 + 82.0 * day + noise
        util[weekend] = rng.uniform(0, 2, int(weekend.sum()))
    elif profile == "batch":
        block = (t // (4 * 3600)).astype(np.int64)  # four-hour scheduling blocks
        busy_blocks = rng.random(int(block.max() - block.min()) + 1) < 0.6
        busy = busy_blocks[block - block.min()] & ~weekend
        util = np.where(busy, 88.0 + noise, rng.uniform(0, 2, n))
    elif profile == "forgotten":
        stop = t[0] + rng.uniform(0.15, 0.35) * (t[-1] - t[0])
        util = np.where(t < stop, 90.0 + noise, rng.uniform(0, 1.5, n))
    else:  # pragma: no cover - PROFILES is closed
        raise ValueError(profile)
    return np.clip(np.rint(util), 0, 100)


def generate_node(spec: FleetSpec, node: int, profile: str, t: np.ndarray) -> dict[str, np.ndarray]:
    """Columns for the GPUs of one node (rows grouped by GPU, time-ordered within)."""
    rng = np.random.default_rng([spec.seed, node])
    first = node * GPUS_PER_NODE
    count = min(GPUS_PER_NODE, spec.gpus - first)
    total_mib = MODELS.get(spec.model, 81559.0)
    cols: dict[str, list[np.ndarray]] = {k: [] for k in ("t", "index", "gpu", "util", "mem_util", "mem", "power")}
    for i in range(count):
        util = _utilization(profile, t, rng, spec)
        base_mem = rng.uniform(0.3, 0.9) * total_mib
        mem = np.where(util > 5, base_mem + rng.normal(0, 500, t.size), rng.uniform(0, 600, t.size))
        cols["t"].append(t)
        cols["index"].append(np.full(t.size, i, dtype=np.int64))
        cols["gpu"].append(np.full(t.size, first + i, dtype=np.int64))
        cols["util"].append(util)
        cols["mem_util"].append(np.clip(np.rint(util * rng.uniform(0.2, 0.6)), 0, 100))
        cols["mem"].append(np.clip(np.rint(mem), 0, total_mib))
        cols["power"].append(np.round(70.0 + util * 5.6 + rng.normal(0, 5, t.size), 2))
    return {k: np.concatenate(v) for k, v in cols.items()}


def _uuid(gpu: np.ndarray) -> list[str]:
    return [f"GPU-{g:08x}-5eed-4a11-9c0d-{g:012x}" for g in gpu]


def _arrow_chunk(spec: FleetSpec, node: int, data: dict[str, np.ndarray]):  # type: ignore[no-untyped-def]
    import pyarrow as pa

    gids = data["gpu"]
    first = int(gids.min())
    uuid_col = pa.array(_uuid(np.arange(first, int(gids.max()) + 1))).take(pa.array(gids - first))
    return pa.table(
        {
            "timestamp": pa.array((data["t"] * 1000).astype("datetime64[ms]")),
            "hostname": pa.array(np.full(data["t"].size, f"node-{node + 1:03d}")),
            "index": pa.array(data["index"]),
            "name": pa.array(np.full(data["t"].size, spec.model)),
            "uuid": uuid_col,
            "utilization.gpu [%]": pa.array(data["util"]),
            "utilization.memory [%]": pa.array(data["mem_util"]),
            "memory.used [MiB]": pa.array(data["mem"]),
            "memory.total [MiB]": pa.array(np.full(data["t"].size, MODELS.get(spec.model, 81559.0))),
            "power.draw [W]": pa.array(data["power"]),
        }
    )


def _csv_lines(table):  # type: ignore[no-untyped-def]
    """nvidia-smi's CSV text for an Arrow chunk: ``2026/06/01 00:00:00.000, node-001, 0, ...``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    def num(name: str, unit: str, digits: int = 0):  # type: ignore[no-untyped-def]
        col = table[name]
        text = pc.cast(pc.cast(col, pa.int64()) if digits == 0 else pc.round(col, digits), pa.string())
        return pc.binary_join_element_wise(text, pa.scalar(unit), "")

    parts = [
        pc.strftime(table["timestamp"], format="%Y/%m/%d %H:%M:%S"),
        table["hostname"],
        pc.cast(table["index"], pa.string()),
        table["name"],
        table["uuid"],
        num("utilization.gpu [%]", " %"),
        num("utilization.memory [%]", " %"),
        num("memory.used [MiB]", " MiB"),
        num("memory.total [MiB]", " MiB"),
        num("power.draw [W]", " W", 2),
    ]
    return pc.binary_join_element_wise(*parts, ", ")


def write_fleet(out: str | Path, spec: FleetSpec, *, progress=None) -> dict:  # type: ignore[no-untyped-def]
    """Write the fleet's telemetry to ``out`` (``.parquet``, ``.csv`` or ``.csv.gz``).

    Returns a description: rows, GPUs, the profile of each node and the forgotten GPUs' uuids,
    so that tests and demos can check what the analysis finds.
    """
    import contextlib
    import gzip

    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    out = Path(out)
    start = datetime.fromisoformat(spec.start).replace(tzinfo=UTC).timestamp()
    t = start + np.arange(spec.samples_per_gpu, dtype=np.float64) * spec.interval_s
    profiles = node_profiles(spec)
    parquet = out.suffix == ".parquet"
    forgotten: list[str] = []
    with contextlib.ExitStack() as stack:
        writer = None
        sink = None
        if not parquet:
            opener = gzip.open if out.suffix == ".gz" else open
            sink = stack.enter_context(opener(out, "wb"))
            sink.write((", ".join(HEADER) + "\n").encode())
        for node, profile in enumerate(profiles):
            data = generate_node(spec, node, profile, t)
            table = _arrow_chunk(spec, node, data)
            if profile == "forgotten":
                forgotten.extend(sorted(set(table["uuid"].to_pylist())))
            if sink is None:
                if writer is None:
                    writer = stack.enter_context(pq.ParquetWriter(out, table.schema, compression="zstd"))
                writer.write_table(table)
            else:
                lines = pa.table({"line": _csv_lines(table)})
                opts = pacsv.WriteOptions(include_header=False, quoting_style="none", delimiter="\t")
                buf = pa.BufferOutputStream()
                pacsv.write_csv(lines, buf, write_options=opts)
                sink.write(buf.getvalue().to_pybytes())
            if progress is not None:
                progress(node + 1, len(profiles))
    return {
        "path": str(out),
        "rows": spec.rows,
        "gpus": spec.gpus,
        "samples_per_gpu": spec.samples_per_gpu,
        "profiles": profiles,
        "forgotten_uuids": forgotten,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.synth_fleet", description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", type=int, default=500)
    parser.add_argument("--days", type=float, default=30.0)
    parser.add_argument("--interval", type=int, default=60, help="seconds between samples")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--start", default=FleetSpec.start, help="ISO start time (local time of the log)")
    parser.add_argument("--forgotten-share", type=float, default=FleetSpec.forgotten_share)
    parser.add_argument("--out", required=True, help="output file: .parquet, .csv or .csv.gz")
    args = parser.parse_args(argv)
    if args.gpus < 1 or args.days <= 0 or args.interval < 1:
        print("error: --gpus, --days and --interval must be positive", file=sys.stderr)
        return 2
    spec = FleetSpec(
        gpus=args.gpus,
        days=args.days,
        interval_s=args.interval,
        seed=args.seed,
        start=args.start,
        forgotten_share=args.forgotten_share,
    )

    def show(done: int, total: int) -> None:
        print(f"\rwriting {args.out}: node {done}/{total}", end="", file=sys.stderr, flush=True)

    info = write_fleet(args.out, spec, progress=show)
    print(file=sys.stderr)
    print(f"{info['rows']:,} rows, {info['gpus']} GPUs -> {info['path']}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
