"""The decision tools' pages (issue #12): serving cost, quote check, own vs rent. Each draws
its form, as ``ui/forms.yaml`` describes it, and the engine's figures in one tab of the Decide
page (ui/views/decide.py)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import streamlit as st
import yaml

from advisor.present import present
from ui import services, state
from ui.components.common import error_box
from ui.components.view import view_card
from ui.i18n import has, t

KEEP: Literal["session"] = "session"
FORMS_FILE = Path(__file__).resolve().parents[1] / "forms.yaml"


@lru_cache(maxsize=1)
def forms() -> dict[str, dict[str, Any]]:
    """Each decision tool's form (read once; read-only)."""
    return dict(yaml.safe_load(FORMS_FILE.read_text(encoding="utf-8")))


def run(tool: str, args: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """The tool's report for ``args`` (sidebar currency and price sheet filled in); None after a
    clear error box on bad input."""
    s = state.settings()
    args = services.with_settings(tool, args, s)
    args.setdefault("currency", s.currency or ("CNY" if lang == "zh" else "USD"))
    args["lang"] = lang
    outcome = services.cached_tool(tool, lang, services.args_key(args))  # type: ignore[arg-type]
    if not outcome.ok:
        error_box(outcome.error or "")
        return None
    return outcome.result or {}


def _widget(field: dict[str, Any], words: str, lang: str) -> Any:
    """One field's widget; its value as the tool reads it (None: not given)."""
    label = t(f"{words}.{field.get('label', field['key'])}", lang)
    common: dict[str, Any] = {"key": f"{words}_{field['key']}", "persist_state": KEEP}
    if "help" in field:
        common["help"] = t(f"{words}.{field['help']}", lang)
    kind = field["widget"]
    if kind == "text":
        value: Any = st.text_input(label, value=field["value"], **common).strip()
    elif kind == "select":
        pattern = field.get("option_words", "")
        value = st.selectbox(label, field["options"], **common,
                             format_func=lambda o: t(pattern.format(o), lang) if has(pattern.format(o)) else o)
    else:
        number = {k: field[k] for k in ("value", "step", "format") if k in field}
        widget = st.slider if kind == "slider" else st.number_input
        value = widget(label, min_value=field.get("min"), max_value=field.get("max"), **number, **common)
    if value in field.get("none", []):
        return None
    return value * field["scale"] if "scale" in field else value


def tool_tab(tool: str, lang: str) -> None:
    """The tab of one decision tool: its form on the left, its view on the right."""
    form = forms()[tool]
    words = form["words"]
    st.subheader(t(f"{words}.title", lang))
    st.caption(t(f"{words}.intro", lang))
    left, right = st.columns([1, 2.2], gap="large")
    with left, st.container(border=True, key=f"{words}-form"):
        args = {f["arg"]: _widget(f, words, lang) for f in form["fields"]}
    if any(args[name] is None for name in form.get("together", [])):
        args.update(dict.fromkeys(form["together"]))
    with right:
        missing = [f["required"] for f in form["fields"] if "required" in f and args[f["arg"]] is None]
        if missing:
            st.info(t(f"{words}.{missing[0]}", lang), icon=":material/info:")
            return
        r = run(tool, {k: v for k, v in args.items() if v is not None}, lang)
        if r is not None:
            view_card(present(tool, r, lang), words)
