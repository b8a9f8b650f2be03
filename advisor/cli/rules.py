"""``advisor rules`` and ``advisor rules check``: list the rule packs, validate them.

Listing and checking read the YAML packs only; the rules engine (durable-rules) is never
imported here, so these commands start fast and work even where the engine cannot load.
"""

from __future__ import annotations

from typing import Any

import typer

from advisor.cli import args as A
from advisor.cli.common import console, emit_json
from advisor.errors import AdvisorError


def register(app: typer.Typer) -> None:
    """Add ``rules`` (list, or ``rules check``) to ``app`` (flags and help in options.yaml)."""
    A.command(app, "rules", lambda ns: check(ns.json) if ns.action == "check" else list_rules(ns.pack, ns.json))


def list_rules(pack: str | None, as_json: bool) -> None:
    """Every pack (or one) with its rules: id, severity, category, requirement, title in en/zh."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor import config
    from advisor.rules import get_pack, load_packs

    packs = [get_pack(pack)] if pack else list(load_packs().values())
    doc = {"rules_dir": str(config.rules_dir()), "packs": [_pack_doc(p) for p in packs]}
    if as_json:
        emit_json(doc)
        return
    _print_table(doc)


def check(as_json: bool) -> None:
    """One line per problem on stderr and exit code 2, or a summary of what is valid."""
    import sys

    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor import config
    from advisor.rules import check_packs, load_packs
    from advisor.rules.cases import case_paths

    problems = check_packs()
    if problems:
        if as_json:
            emit_json({"ok": False, "problems": problems})
        for line in problems[:-1]:
            print(f"error: {line}", file=sys.stderr)
        # The last line goes through the CLI's error path: `error: ...` and exit code 2.
        raise AdvisorError(problems[-1])
    packs = load_packs()
    cases = case_paths()
    summary = {
        "ok": True,
        "rules_dir": str(config.rules_dir()),
        "packs": {name: len(p.rules) for name, p in packs.items()},
        "rules": sum(len(p.rules) for p in packs.values()),
        "case_files": [p.stem for p in cases],
        "problems": [],
    }
    if as_json:
        emit_json(summary)
        return
    per_pack = ", ".join(f"{name} {count}" for name, count in summary["packs"].items())  # type: ignore[attr-defined]
    print(f"{len(packs)} packs, {summary['rules']} rules ({per_pack}); {len(cases)} case files; all valid")


def _pack_doc(pack: Any) -> dict[str, Any]:
    return {
        "pack": pack.name,
        "domain": pack.domain,
        "path": pack.path,
        "description": pack.description,
        "rules": [
            {
                "id": r.id,
                "severity": r.severity,
                "category": r.category,
                "requirement": list(r.requirement),
                "title": {lang: r.text[lang]["title"].source for lang in ("en", "zh")},
                "source": r.source,
            }
            for r in pack.rules
        ],
    }


def _print_table(doc: dict[str, Any]) -> None:
    from rich.table import Table

    out = console()
    for pack in doc["packs"]:
        table = Table(
            title=f"{pack['pack']} ({pack['domain']}): {pack['description']['en']}",
            title_justify="left",
        )
        table.add_column("id", no_wrap=True)
        for header in ("severity", "category", "requirement", "title", "标题"):
            table.add_column(header)
        for r in pack["rules"]:
            table.add_row(
                r["id"], r["severity"], r["category"], " ".join(r["requirement"]), r["title"]["en"], r["title"]["zh"]
            )
        out.print(table)
