"""Metamorphic variations of the persona sets' DEV halves: the same question written another way must
read the same. ``python -m bench.variations [--failures] [--only NAME] [--set set1 ...]`` prints, per transformation and
language, the share of variants whose intent and arguments equal the original item's expectation, among
the items whose original reads right (bench/persona_eval.py). Test halves are never varied.

Each transformation is a small function driven by one section of bench/variations.yaml (words, units,
punctuation) or by the catalog (every alias of a card or a model written in the question). A function
returns the variants of one question (none when it does not apply).
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from advisor.catalog import get_catalog
from advisor.catalog.catalog import find_names
from advisor.numerals import EN_TENS, EN_UNITS
from bench.persona_eval import SETS, check_item, load

DATA = yaml.safe_load((Path(__file__).with_name("variations.yaml")).read_text(encoding="utf-8"))
Variant = Callable[[str, str], list[str]]

_ALNUM = "A-Za-z0-9"
_NUMBER = re.compile(rf"(?<![{_ALNUM}.$¥,/_-])(\d+)(?![{_ALNUM}.,%/:_-])", re.ASCII)
_CLAUSE = re.compile(r"((?:[，;；。]|,(?!\d{3}))\s*)")  # not the comma of 2,000
_EN_WORDS = {v: k for k, v in {**EN_UNITS, **EN_TENS}.items() if k not in ("a", "an", "single", "couple", "pair", "dozen")}


@lru_cache(maxsize=256)
def _names(text: str) -> tuple[tuple[int, int, str, str], ...]:
    """(start, end, kind, id) of the card and model names in ``text``."""
    return tuple((h.start, h.end, kind, h.id) for kind in ("gpu", "model") for h in find_names(kind, text))


def _outside_names(text: str, start: int, end: int) -> bool:
    return all(end <= s or start >= e for s, e, _, _ in _names(text))


def _splice(text: str, start: int, end: int, new: str) -> str:
    """``text`` with ``[start, end)`` replaced by ``new``, spaced from a Latin letter or digit it would touch."""
    if new[:1].isascii() and new[:1].isalnum() and start and text[start - 1].isascii() and text[start - 1].isalnum():
        new = " " + new
    if new[-1:].isascii() and new[-1:].isalpha() and text[end:end + 1].isascii() and text[end:end + 1].isalnum():
        new += " "
    return text[:start] + new + text[end:]


def _sub_numbers(text: str, word: Callable[[int], str | None]) -> list[str]:
    """``text`` with every standalone whole number outside a name written by ``word`` (None keeps it)."""
    out, pos, changed = [], 0, False
    for m in _NUMBER.finditer(text):
        new = word(int(m.group(1))) if _outside_names(text, m.start(), m.end()) else None
        if new is None or (m.group(1).startswith("0") and m.group(1) != "0"):
            continue
        if int(m.group(1)) >= 1000 and text[m.end():m.end() + 1] == "年":
            continue  # a year is read digit by digit (二〇二四年), not as a count
        out.append(text[pos:m.start()] + new)
        pos, changed = m.end(), True
    return ["".join(out) + text[pos:]] if changed else []


def format_cn(value: int) -> str:
    """Write a whole number below 10**12 in Chinese numerals (``120000`` -> ``十二万``).

    The numerals transformation writes counts this way, and the property tests check that
    :func:`advisor.numerals.cn_numeral_value` reads back what a person would write.
    """
    if value == 0:
        return "零"
    digits = "零一二三四五六七八九"

    def below_10k(n: int, pad: bool) -> str:
        out = ""
        zero = False
        for unit, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
            d, n = divmod(n, unit)
            if d:
                if zero or (pad and not out and unit < 1000):
                    out += "零"
                out += digits[d] + name
                zero = False
            elif out:
                zero = True
        return out

    parts: list[str] = []
    for scale, name in ((10**8, "亿"), (10**4, "万"), (1, "")):
        chunk, value = divmod(value, scale)
        if chunk:
            parts.append(below_10k(chunk, pad=bool(parts)) + name)
        elif parts and value:
            parts.append("零")
    text = "".join(parts).replace("零零", "零")
    if text.startswith("一十"):
        text = text[1:]
    return text


def numerals(text: str, lang: str) -> list[str]:
    """Whole numbers written as Chinese numerals (zh) or English words (en, small counts)."""
    cfg = DATA["numerals"]
    if lang == "zh":
        two = re.compile(f"^二(?=[{cfg['zh_two_before']}])")
        return _sub_numbers(text, lambda n: two.sub("两", format_cn(n)) if 0 < n <= cfg["zh_max"] else None)
    return _sub_numbers(text, lambda n: _EN_WORDS.get(n) if 0 < n <= cfg["en_max"] else None)


def fullwidth_digits(text: str, lang: str) -> list[str]:
    out = text.translate({c: c + 0xFEE0 for c in range(ord("0"), ord("9") + 1)})
    return [out] if out != text else []


def fullwidth_ascii(text: str, lang: str) -> list[str]:
    """Letters, digits and signs as a Chinese IME in full-width mode types them."""
    out = text.translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)})
    return [out] if out != text else []


def _fields(groups: dict[str, str | None]) -> dict[str, str]:
    """What a rewrite's template may name: each matched group, its value in Chinese numerals
    (``cn_<group>``), and for ``n``: ×10 thousands, ×100 millions, thousandths, millions in e-notation,
    tenths in Chinese (30 % = 三成), and for ``d`` (days): weeks."""
    out = {k: v for k, v in groups.items() if v}
    for k, v in list(out.items()):
        if re.fullmatch(r"\d+", v):
            out[f"cn_{k}"] = "两" if v == "2" and k != "b" else format_cn(int(v))  # 两块二, 两个半小时
    if "n" in out:
        value = float(out["n"])
        out.update(n10k=f"{value * 10:g}", n100m=f"{value * 100:g}", nk=f"{value / 1000:g}",
                   sci=f"{value * 1e6:.10g}".replace("e+0", "e").replace("e+", "e"))
        if value % 10 == 0 and 0 < value < 100:
            out["cn_tenth"] = format_cn(int(value) // 10)
    if out.get("d", "").isdigit() and int(out["d"]) % 7 == 0:
        out.update(weeks=str(int(out["d"]) // 7), cn_weeks=format_cn(int(out["d"]) // 7).replace("二", "两"))
    return out


def _rewrite(section: str, text: str, lang: str) -> list[str]:
    """Each rule of ``section`` of bench/variations.yaml applied to every match outside a name: the text
    matched by ``from`` written as each ``to`` template (a template naming a field the match lacks is skipped)."""
    out: list[str] = []
    for rule in DATA[section]:
        if rule["lang"] not in ("any", lang):
            continue
        hits = [m for m in re.finditer(rule["from"], text, re.ASCII) if _outside_names(text, m.start(), m.end())]
        for template in rule["to"] if hits else []:
            new = text
            try:
                for m in reversed(hits):
                    new = _splice(new, m.start(), m.end(), template.format(**_fields(m.groupdict())))
            except KeyError:
                continue
            if new != text and new not in out:
                out.append(new)
    return out


def units(text: str, lang: str) -> list[str]:
    """Each unit written another way (bench/variations.yaml ``units``)."""
    return _rewrite("units", text, lang)


def colloquial(text: str, lang: str) -> list[str]:
    """A number, amount, duration or share said as people say it (``colloquial``: 5.5万 = 五万五,
    7.5元 = 七块五, 1.5小时 = 一个半小时, 14 days = a fortnight, 12 = a dozen, 300M = 3e8)."""
    return _rewrite("colloquial", text, lang)


def unit_first(text: str, lang: str) -> list[str]:
    """A currency written before the amount (``unit_first``: 3000元 = RMB 3000)."""
    return _rewrite("unit_first", text, lang)


def thousands(text: str, lang: str) -> list[str]:
    """Whole numbers of four digits or more written in thousands groups (1500000 = 1,500,000)."""
    return _sub_numbers(text, lambda n: f"{n:,}" if n >= 1000 else None)


def voice(text: str, lang: str) -> list[str]:
    """As voice input types it: no punctuation (a space instead), with a spoken filler in front."""
    bare = re.sub(DATA["voice"]["marks"], " ", text).strip()
    return [bare, *(f + bare for f in DATA["voice"][lang])] if bare != text.strip() else [f + text for f in DATA["voice"][lang]]


def mixed_width(text: str, lang: str) -> list[str]:
    """Every other run of Latin letters and digits in full width, as an IME switched mid-sentence types it."""
    runs = list(re.finditer(r"[A-Za-z0-9]+", text))
    out = text
    for m in reversed(runs[1::2]):
        out = out[: m.start()] + fullwidth_ascii(m.group(0), lang)[0] + out[m.end():]
    return [out] if out != text else []


@lru_cache(maxsize=4)
def _aliases(kind: str) -> dict[str, list[str]]:
    cat = get_catalog()
    entries = cat.gpus if kind == "gpu" else cat.models
    return {e.id: [e.id, *e.aliases] for e in entries}


def _name_variants(kind: str, text: str, spell: Callable[[str, list[str]], list[str]]) -> list[str]:
    out: list[str] = []
    for start, end, k, name_id in _names(text):
        if k != kind:
            continue
        for new in spell(text[start:end], _aliases(kind)[name_id]):
            if new.lower() != text[start:end].lower() or new != text[start:end]:
                variant = text[:start] + new + text[end:]
                if variant != text and variant not in out:
                    out.append(variant)
    return out


def card_aliases(text: str, lang: str) -> list[str]:
    """Every catalog alias of each card named."""
    return _name_variants("gpu", text, lambda _w, names: names)


def model_aliases(text: str, lang: str) -> list[str]:
    """Every catalog alias of each model named, and its spellings: lower case, spaces for dashes,
    a space between the family and the version."""
    def spellings(written: str, names: list[str]) -> list[str]:
        spelled = [written.lower(), written.replace("-", " "), re.sub(r"(?<=[a-zA-Z])(?=\d)", " ", written, count=1)]
        return [*names, *spelled]

    return _name_variants("model", text, spellings)


def case(text: str, lang: str) -> list[str]:
    return [v for v in (text.upper(), text.lower()) if v != text]


def spacing(text: str, lang: str) -> list[str]:
    """Spaces between Chinese and Latin or digits added or dropped; in English, doubled."""
    if lang == "zh":
        joined = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])\s+(?=[\u4e00-\u9fff])", "", text)
        spaced = re.sub(r"(?<=[\u4e00-\u9fff])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[\u4e00-\u9fff])", " ", text)
        return [v for v in (joined, spaced) if v != text]
    return [v for v in (text.replace(" ", "  "), re.sub(r"\s*,(?!\d{3})\s*", " , ", text)) if v != text]


def punctuation(text: str, lang: str) -> list[str]:
    """Half-width punctuation as full-width, and back."""
    table = DATA["punctuation"]
    wide = text.translate(str.maketrans(table))
    narrow = text.translate(str.maketrans({v: k for k, v in table.items()}))
    return [v for v in (wide, narrow) if v != text]


def courtesy(text: str, lang: str) -> list[str]:
    """A polite or colloquial opening or closing."""
    words = DATA["courtesy"][lang]
    return [p + text for p in words["prefix"]] + [text.rstrip() + s for s in words["suffix"]]


def swap_clauses(text: str, lang: str) -> list[str]:
    """Two adjacent clauses, neither the last nor depending on the one before it, swapped."""
    parts = _CLAUSE.split(text)
    clauses, seps = parts[0::2], parts[1::2]
    starts = tuple(DATA["dependent_starts"])
    for i in range(len(clauses) - 2):
        a, b = clauses[i].strip(), clauses[i + 1].strip()
        if a and b and not b.lower().startswith(starts) and not a.lower().startswith(starts):
            clauses[i], clauses[i + 1] = clauses[i + 1].strip(), clauses[i].strip()
            return ["".join(c + (seps[j] if j < len(seps) else "") for j, c in enumerate(clauses))]
    return []


def misspell(word: str, kind: str) -> str:
    """``word`` with one slip in its middle: two letters swapped, one dropped, one doubled, or one
    replaced by its neighbour on the keyboard."""
    i = len(word) // 2
    if kind == "swap":
        return word[: i - 1] + word[i] + word[i - 1] + word[i + 1 :] if word[i - 1] != word[i] else word
    if kind == "drop":
        return word[:i] + word[i + 1 :]
    if kind == "double":
        return word[: i + 1] + word[i:]
    row = next(r for r in DATA["typo"]["keyboard"] if word[i] in r)
    j = row.index(word[i])
    return word[:i] + row[j + 1 if j + 1 < len(row) else j - 1] + word[i + 1 :]


def _typo(kind: str) -> Variant:
    def apply(text: str, lang: str) -> list[str]:
        """The first long English word (letters only, not a name) misspelled (see :func:`misspell`)."""
        for m in re.finditer(rf"(?<![A-Za-z0-9])[a-z]{{{DATA['typo']['min_letters']},}}(?![A-Za-z0-9])", text):
            new = misspell(m.group(0), kind)
            if new != m.group(0) and _outside_names(text, m.start(), m.end()):
                return [text[: m.start()] + new + text[m.end():]]
        return []

    return apply


def zh_homophones(text: str, lang: str) -> list[str]:
    """A Chinese term typed with a sound-alike character, as a pinyin IME picks it (``zh_homophones``)."""
    return [text.replace(right, wrong, 1) for right, wrong in DATA["zh_homophones"].items() if right in text]


def mixed_terms(text: str, lang: str) -> list[str]:
    """One Chinese term written in English, as bilingual teams do."""
    if lang != "zh":
        return []
    terms = DATA["mixed_terms"]
    longer = [(m.start(), m.end()) for t in terms for m in re.finditer(re.escape(t), text)]
    out = []
    for zh, en in terms.items():
        at = [m.start() for m in re.finditer(re.escape(zh), text)
              if not any(s <= m.start() and m.end() <= e and e - s > len(zh) for s, e in longer)]
        if at:  # the first use that is not part of a longer term (训练 in 预训练)
            out.append(_splice(text, at[0], at[0] + len(zh), en))
    return out


TRANSFORMS: dict[str, Variant] = {
    "numerals": numerals,
    "fullwidth_digits": fullwidth_digits,
    "fullwidth_ascii": fullwidth_ascii,
    "units": units,
    "card_aliases": card_aliases,
    "model_aliases": model_aliases,
    "case": case,
    "spacing": spacing,
    "punctuation": punctuation,
    "courtesy": courtesy,
    "swap_clauses": swap_clauses,
    "mixed_terms": mixed_terms,
    "typo": _typo("swap"),
    "typo_drop": _typo("drop"),
    "typo_double": _typo("double"),
    "typo_key": _typo("key"),
    "zh_homophones": zh_homophones,
    "colloquial": colloquial,
    "unit_first": unit_first,
    "thousands": thousands,
    "voice": voice,
    "mixed_width": mixed_width,
}


def _reads(item: dict[str, Any], text: str | None = None) -> list[str]:
    """Intent and argument problems of ``item`` asked as ``text`` (verdict and currency not counted)."""
    problems, _ = check_item(item if text is None else {**item, "text": text})
    return [p for p in problems if p.startswith(("intent ", "args."))]


def dev_items(names: list[str] | None = None) -> list[dict[str, Any]]:
    """The dev halves of the persona sets (all, or those named)."""
    return [item for name, path in SETS.items() if not names or name in names for item in load(path, "dev")]


def variants(item: dict[str, Any], only: str | None = None) -> Iterator[tuple[str, str]]:
    """(transformation, variant text) of one item; clause swaps skip items whose expectation is an
    ordered list (stages)."""
    ordered = any(isinstance(v, list) for v in (item["expect"].get("args") or {}).values())
    for name, fn in TRANSFORMS.items():
        if (only and name != only) or (name == "swap_clauses" and ordered):
            continue
        for text in fn(item["text"], item["lang"]):
            yield name, text


def sampled(key: str, every: int) -> bool:
    """A fixed pseudo-random 1-in-``every`` choice by a hash of ``key``."""
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest(), 16) % every == 0


def evaluate(only: str | None = None, every: int = 1, items: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Stability per (transformation, language): [stable, total], and the failing variants."""
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    failures: list[dict[str, Any]] = []
    for item in items if items is not None else dev_items():
        chosen = [(n, t) for n, t in variants(item, only) if sampled(f"{item['id']}|{n}|{t}", every)]
        if not chosen or _reads(item):
            continue
        for name, text in chosen:
            problems = _reads(item, text)
            cell = table[name, item["lang"]]
            cell[0] += not problems
            cell[1] += 1
            if problems:
                failures.append({"id": item["id"], "transform": name, "q": text, "problems": problems})
    return {"table": dict(table), "failures": failures}


def main(argv: list[str]) -> int:
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    sets = [argv[i + 1] for i, a in enumerate(argv) if a == "--set"] or None
    report = evaluate(only, items=dev_items(sets))
    total = [0, 0]
    print(f"{'transformation':18s} {'en':>16s} {'zh':>16s}")
    for name in TRANSFORMS:
        cells = [report["table"].get((name, lang)) for lang in ("en", "zh")]
        if not any(cells):
            continue
        shown = [f"{c[0]}/{c[1]} ({c[0] / c[1]:.1%})" if c else "-" for c in cells]
        print(f"{name:18s} {shown[0]:>16s} {shown[1]:>16s}")
        for c in cells:
            if c:
                total = [total[0] + c[0], total[1] + c[1]]
    print(f"{'all':18s} {total[0]}/{total[1]} ({total[0] / max(total[1], 1):.1%})")
    if "--failures" in argv:
        for f in report["failures"]:
            print(f"  [{f['transform']}] {f['id']}: {f['q']}\n      " + "; ".join(f["problems"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
