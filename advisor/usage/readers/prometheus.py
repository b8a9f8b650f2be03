"""Prometheus exposition text from GPU exporters: nvidia_gpu_exporter and DCGM exporter.

A file is one scrape (``curl host:9835/metrics``) or several concatenated; a sample may carry
its own timestamp (milliseconds), otherwise the file's modification time stands for the
scrape time. Per GPU and time, the utilization sample becomes one telemetry sample and the
memory samples of the same GPU and time are attached to it. The file is streamed: parsed
lines go to the engine in bounded chunks and the joining is done in SQL.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from advisor.errors import DocumentError
from advisor.usage import columns as C
from advisor.usage import queries as Q
from advisor.usage.defaults import load_defaults
from advisor.usage.detect import Detected, open_text
from advisor.usage.readers.common import (
    SKIP_NO_UTILIZATION,
    SKIP_OTHER_METRIC,
    SKIP_SUPERSEDED,
    TELEMETRY_STAGE,
    FileSummary,
    arrow_schema,
)

# metric name -> (what it measures, factor to our unit), in order of preference (columns.yaml)
METRICS: dict[str, tuple[str, float]] = {k: (str(v[0]), float(v[1])) for k, v in C.PROMETHEUS["metrics"].items()}
PREFERENCE = {name: i for i, name in enumerate(METRICS)}
_LABELS = C.PROMETHEUS["labels"]
UUID_LABELS, INDEX_LABELS, MODEL_LABELS, HOST_LABELS = (tuple(_LABELS[k]) for k in ("uuid", "index", "model", "host"))

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


OBS_TABLE = "prom_obs"
MODELS_TABLE = "prom_models"


def _obs_arrow(chunk: list[tuple]):  # type: ignore[no-untyped-def]
    import pyarrow as pa

    schema = arrow_schema(Q.PROM_OBS_DDL)
    cols: list[Any] = list(zip(*chunk, strict=True)) if chunk else [[] for _ in schema]
    return pa.table([pa.array(list(c), type=f.type) for c, f in zip(cols, schema, strict=True)], schema=schema)


def chunk_rows() -> int:
    return max(1, int(load_defaults().number("engine.prometheus_chunk_rows")))


def read_prometheus(engine, det: Detected, src: int, instance: str) -> FileSummary:  # type: ignore[no-untyped-def]
    """Samples of GPU-exporter metrics -> rows of the telemetry staging table, and their
    accounting. The file is streamed: parsed lines go to the engine in chunks of
    ``engine.prometheus_chunk_rows`` (usage_defaults.yaml), and SQL joins the metrics of each
    GPU and time, so memory stays bounded whatever the file's size."""
    path = det.name
    default_t = Path(det.path).stat().st_mtime
    rows_read = other = 0
    models: dict[tuple[str, str], str] = {}
    limit = chunk_rows()
    chunk: list[tuple] = []
    for ddl in (f"DROP TABLE IF EXISTS {OBS_TABLE}", Q.PROM_OBS_DDL):
        engine.execute(ddl)

    def flush() -> None:
        if chunk:
            engine.load_arrow(OBS_TABLE, _obs_arrow(chunk), append=True)
            chunk.clear()

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
                models[(host, gpu_id)] = model
            if kind == "info":
                continue  # used: it names the GPU model
            t = int(m.group("ts")) / 1000.0 if m.group("ts") else default_t
            if kind == "util" and math.isfinite(value) and not 0 <= value * factor <= 1:
                raise DocumentError(path, f"line {line_no}, metric {name!r}: {value:g} is outside the metric's range")
            # NaN: the exporter had no value; the line is still accounted with its GPU and time
            chunk.append((host, gpu_id, t, kind, PREFERENCE[name], line_no, value * factor if math.isfinite(value) else None))
            if len(chunk) >= limit:
                flush()
    flush()
    if rows_read == 0:
        raise DocumentError(path, "no Prometheus samples")
    import pyarrow as pa

    engine.load_arrow(MODELS_TABLE, pa.table({"host": [k[0] for k in models], "gpu_id": [k[1] for k in models],
                                              "model": list(models.values())},
                                             schema=pa.schema([(n, pa.string()) for n in ("host", "gpu_id", "model")])))
    try:
        counts = engine.one(Q.PROM_COUNTS, {"default_t": default_t})
        if not counts.get("keys"):
            raise DocumentError(
                path,
                "no GPU utilization metric (nvidia_smi_utilization_gpu_ratio or DCGM_FI_DEV_GPU_UTIL)",
            )
        engine.execute(Q.PROM_STAGE, {"src": src})
        gpus = engine.one(f"SELECT COUNT(*) AS n FROM (SELECT DISTINCT instance, gpu_id FROM {TELEMETRY_STAGE}) g")
    finally:
        engine.execute(f"DROP TABLE IF EXISTS {OBS_TABLE}")
        engine.execute(f"DROP TABLE IF EXISTS {MODELS_TABLE}")
    no_util, superseded = int(counts["no_util"]), int(counts["superseded"])
    used = rows_read - other - no_util - superseded
    skipped = {k: v for k, v in ((SKIP_OTHER_METRIC, other), (SKIP_NO_UTILIZATION, no_util), (SKIP_SUPERSEDED, superseded)) if v}
    summary = FileSummary(
        path=path,
        kind="prometheus",
        format="Prometheus exposition text (GPU exporter)",
        rows_read=rows_read,
        rows_used=used,
        rows_skipped=skipped,
        gpus=int(gpus["n"]),
    )
    if not counts["timed"]:
        summary.notes.append("samples carry no timestamps: the file's modification time is used as the scrape time")
    return summary
