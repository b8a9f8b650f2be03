"""Accuracy figures (docs/ACCURACY.md): pre-training GPU-hours cross-validated by regime, the
generalisation error on the excluded runs, and the failure model against the Llama 3 log."""

from __future__ import annotations

from typing import Any


def run() -> dict[str, Any]:
    from advisor.catalog import get_catalog
    from advisor.engine.failures import failure_overhead
    from advisor.engine.params import Params
    from bench import accuracy

    catalog = get_catalog()
    result = accuracy.cross_validate(catalog)
    out: dict[str, Any] = {}
    for name, figures in accuracy.by_regime(result).items():
        out[f"pretrain_loo_{name}"] = figures
    overall, table = accuracy.generalisation(catalog)
    out["excluded_runs_generalisation"] = overall
    for row in table:
        out[f"excluded_{row['id']}"] = (f"published {row['published']:,} est {row['estimate']:,} "
                                        f"({row['error_pct']:+.1f} %, {'in' if row['in_band'] else 'out of'} band, "
                                        f"{row['layout']})")
    for row in accuracy.bias_causes(catalog):
        out[f"excluded_causes_{row['id']}"] = " ".join(f"{k} x{v:.2f}" for k, v in row.items()
                                                        if k not in ("id", "estimate_over_published"))
    p = Params(catalog.defaults)
    wall = 54 * 24
    f = failure_overhead(wall, 16384, 405e9 * 14 / 1e9, p)
    out["failures_llama3_16k_gpus_54_days"] = (f"{f.expected_interruptions:.0f} interruptions (published 419), "
                                               f"{100 * wall / (wall + f.overhead_wall_hours):.1f} % effective "
                                               "(published > 90 %)")
    try:
        from bench import memory_accuracy
    except ImportError:
        return out
    out.update(memory_accuracy.figures(catalog))
    return out
