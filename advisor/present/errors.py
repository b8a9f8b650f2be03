"""An :class:`~advisor.errors.AdvisorError` in the user's language, from its structured fields.

English is the error's own one line. Other languages word the fields through the glossary:
the frame (``error.input`` / ``error.missing`` / ``error.unknown`` / ``error.document`` /
``error.data`` / ``error.other``), the field's name (``field.<name>``, else
``assumption.<name>``) and the "accepted" text through the ``error.says.*`` entries, whose
English text is the pattern (``one of {items}``; file order, literal ones first) and whose translation fills in what the
placeholders matched. Text no entry matches stays English inside 「」.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from advisor.errors import AdvisorError
from advisor.glossary import entries, has, term, unit

_LATIN = re.compile(r"[A-Za-z]{2,}")
_NAME = re.compile(r"\S*[\d_./$=`'-]\S*|[A-Z0-9]+")  # a value, a flag, an identifier, an acronym: shown as it is
_SPLIT = re.compile(r"(, or |, | or | nor | and )")
_SEP = {", ": {"zh": "、"}, ", or ": {"zh": "或"}, " or ": {"zh": "或"}, " nor ": {"zh": "、"}, " and ": {"zh": "和"}}


def say(error: AdvisorError | Mapping[str, Any] | str, lang: str) -> str:
    """The error as one line in ``lang`` (``error`` is the exception, its :meth:`parts` or a bare message)."""
    p = error.parts() if isinstance(error, AdvisorError) else {"message": error} if isinstance(error, str) else dict(error)
    if lang != "zh":  # English, the error's own words
        return str(p.get("line") or p.get("message") or "")
    hint = phrase(p["hint"], lang) if p.get("hint") else ""
    if p.get("suggestions"):
        hint = term("error.did_you_mean", lang, names=term("chat.list_sep", lang).join(p["suggestions"]))
        text = term("error.unknown", lang, kind=field_name(str(p.get("kind") or ""), lang), name=p.get("value"))
    elif "problem" in p and "row" in p:
        where = "".join(term(f"error.where_{k}", lang, v=p[k]) for k in ("row", "field") if p.get(k) is not None)
        text = term("error.data", lang, path=p.get("path"), where=where, problem=phrase(p["problem"], lang))
    elif "problem" in p:
        text = term("error.document", lang, path=p.get("path"), problem=phrase(p["problem"], lang))
    elif "accepted" in p:
        value = p.get("value")
        text = term("error.missing" if value in (None, "", [], "None") else "error.input", lang,
                    field=field_name(str(p.get("field") or ""), lang), value=value, accepted=phrase(str(p["accepted"]), lang))
    else:
        text = term("error.other", lang, message=phrase(str(p.get("message") or ""), lang))
    return text + (term("error.hint", lang, hint=hint) if hint else "")


def field_name(name: str, lang: str) -> str:
    """A request field as the user reads it: ``field.<name>`` or ``assumption.<name>`` (a CLI flag
    ``--monthly-fee`` reads as ``monthly_fee``); a field without an entry is shown as code."""
    key = name.strip().lstrip("-").replace("-", "_").replace(" ", "_")
    for k in (key, key.rsplit(".", 1)[-1]):
        for section in ("field", "assumption"):
            if has(f"{section}.{k}"):
                return term(f"{section}.{k}", lang)
    return f"`{name}`" if name else ""


def phrase(text: str, lang: str) -> str:
    """An English phrase of an error (what is accepted, a problem, a hint) in ``lang``."""
    return _read(" ".join(str(text).split()).rstrip("."), lang)[0]


@lru_cache(maxsize=4096)
def _read(text: str, lang: str) -> tuple[str, int]:
    """(the words, how many ``error.says.join.*`` entries they use). Of the readings the entries
    allow, the one with the fewest Latin letters left, then the fewest joins (a specific entry
    beats a generic list), then the shortest first part (a list splits at its top level)."""
    if lang == "en" or not _LATIN.search(text):
        return text, 0
    best, score = (f"「{text}」", 0), (*_untranslated(text), 1 << 30, 0)
    for pattern, names, key in _patterns():
        m = pattern.fullmatch(text)
        if m and all(_balanced(g) for g in m.groups()):
            parts = {n: _fill(n, m.group(n), lang) for n in names}
            said = term(key, lang, **{n: words for n, (words, _) in parts.items()})
            joins = sum(j for _, j in parts.values()) + key.startswith("error.says.join.")
            if key.startswith("error.says.join.") and "「" in said:
                continue  # a list reads as a whole or not at all
            this = (*_untranslated(said), joins, len(m.group(1)) if names else 0)
            if this < score:
                best, score = (said, joins), this
    return best


def _untranslated(text: str) -> tuple[int, int]:
    return sum(len(w) for w in _LATIN.findall(text)), text.count("「")


def _fill(name: str, value: str, lang: str) -> tuple[str, int]:
    if name == "unit":
        return unit(value, lang), 0
    if name == lang:  # the text's own words in this language ("... / 请另存为 UTF-8 编码")
        return value, 0
    if name == "name":  # a column, a key: as code
        return f"`{value.strip(chr(39))}`", 0
    if name == "items":
        pieces = [_option(x, lang) if i % 2 == 0 else (_SEP[x].get(lang, x), 0) for i, x in enumerate(_SPLIT.split(value))]
        return "".join(w for w, _ in pieces), sum(j for _, j in pieces)
    return _option(value, lang) if name in ("left", "right") else _part(value, lang)


def _option(text: str, lang: str) -> tuple[str, int]:
    """One item of a list: a field's name or a phrase, else the value a user types, as code."""
    said = _part(text, lang)
    return (f"`{text.strip()}`", 0) if " " not in text.strip() and _LATIN.search(said[0]) and "`" not in text else said


def _part(text: str, lang: str) -> tuple[str, int]:
    """A part of a phrase: a field's name, a phrase, or the text itself (a name, a number, a flag)."""
    text = text.strip()
    key = text.lstrip("-").replace("-", "_")
    if has(f"field.{key}"):
        return term(f"field.{key}", lang), 0
    said, joins = _read(text, lang)
    return (text, 0) if said == f"「{text}」" and _NAME.fullmatch(text) else (said, joins)


def _balanced(part: str) -> bool:
    return sum(part.count(c) for c in "([") == sum(part.count(c) for c in ")]")


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[re.Pattern[str], list[str], str]]:
    """Each ``error.says.*`` entry's English text as a pattern: ``{name}`` matches
    any text with balanced brackets (``{items}``: a list, no brackets). Tried in file order, literal ones first."""
    out = []
    for key, words in entries().items():
        if key.startswith("error.says."):
            parts = re.split(r"\{(\w+)\}", words["en"])
            names = parts[1::2]
            regex = "".join(re.escape(s) if i % 2 == 0 else f"(?P<{s}>{'[^()]' if s == 'items' else '.'}+?)"
                            for i, s in enumerate(parts))
            out.append((re.compile(regex, re.IGNORECASE), names, key))
    return sorted(out, key=lambda p: bool(p[1]))
