"""Clarifying questions, in Chinese and English (glossary ``chat.ask.*``), for what a request is missing.

One short question that names every missing input and shows how to write it, so the
next turn can answer all at once ("Llama-3-8B, 5万条, 每条800 token").
"""

from __future__ import annotations

from advisor.glossary import has, term


def clarifying_question(missing: list[str], pending: str | None, choices: tuple[str, ...] = ()) -> dict[str, str]:
    """``{"zh": ..., "en": ...}`` asking for every item of ``missing`` (names as in
    :func:`advisor.assistant.offline.project.missing_inputs`, plus ``task``); with ``choices`` (two
    tools the question fits equally), which of those jobs is meant."""
    if choices:
        return {lang: term("chat.which_job", lang, jobs=term("chat.or", lang).join(term(f"chat.job.{c}", lang) for c in choices))
                for lang in ("en", "zh")}
    items = [m for m in missing if has(f"chat.ask.{m}")] or ["task"]
    out: dict[str, str] = {}
    for lang in ("zh", "en"):
        lead = term(f"chat.lead.{pending}", lang) if has(f"chat.lead.{pending}") else ""
        parts = [term(f"chat.ask.{m}", lang) for m in items]
        if lead and lang == "en":
            parts[0] = lead + parts[0][0].lower() + parts[0][1:]
        elif lead:
            parts[0] = lead + parts[0]
        out[lang] = (" " if lang == "en" else "").join(parts)
    return out
