"""The guides in ``knowledge/guides/{zh,en}/``: Markdown files with YAML front matter, read
once and split into sections on ``##`` headings (the unit that retrieval returns and answers
cite).

A guide file looks like::

    ---
    title: "..."
    requirements: [A1, A3]
    summary: "..."
    order: 1
    ---
    intro text ...
    ## First section
    ...

The same slug (file stem) exists in both languages; the loader checks the front matter and
raises :class:`DataError` naming the file and the field when it is wrong.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from advisor import config
from advisor.datafile import data_error
from advisor.errors import DataError, InputError, UnknownNameError, close_matches
from advisor.rules.schema import REQUIREMENT_IDS

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
SOURCES_HEADINGS = frozenset({"sources", "来源"})
_FENCE = re.compile(r"^\s*(```|~~~)")


class GuideMeta(BaseModel):
    """The front matter of one guide."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    requirements: list[str] = Field(min_length=1)
    summary: str = Field(min_length=1)
    order: int = Field(ge=0)

    @field_validator("requirements")
    @classmethod
    def _known_ids(cls, ids: list[str]) -> list[str]:
        unknown = [i for i in ids if i not in REQUIREMENT_IDS]
        if unknown:
            raise ValueError(f"unknown requirement ids {unknown}; known: {', '.join(sorted(REQUIREMENT_IDS))}")
        return ids


class Section(BaseModel):
    """One ``##`` section of a guide; the intro before the first heading has ``heading == ""``."""

    model_config = ConfigDict(frozen=True)

    slug: str
    lang: Lang
    guide_title: str
    heading: str
    anchor: str
    text: str
    index: int

    @property
    def title(self) -> str:
        """The heading, or the guide title for the intro."""
        return self.heading or self.guide_title

    @property
    def is_sources(self) -> bool:
        return self.heading.strip().lower() in SOURCES_HEADINGS


class Guide(BaseModel):
    """A guide in one language."""

    model_config = ConfigDict(frozen=True)

    slug: str
    lang: Lang
    path: str  # relative to the project root when possible, e.g. knowledge/guides/en/01-x.md
    meta: GuideMeta
    body: str
    sections: tuple[Section, ...]

    @property
    def title(self) -> str:
        return self.meta.title

    def section(self, heading: str) -> Section | None:
        """The section with this heading (case-insensitive), or None."""
        key = heading.strip().lower()
        return next((s for s in self.sections if s.heading.lower() == key), None)


def anchor_of(heading: str) -> str:
    """A GitHub-style anchor: lower case, punctuation dropped, spaces to dashes; CJK kept."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\s\-\u4e00-\u9fff]", "", text)
    return re.sub(r"\s+", "-", text).strip("-")


def split_front_matter(text: str, path: str) -> tuple[dict, str]:
    """``(front matter mapping, body)``; DataError when the block is missing or not YAML."""
    if not text.startswith("---"):
        raise DataError(path, "missing YAML front matter (the file must start with ---)")
    end = text.find("\n---", 3)
    if end < 0:
        raise DataError(path, "front matter is not closed by a --- line")
    try:
        meta = yaml.safe_load(text[3:end]) or {}
    except yaml.YAMLError as exc:
        raise DataError(path, f"front matter is not valid YAML ({str(exc).splitlines()[0]})") from exc
    if not isinstance(meta, dict):
        raise DataError(path, "front matter must be a mapping")
    body = text[end + 4 :].lstrip("\n")
    return meta, body


def split_sections(body: str, *, slug: str, lang: Lang, guide_title: str) -> tuple[Section, ...]:
    """Split on ``## `` headings outside fenced code blocks."""
    chunks: list[tuple[str, list[str]]] = [("", [])]
    in_fence = False
    for line in body.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and line.startswith("## "):
            chunks.append((line[3:].strip(), []))
            continue
        chunks[-1][1].append(line)
    sections: list[Section] = []
    for heading, lines in chunks:
        text = "\n".join(lines).strip()
        if not heading and not text:
            continue
        sections.append(
            Section(
                slug=slug,
                lang=lang,
                guide_title=guide_title,
                heading=heading,
                anchor=anchor_of(heading) if heading else "",
                text=text,
                index=len(sections),
            )
        )
    return tuple(sections)


def _display_path(path: Path) -> str:
    try:
        return path.resolve().relative_to(config.ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def read_guide(path: Path, lang: Lang) -> Guide:
    """Read and validate one guide file."""
    shown = _display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(shown, f"cannot read guide ({exc.__class__.__name__})") from exc
    raw, body = split_front_matter(text, shown)
    try:
        meta = GuideMeta.model_validate(raw)
    except ValidationError as exc:
        raise data_error(shown, exc, row=None) from exc
    slug = path.stem
    sections = split_sections(body, slug=slug, lang=lang, guide_title=meta.title)
    return Guide(slug=slug, lang=lang, path=shown, meta=meta, body=body, sections=sections)


@lru_cache(maxsize=8)
def _load_all(root: str) -> tuple[Guide, ...]:
    guides: list[Guide] = []
    for lang in LANGS:
        folder = Path(root) / lang
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.md")):
            guides.append(read_guide(path, lang))
    return tuple(sorted(guides, key=lambda g: (g.lang, g.meta.order, g.slug)))


def load_guides(lang: Lang | None = None) -> list[Guide]:
    """All guides (cached per guides folder), ordered by ``order``; one language if given."""
    guides = _load_all(str(config.guides_dir()))
    return [g for g in guides if lang is None or g.lang == lang]


def get_guide(slug: str, lang: Lang) -> Guide:
    """The guide with this slug in ``lang``; UnknownNameError with close matches otherwise."""
    check_lang(lang)
    guides = load_guides(lang)
    for g in guides:
        if g.slug == slug:
            return g
    raise UnknownNameError("guide", slug, close_matches(slug, [g.slug for g in guides]),
                           accepted="a guide slug (see `advisor learn`)")


def check_lang(lang: object) -> Lang:
    """``lang`` if it is ``zh`` or ``en``; InputError otherwise."""
    if lang not in LANGS:
        raise InputError("lang", lang, "zh or en")
    return lang  # type: ignore[return-value]
