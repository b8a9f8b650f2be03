"""One place that keeps secrets out of every output channel.

Two kinds of secret are removed: values registered with :func:`remember` (the configured API
keys, wherever they came from) and text shaped like a credential even when nobody registered
it (``sk-…`` keys, ``Bearer …`` tokens, ``api_key=…`` pairs). Every channel goes through
:func:`redact`:

- error messages: :class:`advisor.errors.AdvisorError` redacts its one line;
- logging: :func:`install_log_filter` cleans every record when it is created, whichever logger
  or handler (ours, openai's, httpx's, pytest's caplog) sees it later;
- CLI stdout/stderr: :func:`redacting_streams` wraps both streams while a command runs;
- JSON, exported reports and UI answers: :func:`redact_data` / :func:`redact` before writing.

A base module: it imports nothing of the advisor, so every layer may use it.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import sys
import threading
from collections.abc import Iterator, Mapping
from typing import Any, TextIO

__all__ = ["MASK", "install_log_filter", "redact", "redact_data", "redacting_streams", "remember",
           "remember_mapping"]

MASK = "***"
# Keys that local servers ignore (the client library needs one): not secrets.
PLACEHOLDERS = frozenset({"EMPTY", "ollama", "sk-no-key-required", "none", "None", "null", "-"})
MIN_SECRET_CHARS = 6
PARTIAL_CHARS = 12  # shorter runs are ordinary words too often (a test key "sk-operator-…" holds "operator")
_WORDISH = re.compile(rf"[A-Za-z0-9_\-+/=]{{{PARTIAL_CHARS},}}")
# Names of settings whose values are secrets wherever they appear (settings files, mappings).
SECRET_NAMES = re.compile(r"(?i)(api[_-]?key|secret|token|password|passwd|authorization|credential)")

# Credential shapes: provider keys (OpenAI/DeepSeek/DashScope style ``sk-``, Anthropic ``sk-ant-``,
# Hugging Face ``hf_``, GitHub ``ghp_``/``github_pat_``, AWS access key ids), bearer tokens, and
# ``key=value`` / ``"key": "value"`` pairs whose name says secret.
_SHAPES = [
    re.compile(r"\b(?:sk|rk|pk)-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_]{12,}"),
    re.compile(r"\b(?:hf|ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{16,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}"),
    re.compile(r"(?i)\b((?:x-)?api[_-]?key|access[_-]?token|secret|password|authorization)"
               r"(\s*[\"']?\s*[:=]\s*[\"']?)(?!\*\*\*|(?:bearer|basic)\s)([^\s\"',;}{]{4,})"),
]

_SECRETS: set[str] = set()
_LOCK = threading.Lock()


def remember(value: object) -> None:
    """Register a secret: from now on :func:`redact` replaces it everywhere."""
    if value is None:
        return
    if hasattr(value, "get_secret_value"):  # pydantic SecretStr
        value = value.get_secret_value()
    text = str(value).strip()
    if len(text) < MIN_SECRET_CHARS or text in PLACEHOLDERS:
        return
    with _LOCK:
        _SECRETS.add(text)
    install_log_filter()


def remember_mapping(data: object) -> None:
    """Register every value, at any depth, whose key names a secret (``api_key``, ``token`` …)."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            if isinstance(value, str | int) and SECRET_NAMES.search(str(key)):
                remember(value)
            else:
                remember_mapping(value)
    elif isinstance(data, list | tuple):
        for value in data:
            remember_mapping(value)


def _shape(match: re.Match[str]) -> str:
    if match.lastindex == 3:  # name=value: keep the name, hide the value
        return f"{match.group(1)}{match.group(2)}{MASK}"
    if match.lastindex == 1:  # bearer/basic: keep the scheme
        return f"{match.group(1)} {MASK}"
    return MASK


def redact(text: object) -> str:
    """``text`` with every registered secret and every credential-shaped string replaced by ``***``."""
    out = text if isinstance(text, str) else str(text)
    if _SECRETS:
        with _LOCK:
            secrets = sorted(_SECRETS, key=len, reverse=True)
        for secret in secrets:
            if secret in out:
                out = out.replace(secret, MASK)
        # A server that echoes part of the key ("Incorrect API key provided: sk-abcd1234…"):
        # any word-like run of PARTIAL_CHARS or more that stands inside a registered secret.
        out = _WORDISH.sub(lambda m: MASK if any(m.group(0) in s for s in secrets) else m.group(0), out)
    for shape in _SHAPES:
        out = shape.sub(_shape, out)
    return out


def redact_data(obj: Any) -> Any:
    """A JSON-like value with every string redacted and every secret-named field masked."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, Mapping):
        out: dict[Any, Any] = {}
        for key, value in obj.items():
            if SECRET_NAMES.search(str(key)) and isinstance(value, str) and value and value not in PLACEHOLDERS:
                out[key] = MASK
            else:
                out[key] = redact_data(value)
        return out
    if isinstance(obj, list | tuple):
        return type(obj)(redact_data(v) for v in obj) if isinstance(obj, tuple) else [redact_data(v) for v in obj]
    return obj


# --- logging ------------------------------------------------------------------------------

_FACTORY_INSTALLED = False


def install_log_filter() -> None:
    """Redact log records when they are created, so that no logger or handler, ours or a
    library's, and no handler added later ever sees a secret (idempotent)."""
    global _FACTORY_INSTALLED
    with _LOCK:
        if _FACTORY_INSTALLED:
            return
        _FACTORY_INSTALLED = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is the logger's problem, not ours
            return record
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            if redact(str(exc)) != str(exc):  # the traceback would quote the secret
                record.exc_info, record.exc_text = None, None
                record.msg = f"{record.msg} ({type(exc).__name__}: {redact(str(exc))})"
        return record

    logging.setLogRecordFactory(factory)


# --- streams ------------------------------------------------------------------------------

class RedactingStream(io.TextIOBase):
    """A text stream that redacts what it writes, line by line (a secret split across two
    ``write`` calls within one line is still caught)."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner
        self._pending = ""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", "utf-8") or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.inner, "errors", "strict")

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return bool(getattr(self.inner, "isatty", lambda: False)())

    def fileno(self) -> int:
        return self.inner.fileno()

    def write(self, text: str) -> int:  # type: ignore[override]
        if isinstance(text, bytes | bytearray):  # click echoes bytes where it finds no binary buffer
            text = bytes(text).decode(self.encoding, errors="replace")
        elif not isinstance(text, str):
            text = str(text)
        data = self._pending + text
        head, sep, tail = data.rpartition("\n")
        if sep:
            self.inner.write(redact(head + sep))
            self._pending = tail
        else:
            self._pending = data
        if len(self._pending) > 4096:  # a long line without a newline (streamed tokens)
            self._flush_pending()
        return len(text)

    def _flush_pending(self, whole: bool = True) -> None:
        if not self._pending:
            return
        cut = len(self._pending)
        if not whole:  # keep the word being written: a key streamed in pieces is still whole
            space = max(self._pending.rfind(" "), self._pending.rfind("\t"))
            cut = space + 1 if space >= 0 and len(self._pending) - space < 256 else cut
        self.inner.write(redact(self._pending[:cut]))
        self._pending = self._pending[cut:]

    def flush(self) -> None:
        self._flush_pending(whole=False)
        self.inner.flush()

    def close_pending(self) -> None:
        self._flush_pending()
        self.inner.flush()


@contextlib.contextmanager
def redacting_streams() -> Iterator[None]:
    """Redact everything written to ``sys.stdout`` and ``sys.stderr`` inside the block."""
    install_log_filter()
    remember_mapping(dict(os.environ))  # keys set for any provider, even when this command loads no LLM config
    old_out, old_err = sys.stdout, sys.stderr
    out, err = RedactingStream(old_out), RedactingStream(old_err)
    sys.stdout, sys.stderr = out, err  # type: ignore[assignment]
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            out.close_pending()
        with contextlib.suppress(Exception):
            err.close_pending()
        sys.stdout, sys.stderr = old_out, old_err
