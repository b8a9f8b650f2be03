"""`python -m bench.eval_personas [--failures dev] [--aggregates] [--set set1|set2|set3]`: the offline
assistant on the persona question sets, dev and test halves, per set and language (see
bench/persona_eval.py). Failures are printed for dev halves only; test halves
are scored and, with --aggregates, summarised per intent and per kind of problem, never item by item."""

from __future__ import annotations

import sys

from bench.persona_eval import SETS, evaluate


def main(argv: list[str]) -> int:
    show = "--failures" in argv
    aggregates = "--aggregates" in argv
    names = [argv[argv.index("--set") + 1]] if "--set" in argv else list(SETS)
    for name in names:
        for half in ("dev", "test"):
            report = evaluate(half, SETS[name], failures=show and half == "dev")
            langs = ", ".join(f"{k} {v['right']}/{v['total']} ({v['accuracy']:.1%})" for k, v in report["by_language"].items())
            print(f"{name} {half}: {langs}")
            if aggregates or (show and half == "dev"):
                for k, v in report["by_intent"].items():
                    print(f"   {k:28s} {v['right']}/{v['total']}")
                for k, n in report["kinds"].items():
                    print(f"   {n:4d}  {k}")
            if half == "dev" and show:
                for f in report["failures"]:
                    print(f"   {f['id']}: {f['q']}\n      " + "; ".join(f["problems"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
