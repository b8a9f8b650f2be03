"""`python -m bench [NAME ...]`: run the benchmark modules and print their figures.

Each `bench/bench_<name>.py` exposes `run() -> dict`. Results are also written to
`bench/out/results.json` so a note can quote them.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import time
from pathlib import Path


def main(names: list[str]) -> int:
    here = Path(__file__).parent
    found = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    chosen = [f"bench_{n}" if not n.startswith("bench_") else n for n in names] or found
    results: dict[str, dict] = {}
    failed = False
    for name in chosen:
        started = time.perf_counter()
        print(f"== {name}", flush=True)
        try:
            figures = importlib.import_module(f"bench.{name}").run()
        except Exception as exc:  # report and go on: one broken bench must not hide the others
            print(f"   failed: {type(exc).__name__}: {exc}")
            failed = True
            continue
        results[name] = figures
        for key, value in figures.items():
            print(f"   {key:44s} {value}")
        print(f"   ({time.perf_counter() - started:.1f} s)")
    out = here / "out"
    out.mkdir(exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
