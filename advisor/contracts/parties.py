"""Who is who: the provider and the customer of a contract, and which of them a clause binds.

Chinese contracts name the parties 甲方 and 乙方 and say in the preamble which one rents the
compute out ("乙方（出租方）", "甲方：某某科技有限公司（服务提供方）"). Procurement
practice makes the buyer 甲方, so without such a statement 乙方 is taken as the provider.
English contracts use role nouns (Provider, Customer) or defined names; a defined name the
preamble ties to a role ("Acme Cloud Ltd. (the "Provider")") is recognized too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Parties:
    """Who is who in one contract: the Chinese label of the provider (甲方/乙方) and the names
    the preamble defines for each side ("上海星云算力科技有限公司（以下简称“星云”）",
    "Nimbus Compute Ltd. (the \"Provider\")"), so that a clause naming a party only by its
    company name is read as the provider's or the customer's."""

    zh_provider: str = "乙方"
    provider: tuple[str, ...] = ()
    customer: tuple[str, ...] = ()


Layout = str | Parties  # a bare 甲方/乙方 label, or the full party definitions


def as_parties(layout: Layout) -> Parties:
    return layout if isinstance(layout, Parties) else Parties(layout)


_ZH_COMPANY = r"[\u4e00-\u9fffA-Za-z0-9（）()·&\-]{2,40}?(?:有限责任公司|股份有限公司|有限公司|股份公司|集团|公司|研究院|中心|工作室)"
_SHORT = r"(?:以下|下文)?(?:简称|称|称为)\s*[“\"「『]?(?P<short>[^”\"」』）)，,、；;\s]{1,12})[”\"」』]?"
_ZH_DEF_RE = re.compile(
    rf"(?:(?P<label>甲方|乙方|{_ZH_PROVIDER_ROLE}|{_ZH_CUSTOMER_ROLE})\s*[（(]?[^：:\n]{{0,8}}[）)]?\s*[：:]\s*)?(?P<name>{_ZH_COMPANY})\s*[（(][^）)\n]{{0,20}}?{_SHORT}[^）)\n]{{0,20}}[）)]"
)
_EN_DEF_RE = re.compile(
    r"(?P<name>[A-Z][\w&.,'\- ]{1,60}?(?:Inc|Ltd|LLC|GmbH|Limited|Corporation|Corp|Co|Company|plc|S\.A|B\.V|Pte)\.?)\s*,?\s*\("
    r"(?:hereinafter\s+)?(?:referred\s+to\s+as\s+)?(?:the\s+)?[\"“](?P<short>[A-Z][\w\- ]{1,30})[\"”]"
    r"(?:\s*(?:or|and)\s+(?:the\s+)?[\"“](?P<role>[A-Z][\w\- ]{1,30})[\"”])?\)"
)
_EN_PROVIDER_ROLE_RE = re.compile(r"^(?:provider|supplier|vendor|lessor|licensor|contractor|host|operator|service\s+provider|company)$", re.IGNORECASE)
_EN_CUSTOMER_ROLE_RE = re.compile(r"^(?:customer|client|lessee|licensee|subscriber|tenant|purchaser|buyer|user)$", re.IGNORECASE)


def read_parties(text: str) -> Parties:
    """The party definitions of a contract's preamble (its first 20,000 characters)."""
    head = text[:20000]
    zh = zh_provider_label(head) if re.search(r"[\u4e00-\u9fff]", head) else "乙方"
    provider: list[str] = []
    customer: list[str] = []
    for m in _ZH_DEF_RE.finditer(head):
        short = m.group("short")
        label = short if short in ("甲方", "乙方") else m.group("label")
        if label is None:
            around = head[m.start() : m.end() + 30]
            label = next((lab for lab in ("甲方", "乙方") if lab in around), None)
        if label is None:
            continue
        if label not in ("甲方", "乙方"):  # "出租方：…" / "租用方：…": the role names the side
            label = zh if re.fullmatch(_ZH_PROVIDER_ROLE, label) else ("甲方" if zh == "乙方" else "乙方")
        name = re.sub(r"^.*(?:由|与|和|及|同|跟|是|为|：|:)", "", m.group("name"))
        names = [name] + ([short] if short not in ("甲方", "乙方") else [])
        (provider if label == zh else customer).extend(names)
    unroled: list[list[str]] = []
    sides = {"provider": False, "customer": False}
    for m in _EN_DEF_RE.finditer(head):
        roles = [r for r in (m.group("short"), m.group("role")) if r]
        name = re.split(r"\b(?:between|and|with|by|from|to)\s+", m.group("name"))[-1].rstrip(" ,")
        names = [name] + [r for r in roles if not (_EN_PROVIDER_ROLE_RE.match(r) or _EN_CUSTOMER_ROLE_RE.match(r))]
        if any(_EN_PROVIDER_ROLE_RE.match(r) for r in roles):
            provider.extend(names)
            sides["provider"] = True
        elif any(_EN_CUSTOMER_ROLE_RE.match(r) for r in roles):
            customer.extend(names)
            sides["customer"] = True
        else:
            unroled.append(names)
    if len(unroled) == 1 and sides["provider"] != sides["customer"]:  # the other party of two
        (customer if sides["provider"] else provider).extend(unroled[0])
    clean = lambda names: tuple(dict.fromkeys(n.strip() for n in names if len(n.strip()) >= 2))  # noqa: E731
    return Parties(zh, clean(provider), clean(customer))


def _alias_re(names: tuple[str, ...]) -> str:
    return "".join(f"|{re.escape(n)}" for n in sorted(names, key=len, reverse=True))


def party_words(layout: Layout) -> tuple[str, str]:
    """Regex alternations for (provider, customer) in a Chinese contract, with the names
    the preamble defines for each side."""
    parties = as_parties(layout)
    zh_provider = parties.zh_provider
    zh_customer = "甲方" if zh_provider == "乙方" else "乙方"
    provider = rf"{zh_provider}|出租方|出租人|服务商|服务方|服务提供方|提供方|平台|供应商|我方|本公司{_alias_re(parties.provider)}"
    customer = rf"{zh_customer}|承租方|承租人|租用方|用户|客户|使用方|贵方{_alias_re(parties.customer)}"
    return provider, customer


class PartyResolver:
    """Finds the party that acts in a sentence: the nearest role word before ``position``."""

    def __init__(self, layout: Layout = "乙方") -> None:
        zp, zc = party_words(layout)
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
