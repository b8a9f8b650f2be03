"""Numbers written as words, part of the one number parser (:mod:`advisor.numeric`):
Chinese numerals (``三十``, ``两千``, ``一亿五千万``, ``3千5百``) and English number words
(``eight``, ``twenty-four``, ``a dozen``). :func:`advisor.numeric.parse_number` reads them
with ``words=True``; the patterns that find a number inside a sentence are
:data:`advisor.numeric.NUMBER_IN_TEXT` and friends.
"""

from __future__ import annotations

import re

from advisor.errors import InputError

CN_DIGITS = {
    "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "仨": 3, "四": 4,
    "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}  # fmt: skip
CN_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
CN_CHARS = "零〇一二两俩三仨四五六七八九十百千万亿"
CN_LEAD = "零〇一二两俩三仨四五六七八九十百千"
"""What a Chinese numeral starts with: a digit or a small unit (十二, 千亿); 万/亿 alone are not numbers."""

EN_UNITS = {
    "zero": 0, "one": 1, "a": 1, "an": 1, "single": 1, "two": 2, "couple": 2, "three": 3,
    "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "pair": 2,
}  # fmt: skip
EN_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
EN_SCALES = {"dozen": 12, "hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def cn_numeral_value(text: str) -> float:
    """``三十`` -> 30, ``两千`` -> 2000, ``一亿五千万`` -> 1.5e8, ``十万亿`` -> 1e13.

    Arabic digits may stand in for Chinese digits (``3千5百`` -> 3500). A digit right after a unit
    counts in the next unit down, as people say it (``三千五`` -> 3500, ``两万五`` -> 25000, ``一百五``
    -> 150; ``一千零五`` -> 1005). Raises :class:`InputError` for text that is not a numeral.
    """
    total = 0.0  # the part above the last 亿
    section = 0.0  # the part above the last 万 (below 亿)
    current: float | None = None  # a digit waiting for its unit
    digits = ""
    last_unit: float | None = None  # the unit just before the trailing digit (None after 零)
    i = 0
    while i < len(text):
        ch = text[i]
        m = re.match(r"\d+(?:\.\d+)?", text[i:])
        if m:
            current, digits = float(m.group(0)), m.group(0)
            i += len(m.group(0))
            continue
        if ch in CN_DIGITS:
            if CN_DIGITS[ch] == 0:
                last_unit = None
            digits += ch
            current = float(CN_DIGITS[ch]) if len(digits) == 1 else _digit_string(digits)
        elif ch in CN_SMALL_UNITS:
            section += (1.0 if current is None else current) * CN_SMALL_UNITS[ch]
            current, digits, last_unit = None, "", CN_SMALL_UNITS[ch]
        elif ch == "万":
            section = (section + (current or 0.0)) * 1e4 if (section or current) else 1e4
            current, digits, last_unit = None, "", 1e4
        elif ch == "亿":
            base = total + section + (current or 0.0)
            total = base * 1e8 if base else 1e8
            section, current, digits, last_unit = 0.0, None, "", 1e8
        elif not ch.isspace():
            raise InputError("number", text, "a Chinese numeral such as 三十, 两千, 1.5万")
        if ch not in CN_DIGITS:
            digits = ""
        i += 1
    if current is not None and last_unit and len(digits) <= 1:
        current *= last_unit / 10  # 三千五: the 5 is 5 hundreds
    return total + section + (current or 0.0)


def _digit_string(digits: str) -> float:
    """``二〇二四`` -> 2024 (digits written one by one, without units)."""
    return float("".join(str(CN_DIGITS[d]) for d in digits))


def en_number_value(text: str) -> float:
    """``eight`` -> 8, ``twenty-four`` -> 24, ``a`` -> 1, ``two hundred`` -> 200, ``two dozen`` -> 24,
    ``a couple of`` -> 2, ``half a million`` -> 500000."""
    value = 0.0
    current = 0.0
    words = [w for w in re.split(r"[\s-]+", text.strip().lower()) if w]
    if len(words) > 1 and words[-1] == "of":
        words = words[:-1]  # "a couple of", "a dozen of"
    if len(words) > 2 and words[0] == "half" and words[1] in ("a", "an"):
        return en_number_value(" ".join(words[2:])) / 2
    if len(words) > 1 and words[0] in ("a", "an"):
        words = words[1:]  # "a dozen", "a hundred", "a couple"
    if not words:
        raise InputError("number", text, "English number words such as eight or twenty-four")
    for word in words:
        if word == "and":
            continue
        if word in EN_UNITS:
            current += EN_UNITS[word]
        elif word in EN_TENS:
            current += EN_TENS[word]
        elif word in EN_SCALES:
            scale = EN_SCALES[word]
            current = (current or 1.0) * scale
            if scale >= 1e3:
                value, current = value + current, 0.0
        else:
            raise InputError("number", text, "English number words such as eight or twenty-four")
    return value + current


def word_number_value(text: str) -> float:
    """A number written with words: a Chinese numeral (digits may mix in) or English words."""
    s = text.strip().lower()
    if s and (s[0] in CN_CHARS or (s[0].isdigit() and any(c in CN_CHARS for c in s))):
        return cn_numeral_value(s)
    return en_number_value(s)
