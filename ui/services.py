"""The UI's only door to the advisor: the assistant, the tools and the knowledge base.

Every call returns plain JSON-like data (dicts and lists) or an :class:`Outcome` with a
one-line error, so pages never see a traceback. The API key goes into the assistant's
configuration for one call and is scrubbed from any error text.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import streamlit as st

from advisor.errors import AdvisorError
from advisor.glossary import term
from ui.state import Lang, Settings

log = logging.getLogger("ui")

# Sidebar settings a tool takes when its request has a field of the same name.
PRICING_SETTINGS = ("currency", "prices_file", "budget", "approval_threshold")


@dataclass
class Outcome:
    """A tool's report as a dict, or the error that stopped it (one line, for people)."""

    result: dict[str, Any] | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.result is not None


@dataclass
class Answer:
    """One assistant turn, as plain data the page renders and the session keeps."""

    answer: str
    mode: str
    lang: Lang
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    citations: list[dict[str, Any]] = field(default_factory=list)
    notice: str | None = None
    intent: str | None = None
    error: str | None = None
    history: Any = None

    def public(self) -> dict[str, Any]:
        """What the conversation keeps and exports (no history, no settings)."""
        return {k: v for k, v in self.__dict__.items() if k != "history"}


def plain(obj: Any) -> Any:
    """Pydantic models, dataclasses and containers -> JSON-like data."""
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    return obj


def scrub(text: str, secret: str | None = None) -> str:
    """``text`` through the one redaction of :mod:`advisor.redact` (plus this turn's key)."""
    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.redact import MASK, redact

    text = str(text)
    if secret and len(secret) >= 4:
        text = text.replace(secret, MASK)
    return redact(text)


def error_text(exc: BaseException, lang: Lang, secret: str | None = None) -> str:
    """The message for an exception: AdvisorErrors say what to fix; others say what broke."""
    if isinstance(exc, AdvisorError):
        # lazy: cold start of the UI (the first page renders before the engine loads)
        from advisor.present.errors import say

        return scrub(term("err.input", lang, error=say(exc, lang)), secret)
    log.error("ui: %s: %s", type(exc).__name__, scrub(str(exc), secret))
    return term("err.internal", lang, kind=type(exc).__name__)


# --- tools ------------------------------------------------------------------------------

def with_settings(name: str, args: dict[str, Any], s: Settings, lang: Lang) -> dict[str, Any]:
    """The page's arguments in ``lang``, with the sidebar's settings for the request fields the user left
    open (as the assistant fills them: :func:`tool_defaults`); the currency follows ``lang`` when none is set."""
    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.tools.langchain import request_model

    fields = request_model(name).model_fields
    given = {**tool_defaults(s), "currency": s.currency_for(lang)}
    return {**{k: v for k, v in given.items() if k in fields}, **args, "lang": lang}


def field_choices(name: str, arg: str) -> tuple[list[Any], Any]:
    """The closed choices of a request field of tool ``name`` (its ``Literal``, in order) and the
    field's default, read from the tool's request model (a form then offers what the tool takes)."""
    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.tools.langchain import request_model

    info = request_model(name).model_fields[arg]
    return _literal_values(info.annotation), info.default


def _literal_values(annotation: Any) -> list[Any]:
    """The values of a ``Literal`` annotation, also inside ``Optional``/``Union``."""
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    return [v for a in get_args(annotation) for v in _literal_values(a)]


# --- files: only uploads (and the app's own samples) are read; uploads are deleted after use ---

UPLOAD_PREFIX = "advisor-upload-"
SAMPLES_DIR = Path(__file__).resolve().parent / "samples"


def save_uploads(files: list[tuple[str, bytes]]) -> list[str]:
    """Write uploaded files to a private temporary folder; :func:`run_tool` deletes it after use."""
    folder = Path(tempfile.mkdtemp(prefix=UPLOAD_PREFIX))
    paths = []
    for i, (name, data) in enumerate(files):
        path = folder / f"{i}-{Path(name).name or 'upload'}"
        path.write_bytes(data)
        paths.append(str(path))
    return paths


def is_upload(path: str) -> bool:
    return Path(path).parent.name.startswith(UPLOAD_PREFIX) and Path(path).parent.parent == Path(tempfile.gettempdir())


def discard_uploads(paths: list[str]) -> None:
    for folder in {Path(p).parent for p in paths if is_upload(p)}:
        shutil.rmtree(folder, ignore_errors=True)


def _paths_in(args: dict[str, Any]) -> list[str]:
    found: list[str] = []
    for key in ("path", "prices_file"):
        if isinstance(args.get(key), str):
            found.append(args[key])
    found.extend(f for f in args.get("files") or [] if isinstance(f, str))
    return found


def readable_paths(paths: list[str]) -> list[str]:
    """The paths a page may have read: uploads and the app's own sample files, nothing else."""
    return [p for p in paths if is_upload(p) or Path(p).resolve().parent == SAMPLES_DIR]


def attempt(lang: Lang, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Outcome:
    """``fn``'s result as plain data, or the one-line error that stopped it."""
    try:
        return Outcome(result=plain(fn(*args, **kwargs)))
    except Exception as exc:  # every failure becomes a message on the page
        return Outcome(error=error_text(exc, lang))


def run_tool(name: str, ui_lang: Lang, /, **args: Any) -> Outcome:
    """Call ``advisor.tools.<name>`` and return its report as a dict, or a clear error. Only
    uploaded files (and the samples) are read; the uploads are deleted when the call is done."""
    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.safe_read import path_policy

    try:
        import advisor.tools as tools  # lazy, as above

        fn = getattr(tools, name)
    except (AttributeError, ImportError) as exc:
        return Outcome(error=term("err.unavailable", ui_lang, tool=term(f"tool.{name}", ui_lang), error=type(exc).__name__))
    paths = _paths_in(args)
    keep = {args.get("prices_file")}  # the sidebar's sheet serves the whole session
    try:
        # The sidebar's price sheet is an upload of this session (pages never take a path from text).
        with path_policy(allowed=[*readable_paths(paths), *(k for k in keep if k)]):
            return attempt(ui_lang, fn, **args)
    finally:
        discard_uploads([p for p in paths if p not in keep])


@st.cache_data(show_spinner=False, max_entries=256)
def cached_tool(name: str, ui_lang: Lang, args_key: tuple[tuple[str, Any], ...]) -> Outcome:
    """:func:`run_tool` memoised on its arguments (what-if controls recompute only what changed)."""
    return run_tool(name, ui_lang, **dict(args_key))


def args_key(args: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, v) for k, v in args.items() if v is not None))


# --- assistant ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Endpoint:
    """The LLM configuration one turn may use, or why there is none (``missing_key``)."""

    config: Any = None
    missing_key: bool = False


def operator_config() -> Any:
    """The LLM the operator configured (environment, ``.env``, ``advisor.yaml``), or None.
    Only its base URL and model are ever shown; its key stays in this process."""
    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.assistant.config import load_config

    try:
        cfg = load_config()
    except Exception as exc:  # a broken operator setting: the visitor can still bring their own endpoint
        log.warning("ui: the configured LLM cannot be used: %s", exc)
        return None
    return cfg if cfg.enabled else None


def endpoint(s: Settings, key: str | None) -> Endpoint:
    """The configuration for the sidebar's endpoint. A key typed in the sidebar goes only to
    the sidebar's base URL; the operator's key goes only to the operator's own base URL, so a
    visitor who types another base URL must bring their own key."""
    from pydantic import SecretStr

    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.assistant.config import LLMConfig
    from advisor.redact import remember

    url, model = s.base_url.strip().rstrip("/"), s.model.strip()
    if key:
        remember(key)
        return Endpoint(LLMConfig(base_url=url, model=model, api_key=SecretStr(key), max_retries=1, timeout_s=60))
    operator = operator_config()
    if operator is not None and url.lower() == str(operator.base_url).rstrip("/").lower():
        return Endpoint(operator.model_copy(update={"model": model or operator.model, "max_retries": 1}))
    return Endpoint(missing_key=True)


def tool_defaults(s: Settings) -> dict[str, Any]:
    """The sidebar's pricing settings as tool arguments (the assistant's ``tool_defaults``)."""
    return {name: getattr(s, name) for name in PRICING_SETTINGS if getattr(s, name)}


def ask(question: str, s: Settings, key: str | None, history: Any, lang: Lang, *,
        on_token: Callable[[str], None] | None = None) -> Answer:
    """One assistant turn with the session's settings; never raises, reads no session state (so it
    may run in a worker thread)."""
    try:
        # lazy: cold start of the UI (the first page renders before the engine loads)
        from advisor.assistant import ask as assistant
    except Exception as exc:  # the assistant package is missing or broken
        return Answer(answer="", mode="offline", lang=lang, error=term("chat.unavailable", lang, error=type(exc).__name__))
    target = endpoint(s, key) if s.use_llm else Endpoint()
    use_llm = target.config is not None
    notice = term("side.needs_key", lang) if target.missing_key else None
    try:
        result = assistant(question, history=history, offline=not use_llm, config=target.config,
                           on_token=on_token if use_llm else None, lang=s.lang_pref if s.lang_pref in ("zh", "en") else None,
                           tool_defaults=tool_defaults(s) or None,
                           read_paths=False,  # paths typed in a question are never read from the server's disk
                           allowed_paths=[s.prices_file] if s.prices_file else [])
    except Exception as exc:
        return Answer(answer="", mode="llm" if use_llm else "offline", lang=lang,
                      error=term("chat.failed", lang, error=error_text(exc, lang, key)))
    data = plain(result)
    notice = " ".join(n for n in (notice, data.get("notice")) if n) or None
    return Answer(
        answer=scrub(data.get("answer") or "", key),
        mode=str(data.get("mode") or "offline"),
        lang=data.get("lang") if data.get("lang") in ("zh", "en") else lang,
        tool_calls=list(data.get("tool_calls") or []),
        citations=list(data.get("citations") or []),
        notice=scrub(notice, key) if notice else None,
        intent=data.get("intent"),
        history=data.get("history"),
    )


# --- knowledge ------------------------------------------------------------------------------

@st.cache_resource(show_spinner=False)
def onboarding(lang: Lang) -> list[dict[str, Any]]:
    """The onboarding path in ``lang`` (shared by every session, read-only)."""
    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.knowledge.onboarding import onboarding_path

    return [plain(m) for m in onboarding_path(lang)]


@st.cache_data(show_spinner=False, max_entries=64)
def guide_markdown(slug: str, lang: Lang) -> str:
    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.knowledge.render import render_guide
    from advisor.tools import report_json

    return render_guide(slug, lang, report_json)


def grade(module_id: str, answers: list[int], lang: Lang) -> Outcome:
    # lazy: cold start of the UI (the first page renders before the engine loads)
    from advisor.knowledge.onboarding import grade_quiz

    return attempt(lang, grade_quiz, module_id, answers, lang)
