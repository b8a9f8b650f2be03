"""Rule-pack test cases as data: ``rules/cases/<pack>.yaml``.

Each file is a list of ``{name, facts, expect: [rule ids], absent: [rule ids]}``: the facts
of one situation, the rules that must fire and the rules that must not. The test suite runs
every case file it finds, so a new pack brings its own tests without Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor import config
from advisor.errors import RuleError
from advisor.rules.loader import Pack, duplicate_ids, pack_paths, parse_pack
from advisor.rules.registry import load_registry, read_yaml
from advisor.rules.schema import first_error


class _CaseSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    facts: dict[str, Any]
    expect: list[str] = Field(default_factory=list)
    absent: list[str] = Field(default_factory=list)
    note: str | None = None  # what the case stands for (free text)


@dataclass(frozen=True)
class Case:
    pack: str
    name: str
    facts: dict[str, Any]
    expect: tuple[str, ...]
    absent: tuple[str, ...]
    path: str


def case_paths(rules_dir: Path | None = None) -> list[Path]:
    base = (rules_dir or config.rules_dir()) / "cases"
    return sorted(p for p in base.glob("*.yaml") if p.is_file())


def load_cases(path: Path, pack: str | None = None) -> list[Case]:
    """The cases of one file (the pack is the file name unless given)."""
    data = read_yaml(path, path.read_bytes())
    if isinstance(data, dict) and isinstance(data.get("cases"), list):
        data = data["cases"]
    if not isinstance(data, list) or not data:
        raise RuleError(str(path), "expected a list of cases {name, facts, expect, absent}")
    cases: list[Case] = []
    for i, raw in enumerate(data):
        label = raw.get("name") if isinstance(raw, dict) and raw.get("name") else f"#{i + 1}"
        try:
            spec = _CaseSpec.model_validate(raw)
        except ValidationError as exc:
            loc, msg = first_error(exc)
            raise RuleError(str(path), msg, rule=f"case {label}", field=loc) from exc
        cases.append(
            Case(pack or path.stem, spec.name, spec.facts, tuple(spec.expect), tuple(spec.absent), str(path))
        )
    return cases


def check_cases(packs: dict[str, Pack]) -> list[str]:
    """Problems in case files: unknown pack, unknown rule ids, undeclared facts."""
    problems: list[str] = []
    for path in case_paths():
        try:
            cases = load_cases(path)
        except RuleError as exc:
            problems.append(exc.one_line())
            continue
        pack = packs.get(path.stem)
        if pack is None:
            problems.append(RuleError(str(path), f"no valid pack {path.stem!r} to test").one_line())
            continue
        ids = {r.id for r in pack.rules}
        for case in cases:
            where = f"case {case.name}"
            for key in ("expect", "absent"):
                for rule_id in getattr(case, key):
                    if rule_id not in ids:
                        problems.append(RuleError(str(path), f"unknown rule id {rule_id!r}", rule=where, field=key).one_line())
            for fact in case.facts:
                if not fact.startswith("_") and pack.registry.spec(fact) is None:
                    problems.append(
                        RuleError(str(path), f"undeclared fact {fact!r} (see {pack.registry.path})", rule=where, field="facts").one_line()
                    )
    return problems


def check_packs() -> list[str]:
    """Every problem in every pack, fact registry and case file, one line each."""
    problems: list[str] = []
    base = config.rules_dir()
    for registry_path in sorted((base / "facts").glob("*.yaml")):
        try:
            load_registry(base, registry_path.stem)
        except RuleError as exc:
            problems.append(exc.one_line())
    packs: dict[str, Pack] = {}
    for path in pack_paths():
        try:
            pack = parse_pack(path, problems)
        except RuleError as exc:
            if exc.one_line() not in problems:  # a broken registry is reported once
                problems.append(exc.one_line())
            continue
        packs[pack.name] = pack
    problems.extend(exc.one_line() for exc in duplicate_ids(packs.values()))
    problems.extend(check_cases(packs))
    return problems
