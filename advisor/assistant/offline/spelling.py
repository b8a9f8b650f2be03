"""Slips of typing read as the words meant (part of :func:`advisor.assistant.offline.text.normalize`): a long
English word one slip from exactly one word the reader knows, and a Chinese character typed for its sound-alike.
The vocabulary and the rules are data: the words of the lexicon (its patterns, keys and ``normalize.words``) and
of the catalog's names; words of the project's English texts are real words and never respelled;
names glued to digits (A100, A10) are never touched.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from advisor.assistant.offline.lexicon import lexicon
from advisor.catalog import get_catalog
from advisor.config import ROOT

_NORM = lexicon()["normalize"]
_MIN = int(_NORM["word_min"])
_LONG = re.compile(rf"(?<![a-z0-9])[a-z]{{{_MIN},}}(?![a-z0-9])")
_NEAR = {pair for row in _NORM["keyboard"] for a, b in zip(row, row[1:], strict=False) for pair in (a + b, b + a)}
_MIN_REPLACED = int(_NORM["word_min_replaced"])


def _strings(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [x for k, v in node.items() for x in (*_strings(k), *_strings(v))]
    if isinstance(node, list):
        return [x for v in node for x in _strings(v)]
    return [str(node).lower()]


@functools.lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset[str], frozenset[str], dict[str, frozenset[str]]]:
    """(the words questions are read with: the long words of the lexicon and of the catalog's names; the words
    that are never a slip: those and the project's English (lexicon ``real_words``); each vocabulary word by every
    spelling of it with one letter left out)."""
    names = [n for kind in ("gpu", "model", "provider") for n in get_catalog().name_index(kind)._keys]
    texts = (*_strings(lexicon()), *(n.lower() for n in names))
    words = frozenset(w for text in texts for w in _LONG.findall(text))
    real = frozenset(w for f in _NORM["real_words"] for path in sorted(ROOT.glob(f))
                     for w in _LONG.findall(path.read_text(encoding="utf-8").lower()))
    shorter: dict[str, set[str]] = {}
    for w in words:
        for i in range(len(w)):
            shorter.setdefault(w[:i] + w[i + 1 :], set()).add(w)
    return words, real | words, {k: frozenset(v) for k, v in shorter.items()}


_ALIKE = {c: group for group in _NORM["sound_alike"] for c in group}


@functools.lru_cache(maxsize=1)
def _cjk_pairs() -> frozenset[str]:
    """The two-character Chinese words the lexicon reads (neighbours in its patterns, outside [...] classes)."""
    runs = [r for text in _strings(lexicon()) for r in re.findall(r"[\u4e00-\u9fff]{2,}", re.sub(r"\[[^]]*\]", "|", text))]
    return frozenset(r[i : i + 2] for r in runs for i in range(len(r) - 1))


def sound_alike(s: str) -> str:
    """A Chinese character typed for its sound-alike (lexicon ``sound_alike``): read as the one that makes a
    lexicon word with a neighbour, when the typed one makes none (现存 -> 显存, 利用律 -> 利用率)."""
    pairs, out = _cjk_pairs(), list(s)
    for i, c in enumerate(s):
        left, right = s[i - 1 : i], s[i + 1 : i + 2]
        if c not in _ALIKE or left + c in pairs or c + right in pairs:
            continue
        fixes = [a for a in _ALIKE[c] if left + a in pairs or a + right in pairs]
        if len(fixes) == 1:
            out[i] = fixes[0]
    return "".join(out)


def _slip(typed: str, word: str) -> bool:
    """``typed`` is ``word`` with one slip: a letter left out or doubled (not the last: "experiment" is
    no slip of "experiments"), two neighbours swapped, or a letter but the last replaced by its neighbour on
    the keyboard in a longer word ("increases" is no slip of "increased", nor "quite" of "quote")."""
    if len(typed) != len(word):
        short, long_ = sorted((typed, word), key=len)
        i = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
        return i < len(short) and short[i:] == long_[i + 1 :] and (typed is short or long_[i] in long_[i - 1 : i + 2 : 2])
    i = next(k for k in range(len(word)) if typed[k] != word[k])
    if typed[i + 1 :] == word[i + 1 :]:
        return i < len(word) - 1 and len(word) >= _MIN_REPLACED and typed[i] + word[i] in _NEAR
    return typed[i : i + 2] == word[i : i + 2][::-1] and typed[i + 2 :] == word[i + 2 :]


def _meant(typed: str) -> str | None:
    """The one vocabulary word ``typed`` is a slip of (None when it is a known word, or not one slip away
    from exactly one)."""
    words, real, shorter = _vocabulary()
    if typed in real or any(typed[:k] in words for k in range(_MIN, len(typed))):
        return None
    found = {w for w in shorter.get(typed, ())} | {typed[:i] + typed[i + 1 :] for i in range(len(typed))} & words
    found |= {w for i in range(len(typed)) for w in shorter.get(typed[:i] + typed[i + 1 :], ()) if len(w) == len(typed)}
    found = {w for w in found if _slip(typed, w)}
    return found.pop() if len(found) == 1 else None


def spelled(s: str, limit: int) -> tuple[str, list[int]]:
    """Each long word that is one slip of one vocabulary word (:func:`_meant`) written as that word, and
    where a left-out letter was put back (those letters have no character in the question)."""
    out, added, pos = [], [], 0
    for m in _LONG.finditer(s, 0, limit):
        word = _meant(m.group(0))
        if word is None:
            continue
        out.append(s[pos : m.start()] + word.ljust(len(m.group(0))))
        if len(word) > len(m.group(0)):
            added.append(sum(map(len, out)) - 1)
        pos = m.end()
    return "".join(out) + s[pos:], added
