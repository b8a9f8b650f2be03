"""Who is who: the provider and the customer of a contract, and which of them a clause binds.

Chinese contracts name the parties 甲方 and 乙方 and say in the preamble which one rents the
compute out ("乙方（出租方）", "甲方：某某科技有限公司（服务提供方）"). Procurement
practice makes the buyer 甲方, so without such a statement 乙方 is taken as the provider.
English contracts use role nouns (Provider, Customer) or defined names; a defined name the
preamble ties to a role ("Acme Cloud Ltd. (the "Provider")") is recognized too.
"""

from __future__ import annotations

import re
from typing import Literal

Party = Literal["provider", "customer", "both", "other"]

_ZH_PROVIDER_ROLE = r"(?:出租方|出租人|服务提供方|服务方|提供方|供应商|服务商|供方|卖方|平台方)"
_ZH_CUSTOMER_ROLE = r"(?:承租方|承租人|租用方|使用方|需求方|用户|客户|采购方|买方|需方)"
_ZH_ROLE_RE = re.compile(
    rf"(?P<label>甲方|乙方)\s*[（(：:]?\s*[^，。；\n]{{0,30}}?(?:(?P<p>{_ZH_PROVIDER_ROLE})|(?P<c>{_ZH_CUSTOMER_ROLE}))"
    rf"|(?:(?P<p2>{_ZH_PROVIDER_ROLE})|(?P<c2>{_ZH_CUSTOMER_ROLE}))\s*[（(：:]?\s*[^，。；\n]{{0,30}}?(?:简称|称)?\s*[“\"「]?(?P<label2>甲方|乙方)"
)

EN_PROVIDER_WORDS = r"provider|supplier|vendor|lessor|licensor|contractor|host|operator|carrier|we|us|our|company|service\s+provider|platform"
EN_CUSTOMER_WORDS = r"customer|client|you|your|lessee|licensee|subscriber|tenant|purchaser|buyer|user"
EN_BOTH_WORDS = r"either\s+party|any\s+party|both\s+parties|each\s+party|either\s+of\s+the\s+parties|the\s+parties|a\s+party|one\s+party|either\s+[A-Z]\w+\s+or\s+[A-Z]\w+"
ZH_BOTH_WORDS = r"双方|任何一方|任一方|各方|任意一方|(?<![另对])一方"


def zh_provider_label(text: str) -> str:
    """``"甲方"`` or ``"乙方"``: which label the contract gives the provider (default 乙方)."""
    votes = {"甲方": 0, "乙方": 0}
    for m in _ZH_ROLE_RE.finditer(text[:20000]):
        label = m.group("label") or m.group("label2")
        is_provider = bool(m.group("p") or m.group("p2"))
        other = "乙方" if label == "甲方" else "甲方"
        votes[label if is_provider else other] += 1
    return "甲方" if votes["甲方"] > votes["乙方"] else "乙方"


def party_words(zh_provider: str) -> tuple[str, str]:
    """Regex alternations for (provider, customer) in a Chinese contract."""
    zh_customer = "甲方" if zh_provider == "乙方" else "乙方"
    provider = rf"{zh_provider}|出租方|出租人|服务商|服务方|服务提供方|提供方|平台|供应商|我方|本公司"
    customer = rf"{zh_customer}|承租方|承租人|租用方|用户|客户|使用方|贵方"
    return provider, customer


class PartyResolver:
    """Finds the party that acts in a sentence: the nearest role word before ``position``."""

    def __init__(self, zh_provider: str = "乙方") -> None:
        zp, zc = party_words(zh_provider)
        self._re = re.compile(
            rf"(?P<both>\b(?:{EN_BOTH_WORDS})\b|{ZH_BOTH_WORDS})"
            rf"|(?P<provider>\b(?:{EN_PROVIDER_WORDS})\b|{zp})"
            rf"|(?P<customer>\b(?:{EN_CUSTOMER_WORDS})\b|{zc})",
            re.IGNORECASE,
        )

    def actor(self, sentence: str, position: int) -> Party:
        """The party named last before ``position`` (the subject of "may terminate")."""
        window = sentence[max(0, position - 160) : position]
        found: Party = "other"
        for m in self._re.finditer(window):
            found = m.lastgroup  # type: ignore[assignment]
        return found

    def first(self, text: str) -> Party:
        """The first party named in ``text`` (the agent after "terminated by")."""
        m = self._re.search(text)
        return m.lastgroup if m else "other"  # type: ignore[return-value]
