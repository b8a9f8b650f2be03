"""`python -m bench.eval_personas [--failures dev]`: the offline assistant on the persona question set,
dev and test halves, per language (see advisor/assistant/offline/persona_eval.py).
Failures are printed for the dev half only: the test half is scored, never tuned on."""

from __future__ import annotations

import sys

from advisor.assistant.offline.persona_eval import evaluate


def main(argv: list[str]) -> int:
    show = "--failures" in argv
    for half in ("dev", "test"):
        report = evaluate(half, failures=show and half == "dev")
        langs = ", ".join(f"{k} {v['right']}/{v['total']} ({v['accuracy']:.1%})" for k, v in report["by_language"].items())
        print(f"{half}: {langs}")
        if half == "dev" and show:
            for k, v in report["by_intent"].items():
                print(f"   {k:28s} {v['right']}/{v['total']}")
            for f in report["failures"]:
                print(f"   {f['id']}: {f['q']}\n      " + "; ".join(f["problems"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
