"""What one browser session holds: the conversation, the report records, the settings.

Everything lives in ``st.session_state`` (one per browser tab). The API key is read only by
:func:`api_key`; :class:`Settings` leaves it out, so nothing built from the settings (answers,
records, exports) can carry it.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any, Literal

import streamlit as st

Lang = Literal["zh", "en"]
MAX_QUESTION_CHARS = 4000

# Widget keys of the sidebar (the widgets keep their own values in the session).
K_LANG = "set_lang"
K_OFFLINE = "set_offline"
K_BASE_URL = "set_base_url"
K_MODEL = "set_model"
K_API_KEY = "set_api_key"
K_CURRENCY = "set_currency"
K_BUDGET = "set_budget"
K_THRESHOLD = "set_threshold"

_DEFAULTS: dict[str, Any] = {
    "messages": [],  # [{role, content, lang, result}]
    "history": None,  # the assistant's own history, passed back for follow-ups
    "records": [],  # report entries: [{id, kind, title, lang, when, question, answer, result}]
    "learn_progress": {},  # {module_id: {score, total, passed}}
    "ui_lang": None,  # language of the last question
    "prices_file": None,  # path of the uploaded price sheet, this session only
    "prices_name": None,
    K_LANG: "auto",
    K_OFFLINE: True,
    K_BASE_URL: "",
    K_MODEL: "",
    K_API_KEY: "",
    K_CURRENCY: "auto",
    K_BUDGET: 0.0,
    K_THRESHOLD: 0.0,
}


def init() -> None:
    """Fill in every key the pages read, once per session."""
    for key, value in _DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value.copy() if isinstance(value, list | dict) else value


@dataclass(frozen=True)
class Settings:
    """The sidebar settings, without the API key."""

    lang_pref: str  # auto | zh | en
    offline: bool
    base_url: str
    model: str
    currency: str | None  # None = from the question
    budget: float | None
    approval_threshold: float | None
    prices_file: str | None

    @property
    def use_llm(self) -> bool:
        return not self.offline and bool(self.base_url.strip()) and bool(self.model.strip())

    def currency_for(self, lang: str) -> str:
        """The currency a page prices in: the sidebar's, else the page language's (CNY in Chinese)."""
        return self.currency or ("CNY" if lang == "zh" else "USD")


def settings() -> Settings:
    s = st.session_state
    currency = s.get(K_CURRENCY, "auto")
    return Settings(
        lang_pref=str(s.get(K_LANG, "auto")),
        offline=bool(s.get(K_OFFLINE, True)),
        base_url=str(s.get(K_BASE_URL) or ""),
        model=str(s.get(K_MODEL) or ""),
        currency=None if currency == "auto" else str(currency),
        budget=_positive(s.get(K_BUDGET)),
        approval_threshold=_positive(s.get(K_THRESHOLD)),
        prices_file=s.get("prices_file"),
    )


def api_key() -> str | None:
    """The key typed in the sidebar, for the ask() call only."""
    key = str(st.session_state.get(K_API_KEY) or "").strip()
    return key or None


def _positive(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def ui_lang() -> Lang:
    """The language of the page: the user's choice, else the last question's, else the browser's."""
    pref = st.session_state.get(K_LANG, "auto")
    if pref in ("zh", "en"):
        return pref  # type: ignore[no-any-return]
    last = st.session_state.get("ui_lang")
    if last in ("zh", "en"):
        return last
    try:
        locale = str(st.context.locale or "")
    except Exception:  # older runtimes or bare execution: no locale known
        locale = ""
    return "zh" if locale.lower().startswith("zh") else "en"


def answer_lang(question_lang: str) -> Lang:
    pref = st.session_state.get(K_LANG, "auto")
    return pref if pref in ("zh", "en") else question_lang  # type: ignore[return-value]


def add_record(kind: str, title: str, result: dict[str, Any], lang: str, *,
               question: str | None = None, answer: str | None = None) -> dict[str, Any]:
    """Keep a result for the Report page (results only: never settings or keys)."""
    record = {
        "id": uuid.uuid4().hex[:8], "kind": kind, "title": title, "lang": lang,
        "when": time.strftime("%Y-%m-%d %H:%M"), "question": question, "answer": answer, "result": result,
    }
    st.session_state.records.append(record)
    return record


def clear_conversation() -> None:
    st.session_state.messages = []
    st.session_state.history = None

