"""Tokenizers for retrieval: jieba for Chinese (with the domain dictionary in
``knowledge/search/``), a simple lower-case splitter with light suffix stemming for English.

jieba is imported on first use, quietly (its start-up log lines and import-time warnings are
suppressed here, not globally), and a private ``jieba.Tokenizer`` is used so that loading our
dictionary does not change jieba for other parts of the program.
"""

from __future__ import annotations

import logging
import re
import threading
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor import config
from advisor.datafile import read_mapping
from advisor.errors import DataError

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_LOCK = threading.Lock()
_JIEBA: Any = None


def search_data_dir() -> Path:
    """``knowledge/search/``: the dictionary, stop words, stemming suffixes and synonyms."""
    return config.knowledge_dir() / "search"


def detect_lang(text: str) -> str:
    """``zh`` when the text contains CJK characters, else ``en``."""
    return "zh" if _CJK.search(text) else "en"


def _read_lines(name: str) -> list[str]:
    path = search_data_dir() / name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(str(path), f"cannot read search data ({exc.__class__.__name__})") from exc
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


@lru_cache(maxsize=2)
def stopwords(lang: str) -> frozenset[str]:
    """The stop words of ``lang`` from ``knowledge/search/stopwords_<lang>.txt``."""
    words: set[str] = set()
    for line in _read_lines(f"stopwords_{lang}.txt"):
        words.update(line.split())
    return frozenset(words)


def stem(word: str) -> str:
    """Light English stemming so that plural, -ing, -ed, -ly and -ation forms meet:
    ``prices``/``pricing``/``priced`` -> ``pric``, ``monthly`` -> ``month``."""
    w = word
    if len(w) <= 3 or not w.isalpha():
        return w
    for _ in range(2):  # a second pass for stacked suffixes: providers -> provider -> provid
        w = _strip_suffix(w)
    if len(w) > 5 and w.endswith("ate"):
        w = w[:-3]  # estimate -> estim (meets "estimation")
    if len(w) > 4 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]  # running -> runn -> run
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]  # price -> pric, reserve -> reserv
    return w


@lru_cache(maxsize=1)
def _suffixes() -> tuple[tuple[str, str, int], ...]:
    """``knowledge/search/suffixes_en.txt``: suffix, replacement (``-``: none), least word length."""
    rows = (line.split() for line in _read_lines("suffixes_en.txt"))
    return tuple((suffix, "" if repl == "-" else repl, int(least)) for suffix, repl, least in rows)


def _strip_suffix(w: str) -> str:
    for suffix, repl, min_len in _suffixes():
        if w.endswith(suffix) and len(w) >= min_len:
            if suffix == "s" and w.endswith(("ss", "us", "is")) and not w.endswith("pus"):  # gpus/cpus do strip
                return w
            return w[: len(w) - len(suffix)] + repl
    return w


def tokenize_en(text: str) -> list[str]:
    """Lower-case ASCII words, stop words dropped, stemmed."""
    stop = stopwords("en")
    return [stem(w) for w in _ASCII_WORD.findall(text.lower()) if w not in stop]


def _load_jieba() -> Any:
    """A private jieba tokenizer with the domain dictionary, built once per process."""
    global _JIEBA
    with _LOCK:
        if _JIEBA is not None:
            return _JIEBA
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import jieba

            jieba.setLogLevel(logging.WARNING)
            tok = jieba.Tokenizer()
            tok.initialize()
        for line in _read_lines("userdict_zh.txt"):
            parts = line.split()
            freq = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
            tok.add_word(parts[0], freq)
        _JIEBA = tok
        return tok


def tokenize_zh(text: str) -> list[str]:
    """jieba search-mode words (long words also give their sub-words), Chinese stop words and
    punctuation dropped; embedded English words go through :func:`tokenize_en`."""
    tok = _load_jieba()
    stop_zh, stop_en = stopwords("zh"), stopwords("en")
    out: list[str] = []
    for piece in tok.cut_for_search(text):
        piece = piece.strip().lower()
        if not piece:
            continue
        if _CJK.search(piece):
            if piece not in stop_zh:
                out.append(piece)
        elif _ASCII_WORD.fullmatch(piece) and piece not in stop_en:
            out.append(stem(piece))
    return out


def tokenize(text: str, lang: str) -> list[str]:
    """Tokens of ``text`` for the index of ``lang``."""
    return tokenize_zh(text) if lang == "zh" else tokenize_en(text)


@lru_cache(maxsize=1)
def _synonyms() -> dict[str, dict[str, list[str]]]:
    path = search_data_dir() / "synonyms.yaml"
    data = read_mapping(path)
    table: dict[str, dict[str, list[str]]] = {}
    for lang in ("en", "zh"):
        entries = data.get(lang) or {}
        if not isinstance(entries, dict):
            raise DataError(str(path), "expected a mapping of term -> [synonyms]", field=lang)
        table[lang] = {}
        for term, alts in entries.items():
            key = tokenize(str(term), lang)
            if len(key) != 1 or not isinstance(alts, list):
                continue
            expanded = [t for alt in alts for t in tokenize(str(alt), lang)]
            table[lang].setdefault(key[0], []).extend(expanded)
    return table


def expand_query(tokens: list[str], lang: str) -> list[str]:
    """The query tokens plus their synonyms (each added once)."""
    table = _synonyms().get(lang, {})
    out = list(tokens)
    seen = set(tokens)
    for t in tokens:
        for alt in table.get(t, []):
            if alt not in seen:
                seen.add(alt)
                out.append(alt)
    return out


def warm_up() -> None:
    """Load jieba and the word lists now (the index build calls it)."""
    _load_jieba()
    stopwords("en")
    stopwords("zh")
    _suffixes()
    _synonyms()
