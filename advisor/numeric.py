"""The one number parser of the product. Every spelling of a value reads the same:

``7B`` = ``7e9`` = ``7000000000`` = ``70亿`` = ``７Ｂ`` (full-width) = ``7,000,000,000`` =
``7 billion`` = ``7 000 000 000``. Rules:

- Text is NFKC-normalised first (full-width digits, letters, commas and ``％`` become ASCII).
- A comma is a thousands separator only in groups of three (``1,234,567``). Any other comma
  (``7,5B``, a price cell ``1,1``) is an ambiguous decimal comma: an error that says so, never 75.
- Suffixes: k/K, M, B/G, T, thousand/million/billion/trillion/mn/bn, 千/万/百万/千万/亿/十亿/百亿/千亿/万亿.
- NaN, inf and values outside the physical bounds of ``knowledge/limits.yaml`` (``bounds``)
  are errors that give the accepted range.
- Number words with ``words=True`` (free text, the offline assistant): Chinese numerals
  (``三十``, ``两千``, ``3千5百``), English number words (``eight``, ``a dozen``) and ``5w`` (万),
  see :mod:`advisor.numerals`. :data:`NUMBER_TEXT`, :data:`NUMBER_TEXT_NO_WORDS` and
  :data:`COUNT_TEXT` are the patterns that find a number inside a sentence; :func:`read_number`
  reads what they matched.
- Fractions (:func:`parse_fraction`): ``45``, ``45%`` and ``0.45`` mean 0.45; ``150%`` and
  ``100.5`` are errors. A value up to 1 is a fraction, above 1 a percentage.

Public API (also re-exported by :mod:`advisor.units`): :func:`parse_number`,
:func:`parse_count`, :func:`parse_billions`, :func:`parse_fraction`, :func:`parse_price`,
:func:`check_bounds`, :func:`normalize_number_text`.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from advisor.errors import InputError
from advisor.limits import bound, limits
from advisor.numerals import CN_CHARS, CN_LEAD, EN_SCALES, EN_TENS, EN_UNITS, word_number_value

SUFFIX_SCALE: dict[str, float] = {
    "": 1.0, "k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "b": 1e9, "B": 1e9, "g": 1e9, "G": 1e9,
    "t": 1e12, "T": 1e12,
    "thousand": 1e3, "million": 1e6, "mn": 1e6, "mln": 1e6, "billion": 1e9, "bn": 1e9, "trillion": 1e12,
    "千": 1e3, "万": 1e4, "百万": 1e6, "千万": 1e7, "亿": 1e8, "十亿": 1e9, "百亿": 1e10, "千亿": 1e11, "万亿": 1e12,
}
_WORD_SUFFIXES = sorted((s for s in SUFFIX_SCALE if s), key=len, reverse=True)
_SUFFIX_RE = "|".join(re.escape(s) for s in _WORD_SUFFIXES)
_NUMBER = re.compile(
    rf"^(?P<sign>[+-]?)(?P<num>(?:\d[\d,]*)?(?:\.\d+)?)(?P<exp>e[+-]?\d+)?\s*(?P<suffix>{_SUFFIX_RE})?$",
    re.IGNORECASE,
)
_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_SPACES = re.compile(r"(?<=\d)[\s\u00a0\u2009\u202f_'](?=\d{3}(?:\D|$))")
_NON_FINITE = re.compile(r"^[+-]?(nan|inf|infinity|∞)$", re.IGNORECASE)
ACCEPTED_SIZE = "a positive number, optionally with a suffix: 300M, 7B, 7e9, 1.5T, 50k, 5万, 70亿"


# Patterns that find a number inside a sentence (lower-cased text), for :func:`read_number`.
# A number glued after letters is part of a name ("fp8", "bf16", "a100"), except after a currency code ("rmb500").
GROUPED_DIGITS = r"\d{1,3}(?:,\d{3})+"
"""A whole number written in thousands groups ("1,024", "16,384"): one number, not several."""
_ARABIC = rf"(?:(?<![a-z0-9.])|(?<=rmb|usd|cny))(?:(?:{GROUPED_DIGITS}|\d+)(?:\.\d+)?|\.\d+)(?:e[+-]?\d+(?![\d.]))?"
# A Chinese numeral starts with a digit or a small unit (十二, 千亿); 万/亿 alone are not numbers.
_CN = rf"[{CN_LEAD}][{CN_CHARS}]*"
_EN_SMALL = "|".join(sorted([*EN_UNITS, *EN_TENS], key=len, reverse=True))
_EN_SCALE = "|".join(EN_SCALES)
_EN = rf"(?:(?:half\s+)?(?:an?|{_EN_SMALL})(?:[\s-](?:{_EN_SMALL}))?\s+(?:{_EN_SCALE})(?:\s+of)?|(?:{_EN_SMALL})(?:[\s-](?:{_EN_SMALL}))?)"
# a Chinese unit may be followed by more digits and units of one number ("1万5千", "1 万 5 千", "3千5百"), and
# 万/亿 by the digits of the next unit down ("1万5000", "1万5" = 15000, "2亿5" = 2.5亿; not "2万8张": a count follows)
_TEXT_SUFFIX = (r"(?:\s*(?:[十百千万亿]+(?:\s*\d+(?:\.\d+)?\s*[十百千万]+)*(?:(?<=[千万亿])\d{1,4}(?![\d.])(?!\s*(?:张|卡|台|块|个|节|片|x|×)))?"
                r"|thousand|million|billion|trillion|bn|mn)|[kmbtgw](?![a-z0-9]))")
NUMBER_TEXT = rf"(?:(?:{_ARABIC}){_TEXT_SUFFIX}?|{_CN}|(?<![a-z])(?:{_EN})(?![a-z]))"
"""Any number in a sentence: arabic (with an optional size suffix), a Chinese numeral or English words."""
NUMBER_TEXT_NO_WORDS = rf"(?:(?:{_ARABIC}){_TEXT_SUFFIX}?|{_CN})"
"""Like :data:`NUMBER_TEXT` without English words (where "a"/"one" would be ambiguous)."""
COUNT_TEXT = rf"(?:{GROUPED_DIGITS}(?![\d.])|\d+|[{CN_LEAD[:-1]}][{CN_LEAD}]*|(?<![a-z])(?:(?:an?\s+)?(?:couple|pair|dozen)(?:\s+of)?|(?:{_EN_SMALL})(?:\s+dozen)?)(?![a-z]))"
"""A small whole count in a sentence (GPUs, epochs): no size suffix, no 万/亿; thousands groups ("1,024") are one count."""
_WAN = re.compile(r"^(\d+(?:\.\d+)?)\s*w$", re.IGNORECASE)  # "5w条": w for 万 (wan) in Chinese chat


def normalize_number_text(text: str) -> str:
    """NFKC (full-width -> ASCII), unified minus signs, digit-group spaces removed."""
    s = unicodedata.normalize("NFKC", str(text)).strip()
    s = s.replace("\u2212", "-").replace("\u2013", "-").replace("，", ",")
    s = _SPACES.sub("", s)
    return s.strip()


def _accepted(quantity: str | None, default: str) -> str:
    if not quantity:
        return default

    lo, hi, unit = bound(quantity)
    return f"{default}, from {lo:g} to {hi:g} {unit}".rstrip()


def check_bounds(value: float, field: str, quantity: str | None, *, shown: object = None,
                 allow_zero: bool = True) -> float:
    """``value`` if finite and within the bounds of ``quantity``; else an error with the range."""
    shown = value if shown is None else shown
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise InputError(field, shown, "a finite number" + (f" ({_accepted(quantity, '')[2:]})" if quantity else ""))
    if quantity:
        lo, hi, unit = bound(quantity)
        if value < lo or value > hi or (value == 0 and not allow_zero):
            raise InputError(field, shown, f"a value from {lo:g} to {hi:g} {unit}".rstrip())
    return float(value)


def parse_number(text: Any, field: str = "value", *, quantity: str | None = None, suffixes: bool = True,
                 accepted: str = "a number", words: bool = False) -> float:
    """A number in any of the spellings above, scaled by its suffix, checked against ``quantity``.
    With ``words``, number words (``三十``, ``3千5百``, ``twenty-four``) and ``5w`` are read too."""
    if isinstance(text, bool) or text is None:
        raise InputError(field, text, accepted)
    if isinstance(text, int | float):
        return check_bounds(float(text), field, quantity, shown=text)
    raw = str(text)
    s = normalize_number_text(raw)
    if not s:
        raise InputError(field, raw, f"{accepted} (the value is empty)")
    if _NON_FINITE.match(s):
        raise InputError(field, raw, f"a finite number, not {s}" + (f" ({_accepted(quantity, '')[2:]})" if quantity else ""))
    m = _NUMBER.match(s)
    if words and (not m or not m.group("num").strip(".,")):
        return check_bounds(_word_number(s, field, raw, accepted), field, quantity, shown=raw)
    if not m or not m.group("num").strip(".,") or (m.group("suffix") and not suffixes):
        raise InputError(field, raw, accepted)
    num = m.group("num")
    if "," in num:
        if not _THOUSANDS.match(num):
            raise InputError(field, raw, f"{accepted}: the comma in {raw.strip()!r} is ambiguous (a decimal comma "
                                         "or a thousands separator?); write a point for decimals (7.5) or no separator")
        num = num.replace(",", "")
    if num.count(".") > 1:
        raise InputError(field, raw, f"{accepted}: {raw.strip()!r} has more than one decimal point")
    suffix = m.group("suffix") or ""
    scale = SUFFIX_SCALE.get(suffix, SUFFIX_SCALE.get(suffix.lower(), 1.0))
    try:
        value = float(f"{m.group('sign')}{num}{m.group('exp') or ''}") * scale
    except (ValueError, OverflowError):
        raise InputError(field, raw, accepted) from None
    return check_bounds(value, field, quantity, shown=raw)


def _word_number(s: str, field: str, raw: str, accepted: str) -> float:
    wan = _WAN.match(s)
    if wan:
        return float(wan.group(1)) * SUFFIX_SCALE["万"]
    try:
        return word_number_value(s)
    except InputError:
        raise InputError(field, raw, accepted) from None


def read_number(text: str, field: str = "number") -> float:
    """The value of a number that :data:`NUMBER_TEXT` or :data:`COUNT_TEXT` found in a sentence."""
    return parse_number(text, field, words=True)


def quantity_of(field: str) -> str | None:
    """The physical quantity a field measures, from its name (``limits.yaml`` ``field_quantity``)."""
    name = field.lower()
    for part, quantity in limits().get("field_quantity", []):
        if part in name:
            return str(quantity)
    return None


def parse_count(text: Any, field: str = "size", *, allow_zero: bool = False, quantity: str | None = None) -> float:
    """``"7B"``, ``"1.5T"``, ``"50k"``, ``"5万"`` or a number -> a plain count (positive)."""
    quantity = quantity or quantity_of(field)
    value = parse_number(text, field, quantity=quantity, accepted=ACCEPTED_SIZE)
    if value < 0 or (value == 0 and not allow_zero):
        raise InputError(field, text, ACCEPTED_SIZE)
    return value


def parse_billions(text: Any, field: str = "size", *, quantity: str | None = None) -> float:
    """A size in billions. A bare number typed as text is taken as billions (``7`` -> 7.0)
    unless it is larger than ``bare_billions_max`` of limits.yaml, when it can only be a plain
    count (``7000000000`` -> 7.0, ``7e9`` -> 7.0). Suffixed values are counts: ``300M`` -> 0.3.
    A Python number is already in billions (the field's unit) unless it is larger than the
    quantity's upper bound in billions, when it can only be a count: so a value this function
    returned parses to itself again, up to the bound (``1e6`` billions of parameters stays)."""
    quantity = quantity or quantity_of(field)
    bare_max = float(limits().get("bare_billions_max", 1e5))
    if isinstance(text, int | float) and not isinstance(text, bool):
        value = check_bounds(float(text), field, None, shown=text)
        most_billions = bound(quantity)[1] / 1e9 if quantity else bare_max
        count = value if abs(value) > most_billions else value * 1e9
    else:
        s = normalize_number_text(str(text)) if text is not None else ""
        bare = bool(s) and _NUMBER.match(s) is not None and not (_NUMBER.match(s).group("suffix") or "")  # type: ignore[union-attr]
        count = parse_number(text, field, accepted=ACCEPTED_SIZE)
        if bare and abs(count) <= bare_max:
            count *= 1e9
    if count <= 0:
        raise InputError(field, text, ACCEPTED_SIZE)
    check_bounds(count, field, quantity, shown=text)
    return count / 1e9


def parse_fraction(text: Any, field: str = "utilization") -> float:
    """A share as a fraction 0..1: ``0.45``, ``45`` and ``45%`` all mean 0.45. ``150%``,
    ``100.5`` and negative values are errors. (``1`` means 100 %; write ``1%`` for one percent.)"""
    accepted = "a share from 0 to 1, or a percentage from 0 to 100 (45, 45% or 0.45)"
    if isinstance(text, str):
        s = normalize_number_text(text)
        percent = s.endswith("%")
        value = parse_number(s.rstrip("%").strip(), field, suffixes=False, accepted=accepted)
    else:
        percent = False
        value = parse_number(text, field, suffixes=False, accepted=accepted)
    if value < 0 or value > 100 or (percent and value > 100):
        raise InputError(field, text, accepted)
    return value / 100 if percent or value > 1 else value


_CURRENCY_MARKS = re.compile(r"^(?P<pre>US\$|\$|USD|CNY|RMB|¥|￥)?\s*(?P<num>.*?)\s*(?P<post>元|块|USD|CNY|RMB|美元|/h|/hr|/小时)*$",
                             re.IGNORECASE)


def parse_price(text: Any, field: str = "price", currency: str | None = None) -> float:
    """A price per GPU-hour (``2.5``, ``$2.5``, ``¥12``, ``12元``), within the bound of its currency."""
    cur = (currency or "USD").upper()
    quantity = f"price_per_gpu_hour_{cur.lower()}"
    accepted = "a price per GPU-hour such as 2.5 or $2.50"
    if isinstance(text, str):
        m = _CURRENCY_MARKS.match(normalize_number_text(text))
        body = m.group("num") if m else text
        value = parse_number(body, field, suffixes=False, accepted=accepted, quantity=None)
        return check_bounds(value, field, quantity, shown=text)
    value = parse_number(text, field, suffixes=False, accepted=accepted)
    return check_bounds(value, field, quantity, shown=text)


def _breaks(rule: dict[str, Any], value: float) -> bool:
    """True when ``value`` is outside one rule of limits.yaml ``request_rules`` (NaN always is)."""
    if not math.isfinite(value):
        return True
    if "one_of" in rule:
        return value not in rule["one_of"]
    lo, hi = rule.get("min"), rule.get("max")
    return (lo is not None and (value < lo or (value == lo and bool(rule.get("open_min"))))) or (
        hi is not None and value > hi)


def check_request_bounds(request: Any) -> Any:
    """Every numeric field of a request model named in ``request_rules`` of limits.yaml keeps
    its rule, and every one named in ``request_bounds`` is finite and within its bound (prices
    by the request's currency). Use as an after-validator."""

    currency = str(getattr(request, "currency", None) or "USD").lower()
    names, rules, bounds = _checks(type(request), limits())
    for name in names:
        value = getattr(request, name, None)
        if any(isinstance(v, str) and not v.strip() for v in (value if isinstance(value, list) else [value])):
            raise InputError(name, value, f"a {name} name (it is empty)")
    for rule, name in rules:
        value = getattr(request, name, None)
        if isinstance(value, int | float) and not isinstance(value, bool) and _breaks(rule, value):
            raise InputError(name, value, str(rule["expected"]))
    for name, quantity in bounds:
        value = getattr(request, name, None)
        if isinstance(value, int | float) and not isinstance(value, bool):
            check_bounds(float(value), name, str(quantity).format(currency=currency))
    return request


_CHECKS: dict[type, tuple[dict[str, Any], Any]] = {}


def _checks(cls: type, rules: dict[str, Any]) -> Any:
    """The limits.yaml checks that name an attribute of ``cls`` (the others read None and pass),
    listed once per model class and limits version."""
    hit = _CHECKS.get(cls)
    if hit is None or hit[0] is not rules:
        def has(name: str) -> bool:
            return name in getattr(cls, "model_fields", {}) or hasattr(cls, name)
        plan = ([n for n in rules.get("name_fields") or [] if has(n)],
                [(r, n) for r in rules.get("request_rules") or [] for n in r["fields"] if has(n)],
                [(n, q) for n, q in (rules.get("request_bounds") or {}).items() if has(n)])
        hit = _CHECKS[cls] = (rules, plan)
    return hit[1]


class ToolRequest(BaseModel):
    """What every tool's request shares: unknown fields are refused, and the rules of
    ``request_rules`` / ``request_bounds`` in limits.yaml are checked on every field."""

    model_config = ConfigDict(extra="forbid")
    _bounds = model_validator(mode="after")(check_request_bounds)


def validated(model: type[BaseModel], request: BaseModel | None, kwargs: dict[str, Any],
              accepted: Mapping[str, str] | None = None) -> Any:
    """Build ``model`` from a request and/or keyword arguments (the keywords win); one clear
    InputError on failure. ``accepted``: what the tool's fields take, worded for that error
    (default: the model's :func:`accepted_of`; key ``request``: any field not listed)."""
    if request is not None and not kwargs:
        return request
    data = {**(request.model_dump(exclude_none=True) if request is not None else {}), **kwargs}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise input_error(exc, accepted if accepted is not None else accepted_of(model)) from None


def accepted_of(model: type[BaseModel]) -> dict[str, str]:
    """What each field of a request model takes, in words (limits.yaml ``request_accepted``)."""
    return dict(limits().get("request_accepted", {}).get(model.__name__, {}))


def input_error(exc: ValidationError, accepted: Mapping[str, str] | None = None) -> InputError:
    """The first problem of a request's ValidationError as an InputError naming the field."""
    err = exc.errors()[0]
    loc = [str(x) for x in err.get("loc", ())]
    field = ".".join(loc) or "request"
    cause = err.get("ctx", {}).get("error")
    if isinstance(cause, InputError):
        return cause
    first = loc[0] if loc else "request"
    if accepted and (first in accepted or "request" in accepted):
        return InputError(first, err.get("input"), accepted.get(first) or accepted["request"])
    if err.get("type") == "extra_forbidden":
        return InputError(field, err.get("input"), "one of the documented fields (see `advisor estimate --help`)")
    if err.get("type") == "literal_error":
        return InputError(field, err.get("input"), err.get("ctx", {}).get("expected", "a listed value"))
    return InputError(field, err.get("input"), err.get("msg", "a valid value").removeprefix("Input should be "))


def _size(parse: Callable[[Any, str], float]) -> BeforeValidator:
    """A request size read by ``parse`` (its errors name the field); empty means not given."""

    def read(v: Any, info: ValidationInfo) -> Any:
        return None if v is None or v == "" else parse(v, info.field_name or "size")

    return BeforeValidator(read)


Billions = Annotated[float | None, _size(parse_billions)]
"""A size in billions: ``7B``, ``70亿``, ``300M`` -> 7, 7, 0.3."""
Count = Annotated[float | None, _size(parse_count)]
"""A plain count: ``50k``, ``5万``, ``100M`` -> 50000, 50000, 1e8."""
