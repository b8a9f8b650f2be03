"""Tool ``search_knowledge``: find the guide sections that explain a cost practice, so that an
answer can quote and cite them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from advisor.findings import Finding
from advisor.knowledge.search import MAX_K, Hit, search
from advisor.knowledge.tokenize import detect_lang
from advisor.numeric import ToolRequest, validated

__all__ = ["KnowledgeReport", "SearchKnowledgeRequest", "search_knowledge"]


class SearchKnowledgeRequest(ToolRequest):
    """What to look up in the onboarding guides."""

    query: str = Field(
        min_length=1,
        description=(
            "The user's question or a few keywords about cost practice, e.g. 'spot reclaim notice', "
            "'包年包月 什么时候划算', 'contract auto-renewal'. Use this tool when the user asks how or why "
            "(practices, contract terms, billing modes, onboarding, '教我…'), not for computing a price."
        ),
    )
    lang: Literal["zh", "en"] | None = Field(
        None,
        description="Language of the guides to search first: 'zh' or 'en'. Leave empty to follow the query's language.",
    )
    k: int = Field(5, ge=1, le=MAX_K, description="How many sections to return (1-50); 3-5 is enough to answer.")


class KnowledgeReport(BaseModel):
    """The sections found, best first, each with its guide title, section, path and a snippet."""

    query: str
    lang: Literal["zh", "en"]
    hits: list[Hit]
    findings: list[Finding] = Field(default_factory=list)

    @property
    def citations(self) -> list[dict[str, str]]:
        """``[{title, path}]`` for an answer's citation list, one per guide section."""
        return [{"title": f"{h.title} › {h.section}", "path": f"{h.path}#{h.anchor}" if h.anchor else h.path}
                for h in self.hits]


_ACCEPTED = {"query": "a non-empty question or keywords", "lang": "zh, en or empty",
             "k": f"a whole number from 1 to {MAX_K}", "request": "one of query, lang, k"}


def search_knowledge(request: SearchKnowledgeRequest | None = None, **kwargs: Any) -> KnowledgeReport:
    """Search the guides (BM25; jieba for Chinese) and return the best sections."""
    req: SearchKnowledgeRequest = validated(SearchKnowledgeRequest, request, kwargs, _ACCEPTED)
    hits = search(req.query, lang=req.lang, k=req.k)
    lang = req.lang or ("zh" if detect_lang(req.query) == "zh" else "en")
    return KnowledgeReport(query=req.query, lang=lang, hits=hits)
