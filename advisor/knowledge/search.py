"""Retrieval over guide sections: BM25 (rank-bm25) per language, jieba tokens for Chinese,
stemmed words for English. The query language is detected from CJK characters and searched
first; when it finds nothing the other language is tried. The index is built lazily once per
process (per guides folder) and reused.

Each indexed document is one ``##`` section, with the guide title and the section heading
repeated in front of its text so that topical words weigh more; "Sources" sections and the
worked-example blocks are left out.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from advisor import config
from advisor.errors import InputError
from advisor.knowledge.examples import BLOCK_RE
from advisor.knowledge.guides import LANGS, Guide, Lang, Section, check_lang, load_guides
from advisor.knowledge.tokenize import detect_lang, expand_query, tokenize, warm_up

MAX_K = 50
PER_GUIDE = 2  # at most this many sections of one guide in a result list
HEADING_WEIGHT = 2
BM25_B = 0.6  # length normalisation below the usual 0.75: short example-only sections rank less easily
_SENTENCE = re.compile(r"(?<=[.!?。！？；;])\s*|\n+")
_MARKUP = re.compile(r"`|\*\*|\*|^#+\s*|^\s*[-*]\s+(\[[ x]\]\s*)?|^\s*\d+\.\s+|\|", re.M)
_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")
_SNIPPET_CHARS = {"en": 240, "zh": 120}


class Hit(BaseModel):
    """One retrieved section: where it is, how well it matched, and a snippet to show."""

    title: str  # the guide's title
    section: str  # the section heading (the guide title for the intro)
    path: str  # the guide file, relative to the project root
    anchor: str  # the section anchor within the file ("" for the intro)
    slug: str
    lang: Lang
    score: float
    snippet: str


@dataclass
class _Doc:
    section: Section
    path: str
    summary: str
    sentences: list[tuple[str, frozenset[str]]]


@dataclass
class _LangIndex:
    docs: list[_Doc]
    bm25: Any


@dataclass
class Index:
    """The per-language BM25 indexes and how long they took to build."""

    langs: dict[str, _LangIndex]
    build_seconds: float
    sections: int = 0
    built_at: float = field(default_factory=time.time)


def plain_text(markdown: str) -> str:
    """Markdown without example blocks, code ticks, emphasis, list markers and link targets."""
    text = BLOCK_RE.sub("", markdown)
    text = re.sub(r"^```.*?^```\s*$", "", text, flags=re.M | re.S)
    text = _LINK.sub(r"\1", text)
    text = re.sub(r"^\s*\|?\s*-{3,}.*$", "", text, flags=re.M)
    return _MARKUP.sub("", text)


def _section_doc(guide: Guide, section: Section) -> tuple[_Doc, list[str]]:
    body = plain_text(section.text)
    lang = guide.lang
    tokens = tokenize(guide.title, lang) + tokenize(guide.meta.summary, lang)
    if section.heading:
        tokens += tokenize(section.heading, lang) * HEADING_WEIGHT
    tokens += tokenize(body, lang)
    sentences = []
    for raw in _SENTENCE.split(body):
        sentence = " ".join(raw.split()).lstrip("\"'”」』)）,，、:： ")
        if len(sentence) >= 8:
            sentences.append((sentence, frozenset(tokenize(sentence, lang))))
    return _Doc(section=section, path=guide.path, summary=guide.meta.summary, sentences=sentences), tokens


def build_index() -> Index:
    """Read the guides and build both language indexes (jieba is loaded here)."""
    from rank_bm25 import BM25Okapi

    started = time.perf_counter()
    warm_up()
    langs: dict[str, _LangIndex] = {}
    count = 0
    for lang in LANGS:
        docs, corpus = [], []
        for guide in load_guides(lang):
            for section in guide.sections:
                if section.is_sources:
                    continue
                doc, tokens = _section_doc(guide, section)
                docs.append(doc)
                corpus.append(tokens or ["_"])
        if docs:
            langs[lang] = _LangIndex(docs=docs, bm25=BM25Okapi(corpus, b=BM25_B))
            count += len(docs)
    return Index(langs=langs, build_seconds=time.perf_counter() - started, sections=count)


_CACHE: dict[str, Index] = {}
_LOCK = threading.Lock()


def get_index() -> Index:
    """The cached index of the current guides folder, built on first use."""
    key = str(config.guides_dir())
    with _LOCK:
        index = _CACHE.get(key)
        if index is None:
            index = _CACHE[key] = build_index()
        return index


def clear_index() -> None:
    """Drop cached indexes (after editing guides or changing ADVISOR_KNOWLEDGE_DIR)."""
    with _LOCK:
        _CACHE.clear()


def _snippet(doc: _Doc, query_tokens: set[str], lang: str) -> str:
    limit = _SNIPPET_CHARS.get(lang, 200)
    if not doc.sentences:  # a section that holds only a worked example
        return doc.summary[:limit]
    best = max(range(len(doc.sentences)), key=lambda i: (len(doc.sentences[i][1] & query_tokens), -i))
    text = doc.sentences[best][0]
    nxt = best + 1
    while len(text) < limit // 2 and nxt < len(doc.sentences):
        text += (" " if lang == "en" else "") + doc.sentences[nxt][0]
        nxt += 1
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _rank(index: _LangIndex, tokens: list[str], k: int, lang: str) -> list[Hit]:
    scores = index.bm25.get_scores(tokens)
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    hits: list[Hit] = []
    per_guide: dict[str, int] = {}
    wanted = set(tokens)
    for i in order:
        score = float(scores[i])
        if score <= 0 or len(hits) >= k:
            break
        doc = index.docs[i]
        slug = doc.section.slug
        if per_guide.get(slug, 0) >= PER_GUIDE:
            continue
        per_guide[slug] = per_guide.get(slug, 0) + 1
        hits.append(
            Hit(
                title=doc.section.guide_title,
                section=doc.section.title,
                path=doc.path,
                anchor=doc.section.anchor,
                slug=slug,
                lang=doc.section.lang,
                score=round(score, 4),
                snippet=_snippet(doc, wanted, lang),
            )
        )
    return hits


def search(query: str, lang: Lang | None = None, k: int = 5) -> list[Hit]:
    """The best ``k`` guide sections for ``query``, best first, in the query's language
    (``lang`` overrides the detection); the other language only when the first finds nothing."""
    if not isinstance(query, str) or not query.strip():
        raise InputError("query", query, "a question or keywords, e.g. 'spot reclaim notice' or '包年包月 划算'")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
        raise InputError("k", k, f"a whole number from 1 to {MAX_K}")
    primary = check_lang(lang) if lang is not None else detect_lang(query)
    index = get_index()
    for current in (primary, *(x for x in LANGS if x != primary)):
        lang_index = index.langs.get(current)
        if lang_index is None:
            continue
        tokens = expand_query(tokenize(query, current), current)
        if not tokens:
            continue
        hits = _rank(lang_index, tokens, k, current)
        if hits:
            return hits
    return []
