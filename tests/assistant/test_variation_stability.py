"""The same question written another way reads the same (bench/variations.py): a fixed sample of the
meaning-preserving variants of the persona sets' dev halves must keep the original's intent and arguments.
Run ``python -m bench.variations`` for every variant, per transformation and language."""

from __future__ import annotations

import pytest

from bench.variations import TRANSFORMS, dev_items, evaluate, variants

pytestmark = pytest.mark.usefixtures("clean_llm_env")

EVERY = 36
"""One variant in EVERY (by a hash of item, transformation and text): a few hundred, under 20 s."""
FLOOR = 0.99
"""Share of sampled variants read like their original: the sample was at 0.996 (454/456) and all variants
of the four sets' dev halves at 0.994 when this was set, with typos, sound-alike characters, colloquial amounts, thousands groups and
voice input among the transformations (/work/coord/notes/issue-11c.md); the floor keeps it from sliding back."""


def test_every_transformation_applies_to_the_dev_halves() -> None:
    made = {name for item in dev_items() for name, _ in variants(item)}
    assert made == set(TRANSFORMS)


def test_a_sample_of_variants_reads_like_the_original() -> None:
    report = evaluate(every=EVERY)
    stable = sum(c[0] for c in report["table"].values())
    total = sum(c[1] for c in report["table"].values())
    assert total >= 200
    shown = "\n".join(f"[{f['transform']}] {f['q']}: {'; '.join(f['problems'])}" for f in report["failures"])
    assert stable / total >= FLOOR, shown
