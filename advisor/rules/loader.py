"""Rule packs: ``rules/<pack>.yaml`` read, validated and compiled into :class:`Pack` objects.

Every problem is one :class:`RuleError` line naming the file, the rule and the field
(``rules/sizing.yaml, rule 'sizing.overkill_gpu', field 'when.all[0].operator': unknown
operator 'greater' (...)``). Packs are cached until their file or their fact registry
changes, so evaluating does not re-read YAML, and editing a pack is picked up without a
restart.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor import config
from advisor.errors import RuleError, UnknownNameError, close_matches
from advisor.rules.conditions import (
    ConditionError,
    Leaf,
    Node,
    engine_number,
    facts_of,
    guaranteed,
    parse_condition,
    to_engine,
)
from advisor.rules.expr import Expression, parse_expression
from advisor.rules.registry import FactRegistry, load_registry, read_yaml
from advisor.rules.schema import (
    CONTRACT_CATEGORIES,
    CONTRACT_EXTRA_CATEGORIES,
    REQUIREMENT_IDS,
    PackSpec,
    RuleSpec,
    first_error,
)
from advisor.rules.templates import Template, parse_template

LANGS = ("en", "zh")
TEXT_FIELDS = ("title", "detail", "recommendation")
_CJK = re.compile(r"[\u3400-\u9fff]")
# A YAML folded line break between two Chinese characters (or full-width punctuation) is not
# a space in Chinese: "；\n配合" must read "；配合".
_ZH_GAP = re.compile(r"(?<=[\u3000-\u303f\u3400-\u9fff\uff00-\uffef])\s+(?=[\u3000-\u303f\u3400-\u9fff\uff00-\uffef])")
# Every message carries this field and every ruleset has a rule that matches it, so the
# engine never meets an unhandled fact (see host.py for why that matters).
MARKER = "_advisor"


@dataclass(frozen=True)
class Rule:
    id: str
    pack: str
    category: str
    severity: str
    requirement: tuple[str, ...]
    source: str
    when: Node
    savings: Expression | None
    evidence: tuple[str, ...]
    text: dict[str, dict[str, Template]]
    uses: frozenset[str]  # every fact the rule reads: conditions, texts, savings, evidence
    requires: frozenset[str]  # facts its texts need: the rule fires only when they are present

    def engine_condition(self) -> dict[str, Any]:
        """The durable JSON of the rule's condition (``m``), with the text facts required."""
        extra = [{"$ex": {f: 1}} for f in sorted(self.requires - guaranteed(self.when))]
        cond = to_engine(self.when)
        return {"$and": [cond, *extra]} if extra else cond


@dataclass(frozen=True)
class Pack:
    name: str
    domain: str
    path: str
    description: dict[str, str]
    rules: tuple[Rule, ...]
    registry: FactRegistry
    digest: str
    slots: tuple[Leaf, ...] = field(default=())  # `matches` leaves, decided in Python
    by_id: dict[str, Rule] = field(default_factory=dict, compare=False)
    uses: frozenset[str] = frozenset()  # every fact some rule reads
    engine_facts: tuple[str, ...] = ()  # the facts the engine's conditions test
    rule_paths: dict[str, str] = field(default_factory=dict, compare=False)  # combined packs: rule id -> its file

    def path_of(self, rule_id: str | None) -> str:
        """The file a rule comes from (a combined pack spans several)."""
        return self.rule_paths.get(rule_id or "", self.path)

    @property
    def ruleset_name(self) -> str:
        """Engine rulesets are global per process: a content hash in the name lets a changed
        pack (or the same pack from another directory) register beside the old one."""
        return f"{self.name}-{self.digest[:16]}"

    def rule(self, rule_id: str) -> Rule:
        if rule_id in self.by_id:
            return self.by_id[rule_id]
        raise UnknownNameError("rule", rule_id, close_matches(rule_id, [r.id for r in self.rules]))

    def normalize(self, facts: dict[str, Any]) -> dict[str, Any]:
        """The facts this pack reads, type-checked; missing and ``None`` values are dropped."""
        return self.registry.normalize(facts, self.uses)

    def message(self, facts: dict[str, Any], sid: str) -> dict[str, Any]:
        """The one engine fact of an evaluation, built from normalized facts."""
        msg: dict[str, Any] = {"sid": sid, MARKER: 1}
        for name in self.engine_facts:
            if name in facts:
                msg[name] = engine_number(facts[name])
        for leaf in self.slots:
            msg[leaf.slot] = leaf.holds(facts)  # type: ignore[index]
        return msg


# --- reading ----------------------------------------------------------------------------


def pack_paths(rules_dir: Path | None = None) -> list[Path]:
    base = rules_dir or config.rules_dir()
    return sorted(p for p in base.glob("*.yaml") if p.is_file())


def parse_pack(path: Path, problems: list[str] | None = None) -> Pack:
    """Read and compile one pack. With ``problems``, broken rules are reported there (one
    line each) and skipped; without it, the first problem raises :class:`RuleError`."""
    where = str(path)
    raw_bytes = path.read_bytes()
    data = read_yaml(path, raw_bytes)
    if not isinstance(data, dict):
        raise RuleError(where, "expected a mapping with pack, domain, description, rules")
    try:
        spec = PackSpec.model_validate(data)
    except ValidationError as exc:
        loc, msg = first_error(exc)
        raise RuleError(where, msg, field=loc) from exc
    if spec.pack != path.stem:
        raise RuleError(where, f"pack {spec.pack!r} must match the file name {path.stem!r}", field="pack")
    if not (path.parent / "facts" / f"{spec.domain}.yaml").is_file():
        raise RuleError(where, f"unknown domain {spec.domain!r}: no {path.parent / 'facts' / spec.domain}.yaml", field="domain")
    registry = load_registry(path.parent, spec.domain)
    slots: list[Leaf] = []
    rules: list[Rule] = []
    seen: set[str] = set()
    for index, raw in enumerate(spec.rules):
        try:
            rule = _parse_rule(where, spec.pack, index, raw, registry, slots)
            if rule.id in seen:
                raise RuleError(where, "duplicate rule id", rule=rule.id, field="id")
            seen.add(rule.id)
            rules.append(rule)
        except RuleError as exc:
            if problems is None:
                raise
            problems.append(exc.one_line())
    digest = hashlib.sha256(where.encode() + b"\0" + raw_bytes + b"\0" + registry.digest.encode()).hexdigest()
    return Pack(
        name=spec.pack,
        domain=spec.domain,
        path=where,
        description=spec.description.model_dump(),
        rules=tuple(rules),
        registry=registry,
        digest=digest,
        slots=tuple(slots),
        by_id={r.id: r for r in rules},
        uses=frozenset().union(*(r.uses for r in rules)),
        engine_facts=tuple(sorted(set().union(*(facts_of(r.when) | r.requires for r in rules)))),
    )


_COMBINED: dict[tuple[str, ...], Pack] = {}


def combine(packs: list[Pack]) -> Pack:
    """Packs of one fact registry as one pack, so an evaluation asserts one fact in one engine
    ruleset instead of one per pack. Rule ids are unique across packs (``load_packs``) and
    ``matches`` slots are named by content, so nothing collides; findings keep their own pack."""
    if len(packs) == 1:
        return packs[0]
    if len({p.registry.digest for p in packs}) != 1:
        raise RuleError(packs[0].path, "only packs of one fact domain can be evaluated as one")
    key = tuple(p.digest for p in packs)
    hit = _COMBINED.get(key)
    if hit is not None:
        return hit
    rules = tuple(r for p in packs for r in p.rules)
    by_id: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in by_id:
            raise RuleError(packs[0].path, "duplicate rule id across packs", rule=rule.id, field="id")
        by_id[rule.id] = rule
    slots = tuple({leaf.slot: leaf for p in packs for leaf in p.slots}.values())
    combined = Pack(
        name="+".join(p.name for p in packs),
        domain=packs[0].domain,
        path=", ".join(p.path for p in packs),
        description=packs[0].description,
        rules=rules,
        registry=packs[0].registry,
        digest=hashlib.sha256("\0".join(key).encode()).hexdigest(),
        slots=slots,
        by_id=by_id,
        uses=frozenset().union(*(p.uses for p in packs)),
        engine_facts=tuple(sorted(set().union(*(p.engine_facts for p in packs)))),
        rule_paths={r.id: p.path for p in packs for r in p.rules},
    )
    if len(_COMBINED) >= 64:
        _COMBINED.pop(next(iter(_COMBINED)))
    _COMBINED[key] = combined
    return combined


def _positive_on_every_path(node: Node) -> bool:
    """Whether every way the conditions can hold includes a fact that is present."""
    if isinstance(node, Leaf):
        return node.operator != "not_exists"
    children = [_positive_on_every_path(c) for c in node.children]
    return any(children) if node.kind == "all" else all(children)


def _parse_rule(
    where: str, pack: str, index: int, raw: Any, registry: FactRegistry, slots: list[Leaf]
) -> Rule:
    name = str(raw.get("id")) if isinstance(raw, dict) and raw.get("id") else f"#{index + 1}"
    if not isinstance(raw, dict):
        raise RuleError(where, "expected a mapping", rule=name)
    try:
        spec = RuleSpec.model_validate(raw)
    except ValidationError as exc:
        loc, msg = first_error(exc)
        raise RuleError(where, msg, rule=name, field=loc) from exc

    def fail(field_name: str, problem: str) -> RuleError:
        return RuleError(where, problem, rule=name, field=field_name)

    if not spec.id.startswith(f"{pack}."):
        raise fail("id", f"rule ids start with the pack name: {pack}.<name>")
    if pack == "contract" and spec.category not in CONTRACT_CATEGORIES + CONTRACT_EXTRA_CATEGORIES:
        raise fail("category", f"unknown contract category {spec.category!r} (DESIGN.md: {', '.join(CONTRACT_CATEGORIES)})")
    for i, req in enumerate(spec.requirement):
        if req not in REQUIREMENT_IDS:
            raise fail(f"requirement[{i}]", f"unknown requirement id {req!r} (A1-A4, B1-B5, C1-C7, D1-D5, E1-E5, F)")
    try:
        when = parse_condition(spec.when, registry, "when", slots)
    except ConditionError as exc:
        raise fail(exc.field, exc.problem) from exc
    if not _positive_on_every_path(when):
        # durable-rules never returns from a rule whose every path is made of not_exists.
        raise fail("when", "needs at least one condition on a fact that is present (not only not_exists)")
    savings = None
    if spec.savings is not None:
        try:
            savings = parse_expression(spec.savings, registry)
        except ValueError as exc:
            raise fail("savings", str(exc)) from exc
        if registry.spec("currency") is None:
            raise fail("savings", f"savings need a 'currency' fact in {registry.path}")
    for i, name_ in enumerate(spec.evidence):
        if registry.spec(name_) is None:
            raise fail(f"evidence[{i}]", f"unknown fact {name_!r}: not declared in {registry.path}")
    text: dict[str, dict[str, Template]] = {}
    for lang in LANGS:
        text[lang] = {}
        for part in TEXT_FIELDS:
            source = getattr(getattr(spec.text, lang), part)
            if lang == "zh":
                source = _ZH_GAP.sub("", source)
            try:
                text[lang][part] = parse_template(source, registry)
            except ValueError as exc:
                raise fail(f"text.{lang}.{part}", str(exc)) from exc
            if lang == "zh" and not _CJK.search(source):
                raise fail(f"text.zh.{part}", "expected Chinese text")
    templates = [t for by_part in text.values() for t in by_part.values()]
    requires: set[str] = set().union(*(t.facts for t in templates))
    if any(t.needs_currency for t in templates):
        requires.add("currency")
    uses = facts_of(when) | requires | set(spec.evidence)
    if savings is not None:
        uses |= savings.names | {"currency"}
    return Rule(
        id=spec.id,
        pack=pack,
        category=spec.category,
        severity=spec.severity,
        requirement=tuple(spec.requirement),
        source=spec.source,
        when=when,
        savings=savings,
        evidence=tuple(spec.evidence),
        text=text,
        uses=frozenset(uses),
        requires=frozenset(requires),
    )


# --- cached access -------------------------------------------------------------------------

@dataclass(frozen=True)
class _Entry:
    key: tuple[tuple[int, int] | None, tuple[int, int] | None]
    pack: Pack


_CACHE: dict[str, _Entry] = {}


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _fresh(where: str) -> Pack | None:
    """The cached pack at ``where`` if neither it nor its fact registry changed since."""
    hit = _CACHE.get(where)
    return hit.pack if hit is not None and hit.key == (_stat(where), _stat(hit.pack.registry.path)) else None


def _cached(path: Path) -> Pack:
    """The pack at ``path``, parsed again only when it or its fact registry changed."""
    where = str(path)
    if (fresh := _fresh(where)) is not None:
        return fresh
    before = _stat(where)
    pack = parse_pack(path)
    _CACHE[where] = _Entry((before, _stat(pack.registry.path)), pack)
    return pack


_PATHS: dict[tuple[str, str], str] = {}


def _pack_file(name: str) -> str:
    """``<rules dir>/<name>.yaml`` as a string (joined once per rules directory and name)."""
    key = (os.environ.get("ADVISOR_RULES_DIR", ""), name)
    hit = _PATHS.get(key)
    if hit is None:
        if len(_PATHS) >= 256:
            _PATHS.clear()
        hit = _PATHS[key] = str(config.rules_dir() / f"{name}.yaml")
    return hit


def get_pack(name: str) -> Pack:
    """The pack ``rules/<name>.yaml`` (cached); :class:`UnknownNameError` with close matches."""
    if (fresh := _fresh(_pack_file(name))) is not None:
        return fresh
    base = config.rules_dir()
    path = base / f"{name}.yaml"
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name or "") or not path.is_file():
        names = [p.stem for p in pack_paths(base)]
        raise UnknownNameError("rule pack", name, close_matches(name, names), accepted=f"one of {', '.join(names) or '(none)'}")
    return _cached(path)


def load_packs() -> dict[str, Pack]:
    """Every pack in the rules directory, by name; the first broken one raises."""
    packs = {pack.name: pack for pack in map(_cached, pack_paths())}
    for problem in duplicate_ids(packs.values()):
        raise problem
    return packs


def duplicate_ids(packs: Any) -> list[RuleError]:
    """A rule id that more than one pack uses, each time after its first."""
    owners: dict[str, str] = {}
    out = []
    for pack in packs:
        for rule in pack.rules:
            if rule.id in owners:
                out.append(RuleError(pack.path, f"duplicate rule id (also in {owners[rule.id]})", rule=rule.id, field="id"))
            owners[rule.id] = pack.path
    return out


def packs_for_domain(domain: str) -> list[str]:
    """Names of the packs that read ``domain``'s facts (``estimate``: sizing, billing, ...)."""
    return [name for name, pack in load_packs().items() if pack.domain == domain]
