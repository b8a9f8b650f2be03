"""The tool pages drawn from ``ui/forms.yaml``: each draws its form as the file describes it,
and the engine's figures beside it. Serving cost, quote check and own vs rent are tabs of the
Decide page (ui/views/decide.py); Billing, Hardware (recommend) and Plan are pages of their own."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import streamlit as st
import yaml

from advisor.glossary import has, term
from advisor.present import View, present
from ui import services, state
from ui.components.common import shown
from ui.components.view import view_card
from ui.state import Lang
from ui.widgets import choice

KEEP: Literal["session"] = "session"
FORMS_FILE = Path(__file__).resolve().parents[1] / "forms.yaml"


@lru_cache(maxsize=1)
def forms() -> dict[str, dict[str, Any]]:
    """Each decision tool's form (read once; read-only)."""
    return dict(yaml.safe_load(FORMS_FILE.read_text(encoding="utf-8")))


def run(tool: str, args: dict[str, Any], lang: Lang) -> dict[str, Any] | None:
    """The tool's report for ``args`` (sidebar currency and price sheet filled in); None after a
    clear error box on bad input."""
    args = services.with_settings(tool, args, state.settings(), lang)
    return shown(services.cached_tool(tool, lang, services.args_key(args)))


def _text(words: str, key: str, lang: str, **values: Any) -> str:
    """A form's text: ``key`` in the form's own words, or a full text key (``est.model``)."""
    return term(key if "." in key else f"{words}.{key}", lang, **values)


def _widget(field: dict[str, Any], words: str, lang: str) -> Any:
    """One field's widget; its value as the tool reads it (None: not given)."""
    label = _text(words, field.get("label", field["key"]), lang)
    common: dict[str, Any] = {"key": f"{words}_{field['key']}", "persist_state": KEEP}
    if "help" in field:
        common["help"] = _text(words, field["help"], lang)
    kind = field["widget"]
    if kind == "text":
        value: Any = st.text_input(label, value=field["value"], **common).strip()
    elif kind == "toggle":
        value = st.toggle(label, **common)
    elif kind == "segmented" or "option_terms" in field or field.get("per_language"):
        # translated option labels: one widget per language (ui.widgets.choice)
        def words_of(o: Any) -> str:
            if "option_terms" in field:
                return term(field["option_terms"].format(o), lang)
            return _text(words, field["option_words"].format(o), lang)

        draw = getattr(st, "segmented_control" if kind == "segmented" else "selectbox")
        value = choice(draw, label, field["options"], key=common["key"], lang=lang, format_func=words_of)
    elif kind == "select":
        pattern = field.get("option_words", "")
        value = st.selectbox(label, field["options"], **common, accept_new_options=field.get("new_options", False),
                             format_func=lambda o: term(pattern.format(o), lang) if has(pattern.format(o)) else o)
    else:
        number = {k: field[k] for k in ("value", "step", "format") if k in field}
        widget = st.slider if kind == "slider" else st.number_input
        value = widget(label, min_value=field.get("min"), max_value=field.get("max"), **number, **common)
    if value in field.get("none", []):
        return None
    return value * field["scale"] if "scale" in field else value


def form_args(name: str, lang: Lang) -> dict[str, Any]:
    """Draw the form ``name`` of ui/forms.yaml; the values given, as tool arguments."""
    form = forms()[name]
    args: dict[str, Any] = {}
    for f in form["fields"]:
        if all(args.get(k) == v for k, v in f.get("when", {}).items()):
            args[f["arg"]] = _widget(f, form["words"], lang)
    for f in form["fields"]:
        if f.get("control") or args.get(f.get("unless", "")) is not None:
            args.pop(f["arg"], None)
    if any(args.get(name) is None for name in form.get("together", [])):
        args.update(dict.fromkeys(form["together"]))
    return {k: v for k, v in args.items() if v is not None}


def tool_tab(tool: str, lang: Lang, page: bool = False) -> None:
    """One tool's form on the left and its view on the right: a tab of the Decide page, or
    (``page``) a page of its own, with the view's details open and an "add to report" button."""
    form = forms()[tool]
    words = form["words"]
    (st.title if page else st.subheader)(term(f"{words}.title", lang))
    st.caption(term(f"{words}.intro", lang))
    left, right = st.columns([1, 2.4 if page else 2.2], gap="large")
    with left, st.container(border=True, key=f"{words}-form"):
        args = form_args(tool, lang)
    with right:
        missing = [f["required"] for f in form["fields"] if "required" in f and args.get(f["arg"]) is None]
        if missing:
            st.info(_text(words, missing[0], lang), icon=":material/info:")
            return
        r = run(tool, args, lang)
        if r is None:
            return
        view = present(tool, r, lang)
        if page:
            add_button(r, view, f"{words}_add")
        view_card(view, words, open_details=page)


def add_button(result: dict[str, Any], view: View, key: str) -> None:
    """"Add to report": the result is kept for the Report page, titled by its summary."""
    if st.button(term("est.add", view.lang), icon=":material/note_add:", key=key):
        state.add_record(view.tool, view.summary[:80], result, view.lang)
        st.toast(term("est.added", view.lang), icon=":material/check:")
