"""Prometheus exposition text from GPU exporters: nvidia_gpu_exporter and DCGM exporter.

A file is one scrape (``curl host:9835/metrics``) or several concatenated; a sample may carry
its own timestamp (milliseconds), otherwise the file's modification time stands for the
scrape time. Per GPU and time, the utilization sample becomes one telemetry sample and the
memory samples of the same GPU and time are attached to it.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from pathlib import Path

from advisor.errors import DocumentError
from advisor.usage.detect import Detected, open_text
from advisor.usage.readers.common import (
    SKIP_NO_UTILIZATION,
    SKIP_OTHER_METRIC,
    SKIP_SUPERSEDED,
    FileSummary,
)

# metric name -> (what it measures, factor to our unit). Utilization as a fraction, memory in
# MiB. Listed in order of preference when an exporter sends two of one kind.
METRICS: dict[str, tuple[str, float]] = {
    "DCGM_FI_DEV_GPU_UTIL": ("util", 0.01),  # percent
    "nvidia_smi_utilization_gpu_ratio": ("util", 1.0),  # nvidia_gpu_exporter: ratio 0..1
    "nvidia_gpu_duty_cycle": ("util", 0.01),  # older NVIDIA exporters: percent
    "DCGM_FI_DEV_FB_USED": ("mem_used_mib", 1.0),  # MiB
    "nvidia_smi_memory_used_bytes": ("mem_used_mib", 1.0 / 2**20),
    "nvidia_gpu_memory_used_bytes": ("mem_used_mib", 1.0 / 2**20),
    "nvidia_smi_memory_total_bytes": ("mem_total_mib", 1.0 / 2**20),
    "nvidia_gpu_memory_total_bytes": ("mem_total_mib", 1.0 / 2**20),
    "DCGM_FI_DEV_FB_FREE": ("mem_free_mib", 1.0),
    "DCGM_FI_DEV_FB_RESERVED": ("mem_reserved_mib", 1.0),
    "nvidia_smi_gpu_info": ("info", 1.0),
}
PREFERENCE = {name: i for i, name in enumerate(METRICS)}
UUID_LABELS = ("UUID", "uuid")
INDEX_LABELS = ("gpu", "index", "minor_number")
MODEL_LABELS = ("modelName", "name", "model")
HOST_LABELS = ("Hostname", "hostname", "instance", "node")

_SAMPLE = re.compile(
    r"^(?P<name>[A-Za-z_:][A-Za-z0-9_:]*)(?:\{(?P<labels>.*)\})?\s+(?P<value>\S+)(?:\s+(?P<ts>-?\d+))?\s*$"
)
_LABEL = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?')


def parse_labels(text: str | None) -> dict[str, str] | None:
    """``a="1",b="x\\"y"`` -> ``{"a": "1", "b": 'x"y'}``; None when malformed."""
    out: dict[str, str] = {}
    if not text:
        return out
    pos = 0
    while pos < len(text):
        m = _LABEL.match(text, pos)
        if not m:
            return None if text[pos:].strip() else out
        out[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")
        pos = m.end()
    return out


def _first(labels: dict[str, str], keys: tuple[str, ...]) -> str | None:
    for k in keys:
        v = labels.get(k)
        if v:
            return v
    return None


def read_prometheus(det: Detected, src: int, instance: str) -> tuple[FileSummary, list[dict]]:
    """Samples of GPU-exporter metrics -> staging rows and their accounting."""
    path = det.name
    default_t = Path(det.path).stat().st_mtime
    rows_read = 0
    other = 0
    superseded = 0
    models: dict[str, str] = {}
    # (instance, gpu_id, t) -> {kind: (preference, value)} and the lines that fed it
    obs: dict[tuple[str, str, float], dict[str, tuple[int, float]]] = defaultdict(dict)
    lines_of: dict[tuple[str, str, float], int] = defaultdict(int)
    with open_text(Path(det.path)) as fh:
        for line_no, line in enumerate(fh, start=1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            m = _SAMPLE.match(s)
            labels = parse_labels(m.group("labels")) if m else None
            if m is None or labels is None:
                raise DocumentError(path, f"line {line_no}: not a Prometheus sample ({s[:60]!r})")
            rows_read += 1
            name = m.group("name")
            if name not in METRICS:
                other += 1
                continue
            try:
                value = float(m.group("value"))
            except ValueError as exc:
                raise DocumentError(path, f"line {line_no}, metric {name!r}: {m.group('value')!r} is not a number") from exc
            kind, factor = METRICS[name]
            uuid = _first(labels, UUID_LABELS)
            index = _first(labels, INDEX_LABELS)
            gpu_id = uuid or (f"index {index}" if index is not None else None)
            if gpu_id is None:
                raise DocumentError(path, f"line {line_no}, metric {name!r}: no GPU label (uuid, UUID or gpu)")
            host = _first(labels, HOST_LABELS) or instance
            model = _first(labels, MODEL_LABELS)
            if model:
                models[f"{host}\x00{gpu_id}"] = model
            if kind == "info":
                continue  # used: it names the GPU model
            t = int(m.group("ts")) / 1000.0 if m.group("ts") else default_t
            key = (host, gpu_id, t)
            lines_of[key] += 1
            if kind == "util" and math.isfinite(value) and not 0 <= value * factor <= 1:
                raise DocumentError(path, f"line {line_no}, metric {name!r}: {value:g} is outside the metric's range")
            if not math.isfinite(value):
                continue  # NaN: the exporter had no value; the line is accounted with its key
            pref = PREFERENCE[name]
            held = obs[key].get(kind)
            if held is not None:
                superseded += 1  # two metrics of one kind for a GPU and time: keep the preferred
            if held is None or pref < held[0]:
                obs[key][kind] = (pref, value * factor)
    rows: list[dict] = []
    no_util = 0
    for key, vals in obs.items():
        if "util" not in vals:
            no_util += lines_of[key]
            continue
        host, gpu_id, t = key
        mem_total = vals.get("mem_total_mib", (0, None))[1]
        if mem_total is None and "mem_used_mib" in vals and "mem_free_mib" in vals:
            mem_total = vals["mem_used_mib"][1] + vals["mem_free_mib"][1] + vals.get("mem_reserved_mib", (0, 0.0))[1]
        rows.append(
            {
                "src": src,
                "instance": host,
                "gpu_id": gpu_id,
                "model": models.get(f"{host}\x00{gpu_id}"),
                "t": t,
                "util": vals["util"][1],
                "mem_used_mib": vals.get("mem_used_mib", (0, None))[1],
                "mem_total_mib": mem_total,
            }
        )
    if rows_read == 0:
        raise DocumentError(path, "no Prometheus samples")
    if not rows:
        raise DocumentError(
            path,
            "no GPU utilization metric (nvidia_smi_utilization_gpu_ratio or DCGM_FI_DEV_GPU_UTIL)",
        )
    used = rows_read - other - no_util - superseded
    counts = ((SKIP_OTHER_METRIC, other), (SKIP_NO_UTILIZATION, no_util), (SKIP_SUPERSEDED, superseded))
    skipped = {k: v for k, v in counts if v}
    summary = FileSummary(
        path=path,
        kind="prometheus",
        format="Prometheus exposition text (GPU exporter)",
        rows_read=rows_read,
        rows_used=used,
        rows_skipped=skipped,
        gpus=len({(r["instance"], r["gpu_id"]) for r in rows}),
    )
    if all(r["t"] == default_t for r in rows):
        summary.notes.append("samples carry no timestamps: the file's modification time is used as the scrape time")
    return summary, rows
