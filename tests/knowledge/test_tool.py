"""The search_knowledge tool: request schema for an LLM, report shape, errors."""

from __future__ import annotations

import pytest

import advisor.tools as tools
from advisor.errors import InputError
from advisor.tools.knowledge import KnowledgeReport, SearchKnowledgeRequest, search_knowledge


def test_reachable_through_the_public_api() -> None:
    assert tools.search_knowledge is search_knowledge
    report = tools.search_knowledge(query="how do spot reclaims work?")
    assert isinstance(report, KnowledgeReport)


def test_report_shape() -> None:
    report = search_knowledge(query="自动续费怎么防", k=3)
    data = report.model_dump(mode="json")
    assert data["query"] == "自动续费怎么防" and data["lang"] == "zh" and data["findings"] == []
    assert 1 <= len(data["hits"]) <= 3
    for hit in data["hits"]:
        assert {"title", "section", "path", "lang", "score", "snippet"} <= set(hit)
    assert data["hits"][0]["path"].endswith("09-contract-checklist.md")
    cites = report.citations
    assert cites[0]["path"].startswith("knowledge/guides/zh/09-contract-checklist.md")
    assert "›" in cites[0]["title"]


def test_request_object_and_lang() -> None:
    req = SearchKnowledgeRequest(query="monthly plan break-even", lang="en", k=2)
    report = search_knowledge(req)
    assert report.lang == "en" and len(report.hits) <= 2
    assert search_knowledge(req, k=1).hits[:1] == report.hits[:1]


def test_schema_tells_the_model_when_to_use_it() -> None:
    schema = SearchKnowledgeRequest.model_json_schema()
    assert "when" in schema["properties"]["query"]["description"].lower()
    assert set(schema["properties"]) == {"query", "lang", "k"}


@pytest.mark.parametrize("kwargs", [{"query": ""}, {"query": "x", "k": 0}, {"query": "x", "lang": "de"},
                                    {"query": "x", "top": 3}, {}])
def test_bad_requests_raise_input_error(kwargs) -> None:
    with pytest.raises(InputError):
        search_knowledge(**kwargs)
