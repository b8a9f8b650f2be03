"""Which guide sections an answer cites.

A tool answer cites the guides that explain its findings: each finding names the
requirement ids it serves (REQUIREMENTS.md), each guide lists the ids it covers in its front
matter, and within a guide the section whose words best overlap the question and the
finding is chosen. Without findings, the job's own requirements are used (an estimate: A1
cost anatomy; a billing comparison: B1 billing modes ...). This needs only the guide files,
not the search index, so a one-shot ``advisor ask`` stays fast; how/why questions go through
``search_knowledge`` (BM25) instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from advisor.assistant.result import Citation
from advisor.knowledge.guides import load_guides
from advisor.rules.schema import TOOL_REQUIREMENTS

_WORD = re.compile(r"[a-z][a-z0-9-]{2,}")
_CJK = re.compile(r"[\u4e00-\u9fff]+")


@lru_cache(maxsize=4096)  # guide sections are read on every answer: tokenized once each
def _tokens(text: str) -> frozenset[str]:
    text = text.lower()
    out = set(_WORD.findall(text))
    for run in _CJK.findall(text):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(out)


def _requirement_ids(findings: Iterable[Any], intent: str) -> list[str]:
    ids: list[str] = []
    for f in findings:
        ids.extend(r for r in getattr(f, "requirement", []) or [] if r not in ids)
    ids.extend(r for r in TOOL_REQUIREMENTS.get(intent, ()) if r not in ids)
    return ids


def cite_for(question: str, intent: str, lang: str, findings: list[Any], k: int = 2) -> list[Citation]:
    """Up to ``k`` sections, from different guides, that explain this answer."""
    try:
        guides = load_guides(lang)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - no guides installed or broken: the answer stands without citations
        return []
    words = _tokens(" ".join([question, *(getattr(f, "title", "") for f in findings[:3])]))
    out: list[Citation] = []
    used: set[str] = set()
    for rid in _requirement_ids(findings, intent):
        covering = [g for g in guides if rid in g.meta.requirements and g.slug not in used]
        if not covering:
            continue
        guide = min(covering, key=lambda g: g.meta.requirements.index(rid))  # the guide it is the main topic of
        sections = [s for s in guide.sections if not s.is_sources] or list(guide.sections)
        best = max(sections, key=lambda s: (2 * len(words & _tokens(s.heading)) + len(words & _tokens(s.text)),
                                            -s.index))
        path = f"{guide.path}#{best.anchor}" if best.anchor else guide.path
        title = f"{guide.title} › {best.title}" if best.heading else guide.title
        out.append(Citation(title=title, path=path))
        used.add(guide.slug)
        if len(out) >= k:
            break
    return out
