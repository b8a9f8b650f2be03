"""The analysis as SQL (``queries.sql``, one query per ``-- name: NAME`` line, read as
``queries.NAME``), with the readers' staging tables, kept engine-neutral so that it can move
to a distributed engine.

Only standard SQL is used here: CTEs, GROUP BY, CASE, window functions (LEAD, LAG,
ROW_NUMBER, running SUM), FLOOR/MOD arithmetic on epoch seconds for hours and days, and
NULLIF/COALESCE. No engine-specific date, JSON or list functions: the readers bring times to
epoch seconds and money to DECIMAL. Parameters are written ``$name`` (bound by the driver).

Tables the readers provide:
  gpu_keys(gid, instance, gpu_id, model)
  samples(src, gid, t, util, mem_used_mib, mem_total_mib, skip, bad)
  billing(src, billed_cost, effective_cost, list_cost, contracted_cost, currency, start_t,
          end_t, charge_category, charge_frequency, service_name, service_category, provider,
          sub_account_id, sub_account_name, resource_id, resource_name, resource_type,
          commitment_status, commitment_id, pricing_category, consumed_quantity, consumed_unit,
          sku_id, tags, bad)
  inventory(src, row_no, resource, gpu_type, gpu_count, price_per_gpu_hour, currency, team,
            project, start_t, end_t, project_end_t)
Tables the analysis adds: gpus, timed, idle_runs, gpu_price, tag_owner.
GREATEST and LEAST are not in ISO SQL but every major engine has them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

FILE = Path(__file__).with_name("queries.sql")


@lru_cache(maxsize=1)
def named() -> dict[str, str]:
    """Each query of queries.sql by name, without its whole-line comments."""
    parts = re.split(r"^-- name: (\w+)\n", FILE.read_text(encoding="utf-8"), flags=re.M)
    return {name: "\n".join(ln for ln in body.splitlines() if not ln.startswith("--")).strip() + "\n"
            for name, body in zip(parts[1::2], parts[2::2], strict=True)}


def __getattr__(name: str) -> str:
    try:
        return named()[name]
    except KeyError:
        raise AttributeError(f"no query {name!r} in {FILE.name}") from None
