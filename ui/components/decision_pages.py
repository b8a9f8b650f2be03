"""The tool pages drawn from ``ui/forms.yaml``: each draws its form as the file describes it,
and the engine's figures beside it. Serving cost, quote check and own vs rent are tabs of the
Decide page (ui/views/decide.py); Billing, Hardware (recommend) and Plan are pages of their own."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
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


def _label(field: dict[str, Any], words: str, lang: str) -> str:
    """The field's label: its own text key, else the form's word for its key, else the request
    field's word in the glossary (``field.<arg>``, the word the "understood" lines use)."""
    if "label" in field:
        return _text(words, field["label"], lang)
    own = f"{words}.{field['key']}"
    return term(own if has(own) else f"field.{field['arg']}", lang)


def _choices(tool: str, field: dict[str, Any]) -> tuple[list[Any], Any]:
    """A choice field's options and default: the form's own, else the request model's ``Literal``
    and its default."""
    if "options" in field:
        return list(field["options"]), None
    return services.field_choices(tool, field["arg"])


def _widget(field: dict[str, Any], words: str, lang: str, tool: str, currency: str | None) -> Any:
    """One field's widget; its value as the tool reads it (None: not given)."""
    label = _label(field, words, lang)
    common: dict[str, Any] = {"key": f"{words}_{field['key']}", "persist_state": KEEP}
    value_of: Any = field.get("value")
    if field.get("per_currency"):  # a price: its own widget, label and starting value per currency
        label, common["key"], value_of = f"{label} ({currency})", f"{common['key']}_{currency}", value_of[currency]
    if "help" in field:
        common["help"] = _text(words, field["help"], lang)
    kind = field["widget"]
    if kind == "text":
        value: Any = st.text_input(label, value=value_of, **common).strip()
    elif kind == "toggle":
        value = st.toggle(label, **common)
    elif kind == "segmented" or "option_terms" in field or field.get("per_language"):
        # translated option labels: one widget per language (ui.widgets.choice)
        def words_of(o: Any) -> str:
            if "option_terms" in field:
                return term(field["option_terms"].format(o), lang)
            return _text(words, field["option_words"].format(o), lang)

        options, default = _choices(tool, field)
        draw = getattr(st, "segmented_control" if kind == "segmented" else "selectbox")
        value = choice(draw, label, options, key=common["key"], lang=lang, format_func=words_of, default=default)
    elif kind == "select":
        pattern = field.get("option_words", "")
        value = st.selectbox(label, _choices(tool, field)[0], **common, accept_new_options=field.get("new_options", False),
                             format_func=lambda o: term(pattern.format(o), lang) if has(pattern.format(o)) else o)
    else:
        number: dict[str, Any] = {k: field[k] for k in ("step", "format") if k in field}
        if "value" in field:
            number["value"] = value_of
        widget = st.slider if kind == "slider" else st.number_input
        value = widget(label, min_value=field.get("min"), max_value=field.get("max"), **number, **common)
    return _request_value(field, value)


def _request_value(field: dict[str, Any], value: Any) -> Any:
    """A widget's value as the tool reads it: None for a "not given" value, a fraction for a
    percent, scaled where the field says so."""
    if value in field.get("none", []):
        return None
    if field.get("percent"):
        return value / 100
    return value * field["scale"] if "scale" in field else value


def _rows(fields: list[dict[str, Any]], columns: int) -> list[list[dict[str, Any]]]:
    """The fields in rows of ``columns``; a ``wide`` field takes a row of its own."""
    rows: list[list[dict[str, Any]]] = []
    for f in fields:
        if f.get("wide") or not rows or len(rows[-1]) == columns or rows[-1][-1].get("wide"):
            rows.append([f])
        else:
            rows[-1].append(f)
    return rows


def form_args(name: str, lang: Lang, currency: str | None = None) -> dict[str, Any]:
    """Draw the form ``name`` of ui/forms.yaml (``currency``: the one its prices are in); the
    values given, as tool arguments."""
    form = forms()[name]
    tool, columns = form.get("tool", name), int(form.get("columns", 1))
    args: dict[str, Any] = {}
    for row in _rows(form["fields"], columns):
        places: list[AbstractContextManager[Any]] = [*st.columns(len(row))] if len(row) > 1 else [nullcontext()]
        for f, place in zip(row, places, strict=True):
            if all(args.get(k) == v for k, v in f.get("when", {}).items()):
                with place:
                    args[f["arg"]] = _widget(f, form["words"], lang, tool, currency)
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
