"""The one bilingual glossary (``knowledge/glossary.yaml``), a base module every layer may read:
modes, component keys, labels and the UI's texts. ``term("mode.spot", "zh")`` -> "竞价"."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.config import knowledge_dir
from advisor.datafile import read_mapping

LANGS = ("en", "zh")


def glossary_file() -> Path:
    return knowledge_dir() / "glossary.yaml"


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return read_mapping(glossary_file())


@lru_cache(maxsize=1)
def entries() -> dict[str, dict[str, str]]:
    """Every text entry, by key then language (read once)."""
    return {str(k): {str(lang): str(text) for lang, text in v.items()} for k, v in _data().items()
            if not any(isinstance(text, list) for text in v.values())}


def listed(key: str, lang: str) -> list[str]:
    """A list entry (the UI's example questions, follow-ups) in ``lang``; [] when there is none."""
    entry = _data().get(key) or {}
    return [str(x) for x in entry.get(lang) or entry.get("en") or []]


def has(key: str) -> bool:
    return key in entries()


def term(key: str, lang: str, **values: Any) -> str:
    """The text of ``key`` in ``lang`` with ``values`` filled in. An unknown key falls back to
    the key's last part with underscores as spaces, so a gap shows but never crashes."""
    entry = entries().get(key)
    if entry is None:
        return key.rsplit(".", 1)[-1].replace("_", " ")
    text = entry.get(lang) or entry.get("en") or key
    if not values:
        return text
    try:
        return text.format(**values)
    except (KeyError, ValueError, IndexError):
        return text


def both(words: str | Callable[[str], str], **values: Any) -> dict[str, str]:
    """The entry ``words`` with ``values`` (or ``words(lang)``) in every language: a report field
    that carries its words in both."""
    return {lang: words(lang) if callable(words) else term(words, lang, **values) for lang in LANGS}


def bilingual(key: str, **values: Any) -> str:
    """``key`` in English / Chinese on one line (output of a command that takes no ``--lang``)."""
    return " / ".join(both(key, **values).values())


def mode(key: str, lang: str) -> str:
    return term(f"mode.{key}", lang)


def unit(key: str | None, lang: str) -> str:
    """A unit in ``lang``; one led by a currency code ("CNY per GPU-hour") reads the entry
    ``unit.{currency} per GPU-hour`` with the code filled in."""
    if not key:
        return ""
    if has(f"unit.{key}"):
        return term(f"unit.{key}", lang)
    code, _, rest = key.partition(" ")
    if len(code) == 3 and code.isupper() and has(f"unit.{{currency}} {rest}"):
        return term(f"unit.{{currency}} {rest}", lang, currency=code)
    if len(code) == 3 and code.isupper() and not rest:
        return code
    return key
