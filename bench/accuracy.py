"""Pre-training accuracy: fit the MFU model on published runs and cross-validate it.

``python -m bench.accuracy`` prints the fitted factors (to copy into defaults.yaml), the
leave-one-out error by regime and the generalisation error on the excluded runs. The same
tables are printed by ``make bench`` (bench_accuracy).

Method. Every run goes through the engine (``estimate``) as a user would ask for it. The
engine's GPU-hours at MFU 1 (recomputation included) and its failure share give each run's
implied compute MFU; log MFU is regressed on the factors of ``advisor.engine.throughput``
(generation, size by generation, cluster size, era, MoE, benchmark row) with a small ridge
penalty toward "no effect". Leave-one-out: each run is predicted by the engine with the
factors fitted on the other runs. Bands: each run's conformal 80 % interval of the other runs'
leave-one-out log errors of its card generation (``regime_band``). Benchmark rows (steady-state steps) are compared with
the whole-run estimate through ``mfu.benchmark_factor`` and ``mfu.benchmark_size_exponent``
(by card generation): on Hopper, framework tables run at the same MFU for 1B-70B models, whole
runs do not.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from advisor.catalog.defaults import DefaultEntry, Defaults
from advisor.engine.estimate import estimate, estimate_job
from advisor.engine.models import EstimateRequest
from advisor.engine.params import Params
from advisor.engine.throughput import era_key, regime

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "knowledge" / "calibration" / "pretrain_runs.yaml"
EXCLUDED = ROOT / "knowledge" / "calibration" / "excluded_runs.yaml"
RIDGE = 1.0  # penalty on each factor's log toward 0 (no effect); the intercept is free
# Factors fitted (indices into NAMES). Chosen by leave-one-out error among the subsets of the
# size, cluster and era factors: with 32 runs, a model-size slope on A100-class cards, a
# cluster-size slope and a 2023-vs-today era step do not generalise (see docs/ACCURACY.md).
# The Hopper benchmark terms (9, 10) let framework tables stay flat in model size.
USED = [0, 1, 3, 5, 7, 8, 9, 10, 11]
# The floors below which the size slope and the width factor stop (mfu.size_floor_b,
# mfu.width_floor) are fitted too: every pair of this grid is tried inside each fit.
FLOORS = [(s, w) for s in (1.0, 3.0, 7.0, 14.0) for w in (1024, 1536, 2048, 3072, 4096)]
# Band (regime_band): the conformal interval of the held-out errors for the coverage the band
# promises, by card generation, shrunk toward all runs (prior weight of SHRINK runs) and at most
# MAX_RATIO wide (high / low). Fixed before it was evaluated (session 6).
COVERAGE = 0.8
# The MFU a run's features are computed at. It only picks the GPU count of the runs that do not
# state one (and so their failure share); at the fitted factors' MFU instead, the count would
# depend on a fit that saw every run.
FEATURE_MFU = 0.3
SHRINK = 8.0
MAX_RATIO = 2.0
NAMES = ("log_base", "log_hopper", "size_exp_default", "size_exp_hopper_extra", "cluster_exp", "log_era_2022",
         "log_era_2023", "log_moe", "log_benchmark", "log_benchmark_hopper", "size_exp_benchmark_hopper",
         "width_exp_hopper")
# Pre-training MFU of one node for generations with no published run in the set: the values the
# engine used before this calibration (base 0.51 x generation factor; defaults.yaml history).
PRIOR_MFU = {"blackwell": 0.3825, "ada": 0.4335, "volta": 0.4335, "turing": 0.306, "cdna3": 0.357, "davinci": 0.357}
REGIMES = ("ampere", "hopper")
# reporting only: GPU count of each run's estimate; active parameters (billions)
CLUSTERS = {"gpus_1_64": (1, 64), "gpus_65_1024": (65, 1024), "gpus_above_1024": (1025, 10**9)}
SIZES = {"active_below_3b": (0.0, 3.0), "active_3_20b": (3.0, 20.0), "active_above_20b": (20.0, 1e6)}


def load(path: Path = RUNS) -> list[dict[str, Any]]:
    return list(yaml.safe_load(path.read_text(encoding="utf-8"))["runs"])


def fitted(row: dict[str, Any]) -> bool:
    """Runs whose GPU-hours measure something else than 6·N·D training are kept aside."""
    return not row.get("distilled") and row.get("basis") != "upper_bound"


def request(row: dict[str, Any]) -> EstimateRequest:
    model = dict(model=row["model"]) if row.get("model") else dict(params_b=row["params_b"])
    if row.get("model") and row.get("params_b") and row.get("basis") == "throughput":
        model = dict(model=row["model"])
    return EstimateRequest(
        method="pretrain", tokens_b=row["tokens_b"], gpu=row["gpu"], gpu_count=row.get("gpu_count"),
        seq_len=row.get("seq_len"), precision=row.get("precision"), software_era=str(row["year"]),
        active_params_b=row.get("active_params_b"), **model, **(row.get("shape") or {}),
    )


class _Catalog:
    """The shipped catalog with some defaults replaced (for a cross-validation fold)."""

    def __init__(self, base: Any, values: dict[str, Any]) -> None:
        self._base = base
        entries = {k: base.defaults.get(k) for k in base.defaults}
        for key, value in values.items():
            old = entries[key]
            entries[key] = DefaultEntry(key=key, value=value, unit=old.unit, source=old.source)
        self.defaults = Defaults(base.defaults.path, entries)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def to_defaults(theta: np.ndarray, base: Defaults) -> dict[str, Any]:
    """Fitted coefficients as defaults.yaml values."""
    gen = dict(base.value("mfu.generation_factor"))
    hopper = float(math.exp(theta[1]))
    new_base = math.exp(theta[0])
    # Generations without published runs keep their prior absolute MFU (no data to move it).
    for g, prior in PRIOR_MFU.items():
        gen[g] = round(prior / new_base, 3)
    gen["ampere"], gen["hopper"] = 1.0, round(hopper, 3)
    era = dict(base.value("mfu.era_factor"))
    era.update({"2022": round(math.exp(theta[5]), 3), "2023": round(math.exp(theta[6]), 3), "current": 1.0})
    return {
        "mfu.base": round(math.exp(theta[0]), 4),
        "mfu.generation_factor": gen,
        "mfu.size_exponent": {"default": round(float(theta[2]), 3), "hopper": round(float(theta[2] + theta[3]), 3)},
        "mfu.cluster_exponent": round(float(theta[4]), 4),
        "mfu.era_factor": era,
        "mfu.moe_factor": round(math.exp(theta[7]), 3),
        "mfu.benchmark_factor": {"default": round(math.exp(theta[8]), 3),
                                 "hopper": round(math.exp(theta[8] + theta[9]), 3)},
        "mfu.benchmark_size_exponent": {"default": 0.0, "hopper": round(float(theta[10]), 3)},
        "mfu.width_exponent": {"default": 0.0, "hopper": round(float(theta[11]), 3)},
        "mfu.size_floor_b": float(theta[-2]),
        "mfu.width_floor": int(theta[-1]),
    }


@dataclass
class Run:
    row: dict[str, Any]
    y: float  # log implied compute MFU, fixed factors (method, fp8) removed
    regime: str
    published: float
    gpus: int
    hopper: float
    active: float  # active parameters, billions
    width: float  # narrowest matrix dimension (Shape.width)
    base: np.ndarray  # the features that do not depend on a floor

    def x(self, size_floor: float, width_floor: float) -> np.ndarray:
        """The regression features with the size and width floors of one fit (``NAMES``)."""
        size = math.log(max(self.active, size_floor) / 7.0)  # as throughput.size_factor
        bench = self.base[8]
        out = self.base.copy()
        out[2], out[3] = size, size * self.hopper
        out[10] = bench * math.log(self.active / 7.0) * self.hopper
        out[11] = self.hopper * math.log(min(self.width, width_floor) / width_floor)
        return out


def features(row: dict[str, Any], catalog: Any) -> Run:
    """One run through the engine at the fixed ``FEATURE_MFU``: its features and implied compute
    MFU, the same whatever the factors are (no fit reaches into another fit's data)."""
    report, w = estimate_job(request(row).model_copy(update={"mfu": FEATURE_MFU}), catalog)
    p = Params(catalog.defaults)
    gpu = catalog.gpu(report.gpu.name)
    mfu = report.mfu.expected
    at_mfu1 = report.compute_gpu_hours.expected * mfu
    share = report.gpu_hours.expected / report.compute_gpu_hours.expected
    implied = at_mfu1 * share / float(row["gpu_hours"])
    fixed = 1.0
    if report.gpu.precision == "fp8":
        fixed *= float(p("mfu.fp8_factor"))
    n = report.gpu.count
    node = float(p("memory.gpus_per_node"))
    hopper = 1.0 if gpu.generation == "hopper" else 0.0
    bench = 1.0 if row.get("basis") == "throughput" else 0.0
    era = era_key(str(row["year"]), p)
    base = np.asarray([
        1.0, hopper, 0.0, 0.0, -math.log(max(n, node) / node),
        1.0 if era == "2022" else 0.0, 1.0 if era == "2023" else 0.0,
        1.0 if report.inputs["active_params_b"] < report.inputs["params_b"] * 0.999 else 0.0,
        bench, bench * hopper, 0.0, 0.0,
    ])
    return Run(row=row, y=math.log(implied / fixed), regime=regime("pretrain", gpu.generation, p),
               published=float(row["gpu_hours"]), gpus=n, hopper=hopper,
               active=max(float(report.inputs["active_params_b"]), 1e-3), width=float(w.shape.width), base=base)


def fit(runs: list[Run]) -> np.ndarray:
    """The factors of ``NAMES`` (those not in ``USED`` stay at no effect) and the two floors
    (``FLOORS``: size and width). For every floor pair: least absolute log error (IRLS) with a
    ridge penalty toward "no effect"; the pair of least objective (sum |residual| + RIDGE / 2 ·
    |theta|^2, what the IRLS minimises) is kept."""
    x = np.stack([np.stack([r.x(*f) for r in runs])[:, USED] for f in FLOORS])  # floors × runs × factors
    y = np.asarray([r.y for r in runs])
    penalty = np.eye(len(USED)) * RIDGE
    penalty[0, 0] = 0.0
    weights = np.ones((len(FLOORS), len(y)))
    for _ in range(40):
        xw = x * weights[:, :, None]
        theta = np.linalg.solve(xw.transpose(0, 2, 1) @ x + penalty, (xw.transpose(0, 2, 1) @ y)[:, :, None])[:, :, 0]
        residual = np.abs(y - np.einsum("fnk,fk->fn", x, theta))
        weights = 1.0 / np.maximum(residual, 0.05)
    best = int(np.argmin(residual.sum(axis=1) + 0.5 * np.einsum("fk,kl,fl->f", theta, penalty, theta)))
    out = np.zeros(len(NAMES) + 2)
    out[USED] = theta[best]
    out[-2:] = FLOORS[best]
    return out


def predict(row: dict[str, Any], catalog: Any, theta: np.ndarray | None) -> Any:
    """The engine's estimate for ``row``, with the factors ``theta`` (None = shipped defaults)."""
    cat = catalog if theta is None else _Catalog(catalog, to_defaults(theta, catalog.defaults))
    report = estimate(request(row), cat)
    if row.get("basis") == "throughput":
        # a benchmark table measures steady state: faster than a whole run by benchmark_factor
        factor = benchmark_conversion(cat, report)
        report.gpu_hours.expected /= factor
        report.gpu_hours.low /= factor
        report.gpu_hours.high /= factor
    return report


def benchmark_conversion(catalog: Any, report: Any) -> float:
    """Steady-state benchmark MFU / whole-run MFU for the report's card and model size."""
    gen = catalog.gpu(report.gpu.name).generation
    factor, exponent = catalog.defaults.value("mfu.benchmark_factor"), catalog.defaults.value("mfu.benchmark_size_exponent")
    size = max(float(report.inputs["active_params_b"]), 1e-3) / 7.0
    return float(factor.get(gen, factor["default"])) * size ** float(exponent.get(gen, exponent["default"]))


def held_out(runs: list[Run], catalog: Any) -> tuple[list[float], list[int]]:
    """Leave-one-out log errors log(published / estimate), each run predicted by the engine with
    the factors and floors fitted on the other runs, and the GPU counts of those estimates."""
    reports = [predict(run.row, catalog, fit(runs[:i] + runs[i + 1:])) for i, run in enumerate(runs)]
    return ([math.log(run.published / r.gpu_hours.expected) for run, r in zip(runs, reports, strict=True)],
            [r.gpu.count for r in reports])


def cross_validate(catalog: Any, nested: bool = True) -> dict[str, Any]:
    """Leave-one-out over the fitted runs. Run i's band is the regime band (``regime_band``) of
    the other runs' leave-one-out errors, computed without run i (a leave-one-out inside the
    fold: nothing fitted for run i saw it); ``nested=False`` takes them from the outer loop
    (faster; each of those fits saw run i)."""
    rows = [r for r in load() if fitted(r)]
    runs = [features(r, catalog) for r in rows]
    errors, counts = held_out(runs, catalog)
    for run, n in zip(runs, counts, strict=True):
        run.gpus = n  # the cluster-size rows report the count of the run's own estimate
    bands = []
    for i, run in enumerate(runs):
        rest = runs[:i] + runs[i + 1:]
        inner = held_out(rest, catalog)[0] if nested else errors[:i] + errors[i + 1:]
        bands.append(regime_band([e for e, r in zip(inner, rest, strict=True) if r.regime == run.regime], inner))
    return {"runs": runs, "errors": errors, "bands": bands, "theta": fit(runs)}


def conformal(errors: list[float]) -> tuple[float, float] | None:
    """The k-th smallest and k-th largest of m errors, k = floor((1 - COVERAGE) / 2 · (m + 1)): it
    contains a new exchangeable error with probability ≥ COVERAGE. None when m is too small."""
    ranked, k = sorted(errors), math.floor(round((1 - COVERAGE) / 2 * (len(errors) + 1), 9))
    return (ranked[k - 1], ranked[-k]) if k >= 1 else None


def regime_band(same: list[float], pooled: list[float]) -> tuple[float, float]:
    """A regime's band from held-out log errors: its conformal interval (``conformal``) shrunk
    toward the pooled one with weight m / (m + SHRINK), the pooled one alone when the regime has too
    few errors; then narrowed around its centre to high / low = MAX_RATIO."""
    low, high = conformal(pooled) or (min(pooled), max(pooled))
    own = conformal(same)
    if own:
        w = len(same) / (len(same) + SHRINK)
        low, high = w * own[0] + (1 - w) * low, w * own[1] + (1 - w) * high
    half = min(high - low, math.log(MAX_RATIO)) / 2
    return (low + high) / 2 - half, (low + high) / 2 + half


def band_table(runs: list[Run], errors: list[float]) -> dict[str, list[float]]:
    """Each regime's band (``regime_band``) for defaults.yaml; 'uncalibrated' is their envelope."""
    out: dict[str, list[float]] = {}
    widest = [0.0, 0.0]
    for name in REGIMES:
        lo, hi = regime_band([e for e, r in zip(errors, runs, strict=True) if r.regime == name], errors)
        out[name] = [round(lo, 3), round(hi, 3)]
        widest = [min(widest[0], lo), max(widest[1], hi)]
    out["uncalibrated"] = [round(widest[0], 3), round(widest[1], 3)]
    return out


def summary(errors: list[float], bands: list[tuple[float, float]]) -> dict[str, Any]:
    abs_pct = [abs(math.exp(-e) - 1) for e in errors]  # |estimate / published - 1|
    inside = [lo <= e <= hi for e, (lo, hi) in zip(errors, bands, strict=True)]
    ratios = [math.exp(hi - lo) for lo, hi in bands]
    return {
        "runs": len(errors),
        "median_abs_error_pct": round(100 * statistics.median(abs_pct), 1) if abs_pct else None,
        "band_contains_published_pct": round(100 * sum(inside) / len(inside), 1) if inside else None,
        "band_high_over_low_median": round(statistics.median(ratios), 2) if ratios else None,
        "band_high_over_low_max": round(max(ratios), 2) if ratios else None,
    }


def by_regime(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    runs, errors, bands = result["runs"], result["errors"], result["bands"]
    out = {"all": summary(errors, bands)}
    groups = {name: [r.regime == name for r in runs] for name in REGIMES}
    groups.update({label: [lo <= r.gpus <= hi for r in runs] for label, (lo, hi) in CLUSTERS.items()})
    groups.update({label: [lo <= r.active < hi for r in runs] for label, (lo, hi) in SIZES.items()})
    for name, member in groups.items():
        idx = [i for i, m in enumerate(member) if m]
        out[name] = summary([errors[i] for i in idx], [bands[i] for i in idx])
    return out


def generalisation(catalog: Any, path: Path = EXCLUDED) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The shipped engine on runs it was never fitted on (the excluded runs): error and band coverage."""
    rows = load(path) if path.exists() else []
    table, errors, bands = [], [], []
    for row in rows:
        r = predict(row, catalog, None)
        e = math.log(row["gpu_hours"] / r.gpu_hours.expected)
        lo, hi = math.log(r.gpu_hours.low / r.gpu_hours.expected), math.log(r.gpu_hours.high / r.gpu_hours.expected)
        errors.append(e)
        bands.append((lo, hi))
        table.append({"id": row["id"], "published": row["gpu_hours"], "estimate": round(r.gpu_hours.expected),
                      "error_pct": round(100 * (r.gpu_hours.expected / row["gpu_hours"] - 1), 1),
                      "in_band": lo <= e <= hi, "layout": f"tp{r.memory.layout.tensor_parallel}"
                      f"{'+recompute' if r.memory.layout.gradient_checkpointing else ''}"})
    return summary(errors, bands), table


def bias_causes(catalog: Any) -> list[dict[str, Any]]:
    """Where each excluded run's error comes from: the estimate / published ratio split into the
    engine's time multipliers (failure overhead, recomputation, software era, model size on the
    card, benchmark-vs-whole-run) and what is left, the MFU level of the card generation."""
    from advisor.engine.throughput import size_factor
    from advisor.engine.workload import recompute_factor

    p = Params(catalog.defaults)
    out = []
    for row in load(EXCLUDED) if EXCLUDED.exists() else []:
        r = predict(row, catalog, None)
        ratio = r.gpu_hours.expected / float(row["gpu_hours"])
        parts = {
            "failures": r.gpu_hours.expected / r.compute_gpu_hours.expected
            * (benchmark_conversion(catalog, r) if row.get("basis") == "throughput" else 1.0),
            "recompute": recompute_factor("pretrain", bool(r.memory.layout.gradient_checkpointing), p),
            "era": 1.0 / float(p("mfu.era_factor")[era_key(str(row["year"]), p)]),
            "size": 1.0 / float(size_factor(float(r.inputs["active_params_b"]), catalog.gpu(r.gpu.name).generation, p)),
            "benchmark": 1.0 / benchmark_conversion(catalog, r) if row.get("basis") == "throughput" else 1.0,
        }
        level = ratio / math.prod(parts.values())
        out.append({"id": row["id"], "estimate_over_published": round(ratio, 3),
                    **{k: round(v, 3) for k, v in parts.items()}, "level": round(level, 3)})
    return out


DEFAULTS = ROOT / "knowledge" / "catalog" / "defaults.yaml"


def write_defaults(values: dict[str, Any], path: Path = DEFAULTS) -> None:
    """Replace the ``value:`` of each key in defaults.yaml, keeping units, sources and comments."""
    text = path.read_text(encoding="utf-8")
    for key, value in values.items():
        start = text.index(f"\n{key}:\n") + 1
        end = text.index("\n  unit:", start)
        if isinstance(value, dict):
            items = [f"    {json.dumps(k) if str(k).isdigit() else k}: {json.dumps(v)}" for k, v in value.items()]
            block = "  value:\n" + "\n".join(items)
        else:
            block = f"  value: {json.dumps(value)}"
        text = text[:start] + f"{key}:\n" + block + text[end:]
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    import sys

    from advisor.catalog import get_catalog

    args = sys.argv[1:] if argv is None else argv
    catalog = get_catalog()
    result = cross_validate(catalog)
    if "--write" in args:
        values = to_defaults(result["theta"], catalog.defaults)
        values["mfu.band_by_regime"] = band_table(result["runs"], result["errors"])
        write_defaults(values)
        catalog = get_catalog()
    print("fitted factors (all fitted runs):")
    for key, value in to_defaults(result["theta"], catalog.defaults).items():
        print(f"  {key}: {value}")
    print(f"  mfu.band_by_regime: {band_table(result['runs'], result['errors'])}")
    print("leave-one-out by regime:")
    for name, figures in by_regime(result).items():
        print(f"  {name:16s} {figures}")
    print("per run (leave-one-out):")
    for run, e, (lo, hi) in zip(result["runs"], result["errors"], result["bands"], strict=True):
        print(f"  {run.row['id']:24s} {run.regime:15s} published/estimate {math.exp(e):5.2f}  band [{math.exp(lo):.2f}, "
              f"{math.exp(hi):.2f}] {'in' if lo <= e <= hi else 'OUT'}")
    overall, table = generalisation(catalog)
    print(f"excluded runs (generalisation): {overall}")
    for row in table:
        print(f"  {row}")
    print("excluded runs: estimate/published as time multipliers (failures x recompute x era x size x benchmark x level)")
    for row in bias_causes(catalog):
        print(f"  {row}")


if __name__ == "__main__":
    main()
