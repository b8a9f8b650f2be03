"""UI text in Chinese and English, kept as data in ``strings.yaml``.

``t("card.total", "zh")`` returns the Chinese text; ``t("card.range", "en", low=.., high=..)``
fills placeholders. A missing key shows the key itself, so a gap is visible, never a crash.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
STRINGS_FILE = Path(__file__).with_name("strings.yaml")


@lru_cache(maxsize=1)
def strings() -> dict[str, dict[str, Any]]:
    """Every string, by key then language (read once; read-only)."""
    data = yaml.safe_load(STRINGS_FILE.read_text(encoding="utf-8")) or {}
    return {str(k): v for k, v in data.items()}


def t(key: str, lang: str, **values: Any) -> str:
    entry = strings().get(key)
    if not isinstance(entry, dict):
        return key
    text = entry.get(lang) or entry.get("en") or key
    return str(text).format(**values) if values else str(text)


def t_list(key: str, lang: str) -> list[str]:
    """A list-valued string (example questions, follow-ups)."""
    entry = strings().get(key)
    if not isinstance(entry, dict):
        return []
    items = entry.get(lang) or entry.get("en") or []
    return [str(x) for x in items]


def has(key: str) -> bool:
    return key in strings()


def detect_lang(text: str) -> Lang:
    """zh when the text has Chinese characters, else en (for choosing the UI language)."""
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text or "") else "en"
