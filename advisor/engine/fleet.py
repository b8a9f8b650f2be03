"""Mixed fleets (REQUIREMENTS C3), priced honestly: the routine share of the work on a cheaper
card at that card's own speed and price, the core on the high-end card, against running
everything on either card, with the wall time each takes.

The stages run one after another (early training and data work before the core run), so a
mixed fleet takes ``(1 - r) × high-end time + r × cheap time``. Among the options that meet
the deadline the cheapest wins; a mixed fleet is reported as a saving only when it is that
winner, never when the cheap card alone would do the whole job for less.
"""

from __future__ import annotations

from typing import Any


def mixed_fleet(*, high_cost: float, high_wall: float, cheap_cost: float, cheap_wall: float, routine_share: float,
                deadline_hours: float | None) -> dict[str, Any]:
    r = min(max(routine_share, 0.0), 1.0)
    options = {
        "all_high_end": {"cost": high_cost, "wall_hours": high_wall},
        "mixed": {"cost": (1 - r) * high_cost + r * cheap_cost, "wall_hours": (1 - r) * high_wall + r * cheap_wall},
        "all_cheap": {"cost": cheap_cost, "wall_hours": cheap_wall},
    }
    for o in options.values():
        o["meets_deadline"] = deadline_hours is None or o["wall_hours"] <= deadline_hours
    feasible = [k for k, o in options.items() if o["meets_deadline"]]
    order = ("all_high_end", "all_cheap", "mixed")  # on a tie a single fleet wins: simpler to run
    best = (min(feasible, key=lambda k: (options[k]["cost"], options[k]["wall_hours"], order.index(k))) if feasible
            else min(options, key=lambda k: (options[k]["wall_hours"], order.index(k))))
    saving = high_cost - options["mixed"]["cost"] if best == "mixed" and options["mixed"]["meets_deadline"] else 0.0
    return {"options": options, "best": best, "saving": max(saving, 0.0), "routine_share": r}
