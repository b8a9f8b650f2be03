"""A reader of a guide sees the public source itself (its publisher, title, address), never the
project's internal references: requirement ids, source tags such as [S1], project documents
(CALIBRATION, REQUIREMENTS) or file paths of the repository."""

from __future__ import annotations

import re

import pytest

from advisor.knowledge.guides import load_guides
from advisor.rules.schema import REQUIREMENT_IDS

INTERNAL = re.compile(r"\[S\d+\]|\bCALIBRATION\b|\bREQUIREMENTS\b|\bDESIGN\.md\b|\bINTERNALS\b"
                      r"|(?<![\w/.])(?:knowledge|tests|advisor|ui|bench|scripts|docs)/[\w./-]+"  # a path in the repository
                      r"|(?<![\w/.:-])[\w-]+\.(?:py|md)\b")  # a source or a Markdown file of the project
REQUIREMENT = re.compile(r"(?<![\w.-])(?:" + "|".join(sorted(map(re.escape, REQUIREMENT_IDS), key=len, reverse=True))
                         + r")(?![\w.-])")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_guides_cite_public_sources_not_internal_ids(lang) -> None:
    guides = load_guides(lang)
    assert len(guides) >= 10
    bad = []
    for guide in guides:
        for text in (guide.meta.title, guide.meta.summary, guide.body):
            bad += [f"{guide.slug}: {m.group(0)!r} in …{text[max(0, m.start() - 40):m.end() + 20]!r}"
                    for pattern in (INTERNAL, REQUIREMENT) for m in pattern.finditer(text)]
    assert not bad, f"{len(bad)} internal references shown to a reader: " + "; ".join(bad[:20])


def test_the_two_source_articles_are_named_with_their_address() -> None:
    for lang in ("en", "zh"):
        text = "\n".join(g.body for g in load_guides(lang))  # type: ignore[arg-type]
        for url in ("http://m.51huadong.com/cloundnews/11016691.html", "http://m.51huadong.com/cloundnews/11016555.html"):
            assert url in text, (lang, url)
