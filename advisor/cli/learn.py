"""``advisor learn``: the onboarding path in the terminal.

- ``advisor learn``                         modules in order, with your progress
- ``advisor learn MODULE [--lang zh|en]``   the guide (worked examples computed) and its checklist
- ``advisor learn MODULE --quiz``           the quiz, interactive on a terminal;
  ``--answers 1,3,2`` answers it non-interactively
- ``advisor learn --search "QUERY"``        search the guides

Every form takes ``--json``. jieba and the cost engine are loaded only by the forms that
need them.
"""

from __future__ import annotations

import os
import sys
from argparse import Namespace
from typing import Any

import typer

from advisor.cli import args as A
from advisor.cli.common import console, emit_json
from advisor.config import settings
from advisor.errors import InputError
from advisor.glossary import term

# How a graded choice is ticked (advisor.present.quiz.ChoiceLine.mark).
TICKS = {"right": "✓", "wrong": "✗", "other": " "}


def register(app: typer.Typer) -> None:
    """Add the ``learn`` command to ``app`` (flags and help in options.yaml)."""
    A.command(app, "learn", learn)


def learn(ns: Namespace) -> None:
    """List the modules, open one, take its quiz, or search the guides."""
    chosen = _lang(ns.lang)
    if ns.search is not None:
        _search(ns.search, ns.lang, ns.k, ns.json)
    elif ns.module is None:
        if ns.quiz or ns.answers:
            raise InputError("module", None, "a module id or number with --quiz (see `advisor learn`)")
        _list(chosen, ns.json)
    elif ns.quiz or ns.answers:
        _quiz(ns.module, chosen, ns.answers, ns.json)
    else:
        _show(ns.module, chosen, ns.json)


def _lang(value: str | None) -> str:
    """``--lang``, else ``lang`` in the settings file, else the locale (zh_* -> zh), else en."""
    if value is not None:
        return value
    configured = str(settings().get("lang") or "").lower()
    if configured in ("zh", "en"):
        return configured
    locale = os.environ.get("LC_ALL") or os.environ.get("LANG") or ""
    return "zh" if locale.lower().startswith("zh") else "en"


def _interactive() -> bool:
    """True when the quiz can prompt (stdin is a terminal)."""
    return sys.stdin.isatty()


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _progress() -> dict[str, Any]:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.knowledge.progress import load_progress

    return load_progress()


def _status(entry: dict[str, Any] | None, lang: str) -> str:
    if not entry:
        return "—"
    score = f"({entry.get('best_score', 0)}/{entry.get('total', 0)})"
    if entry.get("passed"):
        return f"✓ {term('learn.passed', lang)} {score}"
    if entry.get("attempts"):
        return f"{term('learn.tried', lang)} {score}"
    return term("learn.opened", lang)


def _list(lang: str, as_json: bool) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.knowledge.onboarding import next_module, onboarding_path

    modules = onboarding_path(lang)  # type: ignore[arg-type]
    progress = _progress()
    nxt = next_module(lang, progress)  # type: ignore[arg-type]
    if as_json:
        emit_json({
            "lang": lang,
            "next": nxt.id if nxt else None,
            "modules": [
                {"id": m.id, "number": m.number, "title": m.title, "guide": m.guide, "guide_path": m.guide_path,
                 "summary": m.summary, "requirements": m.requirements, "questions": len(m.quiz),
                 "progress": progress.get(m.id, {})}
                for m in modules
            ],
        })
        return
    from rich.table import Table

    table = Table(title=term("learn.path", lang))
    for header in ("#", *(term(f"learn.col.{c}", lang) for c in ("module", "title", "requirements", "progress"))):
        table.add_column(header)
    for m in modules:
        table.add_row(str(m.number), m.id, m.title, " ".join(m.requirements), _status(progress.get(m.id), lang))
    out = console()
    out.print(table)
    if nxt:
        out.print(term("learn.next", lang, id=nxt.id))


def _show(key: str, lang: str, as_json: bool) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.knowledge.onboarding import find_module
    from advisor.knowledge.render import render_guide
    from advisor.tools import report_json

    module = find_module(key, lang)  # type: ignore[arg-type]
    markdown = render_guide(module.guide, lang, report_json)  # type: ignore[arg-type]
    try:
        from advisor.knowledge.progress import mark_opened

        mark_opened(module.id)
    except OSError as exc:
        _warn(f"progress not saved ({exc.__class__.__name__})")
    if as_json:
        hidden = {"quiz": {"__all__": {"answer", "explanation"}}}
        emit_json({"module": module.model_dump(mode="json", exclude=hidden), "guide_markdown": markdown})
        return
    from rich.markdown import Markdown

    extra = ["", "---", "", f"## {term('learn.goals', lang)}", ""]
    extra += [f"- {g}" for g in module.goals]
    extra += ["", f"## {term('learn.checklist', lang)}", ""]
    extra += [f"- [ ] {c}" for c in module.checklist]
    extra += ["", term("learn.quiz_hint", lang, id=module.id)]
    console().print(Markdown(markdown + "\n".join(extra)))


def _ask(question: Any, number: int, total: int, lang: str) -> int:
    """Prompt for one answer on the terminal until it is a valid choice; 0-based."""
    print(f"\n[{number}/{total}] {question.question}")
    for i, choice in enumerate(question.choices, 1):
        print(f"  {i}) {choice}")
    prompt = term("learn.your_answer", lang)
    while True:
        reply = typer.prompt(f"{prompt} [1-{len(question.choices)}]").strip()
        if reply.isdigit() and 1 <= int(reply) <= len(question.choices):
            return int(reply) - 1
        print(term("learn.type_number", lang))


def _quiz(key: str, lang: str, answers: str | None, as_json: bool) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.knowledge.onboarding import find_module, grade_quiz
    from advisor.present.quiz import review_quiz

    module = find_module(key, lang)  # type: ignore[arg-type]
    if answers is None:
        if as_json or not _interactive():
            raise InputError("answers", None, "--answers 1,3,2 (one choice number per question) when not on a terminal")
        given: list[int] | str = [_ask(q, i, len(module.quiz), lang) for i, q in enumerate(module.quiz, 1)]
    else:
        given = answers
    result = grade_quiz(module.id, given, lang)  # type: ignore[arg-type]
    entry: dict[str, Any] = {}
    try:
        from advisor.knowledge.progress import record_quiz

        entry = record_quiz(result)
    except OSError as exc:
        _warn(f"progress not saved ({exc.__class__.__name__})")
    if as_json:
        emit_json({"result": result.model_dump(mode="json"), "progress": entry})
        return
    for q in review_quiz(result).questions:
        print(f"\n{'✓' if q.correct else '✗'} {q.number}. {q.question}")
        for c in q.choices:
            mine = f"  ← {term('learn.yours', lang)}" if c.given else ""
            print(f"   {TICKS[c.mark]} {c.number}) {c.text}{mine}")
        print(f"   {q.explanation}")
        print(f"   {q.see}")
    verdict = term("learn.result.passed" if result.passed else "learn.result.failed", lang)
    print(f"\n{term('learn.score', lang)}: {result.score}/{result.total} — {verdict}")


def _search(query: str, lang: str | None, k: int, as_json: bool) -> None:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.tools.knowledge import search_knowledge

    report = search_knowledge(query=query, lang=lang, k=k)
    if as_json:
        emit_json(report)
        return
    from rich.table import Table

    lang = report.lang
    out = console()
    if not report.hits:
        out.print(term("learn.no_match", lang))
        return
    table = Table(title=f"{term('learn.search', lang)}: {query}", show_lines=True)
    for header in (term(f"learn.col.{c}", lang) for c in ("score", "section", "snippet")):
        table.add_column(header)
    for h in report.hits:
        heading = h.title if h.section == h.title else f"{h.title} › {h.section}"
        where = f"{heading}\n{h.path}" + (f"#{h.anchor}" if h.anchor else "")
        table.add_row(f"{h.score:.2f}", where, h.snippet)
    out.print(table)
