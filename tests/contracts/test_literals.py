"""The literal pre-filter in front of the detector alternations (advisor/contracts/literals.py)
keeps every match: the same spans as the full alternation, on every fixture sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.contracts.clauses import split_clauses
from advisor.contracts.literals import Alternation, required
from advisor.contracts.reader import read_text
from advisor.contracts.vocabulary import detectors

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "contracts"
FLAGS = re.IGNORECASE


@pytest.mark.parametrize(
    ("pattern", "need"),
    [
        (r"\bevergreen\b", {"evergreen"}),
        (r"(?:renew|extend)\w*\b.{0,160}?\bunless\b", {"unless"}),
        (r"(?:auto\s+)?renew", {"renew"}),  # an optional part is not needed
        (r"(?:foo|\d+)bar", {"bar"}),  # a branch without a literal: the branch needs nothing
        (r"(?:foo|bar)+", {"foo", "bar"}),
        (r"x*", None),
        (r"自动(?:续约|续期)", {"自动续"}),  # the common 续 of both branches joins the run
    ],
)
def test_required_literals(pattern: str, need: set[str] | None) -> None:
    found = required(re.compile(pattern, FLAGS))
    assert (set(found) if found is not None else None) == need


@pytest.mark.parametrize(
    "text",
    ["This Agreement shall RENEW automatically unless notice is given.", "EVERGREEN term", "no match here",
     "合同期满自动续约", "The \u212aelvin clause renews"],
)
def test_same_matches_as_the_full_alternation(text: str) -> None:
    alt = Alternation([re.compile(p, FLAGS) for p in (r"renew\w*\b.{0,40}?\bunless", r"\bevergreen\b", r"自动续约", r"kelvin")], FLAGS)
    pattern = alt.pattern_for(text)
    assert [m.span() for m in alt.full.finditer(text)] == ([m.span() for m in pattern.finditer(text)] if pattern else [])


def test_every_detector_list_keeps_its_matches_on_the_fixtures() -> None:
    sentences = [
        s.text
        for path in sorted(FIXTURES.glob("*.txt"))
        for c in split_clauses(read_text(path.read_text(encoding="utf-8")))
        for s in c.sentences
    ]
    assert len(sentences) > 100
    for spec in detectors():
        for alt in (*spec.combined.values(), spec.exclude_any, spec.require_any):
            if alt is None:
                continue
            for text in sentences:
                pattern = alt.pattern_for(text)
                kept = [m.span() for m in pattern.finditer(text)] if pattern else []
                assert kept == [m.span() for m in alt.full.finditer(text)], (spec.name, text)
