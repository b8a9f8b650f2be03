"""LLM settings: which OpenAI-compatible endpoint, which model, how long to wait.

Read from, first hit wins: keyword arguments, the environment, a ``.env`` file in the
working directory, the ``llm:`` section of the settings file (``advisor.config.settings()``),
then the chosen preset. The LLM is switched on only by naming a model or a preset
(``ADVISOR_LLM_MODEL`` / ``ADVISOR_LLM_PRESET``): an ``OPENAI_API_KEY`` left in the
environment for other tools never sends questions anywhere on its own.

The API key is a :class:`pydantic.SecretStr`: ``repr``, ``str``, ``model_dump`` and every
error message show ``***`` instead, and :func:`scrub` removes any configured key from text
before it is logged, printed or exported. See docs/LLM.md.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from advisor import redact
from advisor.config import settings
from advisor.datafile import read_mapping
from advisor.errors import InputError

__all__ = ["PRESETS", "LLMConfig", "Preset", "load_config", "scrub"]

MASK = redact.MASK


class Preset(BaseModel):
    """A known endpoint (``llm_endpoints.yaml``): base URL, a sensible model, and where its key
    usually lives."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str
    model: str | None
    key_env: str | None = Field(default=None, description="Environment variable read for the key when OPENAI_API_KEY is unset.")
    placeholder_key: str | None = Field(default=None, description="Key sent to local servers that ignore it (the client needs one).")
    stream: bool = Field(default=True, description="Stream replies; False for servers that cannot stream tool calls.")
    note: str = ""


_DATA = read_mapping(Path(__file__).with_name("llm_endpoints.yaml"))
PRESETS: dict[str, Preset] = {name: Preset(**spec) for name, spec in _DATA["presets"].items()}
_PRESET_ALIASES: dict[str, str] = dict(_DATA["aliases"])
_ENV: dict[str, str] = dict(_DATA["env"])


class LLMConfig(BaseModel):
    """Resolved settings of the LLM endpoint. ``enabled`` is False when no model is named."""

    model_config = ConfigDict(frozen=True)

    preset: str | None = None
    base_url: str | None = None
    model: str | None = None
    api_key: SecretStr | None = None
    timeout_s: float = Field(default=30.0, gt=0, description="Seconds to wait for one model call.")
    max_retries: int = Field(default=1, ge=0, le=10, description="Retries of a failed model call (connection errors, 429, 5xx).")
    temperature: float = Field(default=0.0, ge=0, le=2)
    max_steps: int = Field(default=6, ge=2, le=50, description="Model/tool round trips allowed in one turn.")
    turn_timeout_s: float = Field(default=45.0, gt=0, le=3600,
                                  description="Seconds a whole turn may take; then it is answered offline with a notice.")
    stream: bool = Field(default=True, description="Stream the model's replies (False: one response per request).")
    strict: bool = Field(default=False, description="Send OpenAI strict function schemas (every field required, nullable).")

    @property
    def enabled(self) -> bool:
        return bool(self.model and self.base_url)

    def __repr__(self) -> str:
        key = MASK if self.api_key is not None else None
        return (f"LLMConfig(preset={self.preset!r}, base_url={self.base_url!r}, model={self.model!r}, "
                f"api_key={key!r}, timeout_s={self.timeout_s}, max_retries={self.max_retries}, "
                f"turn_timeout_s={self.turn_timeout_s}, stream={self.stream})")

    __str__ = __repr__

    def public(self) -> dict[str, Any]:
        """What may be shown or exported: everything but the key, which is only said to be set."""
        data = self.model_dump(exclude={"api_key"})
        data["api_key"] = MASK if self.api_key is not None else None
        return data


def _preset(name: str | None) -> tuple[str | None, Preset | None]:
    if not name:
        return None, None
    key = _PRESET_ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in PRESETS:
        raise InputError("llm preset", name, ", ".join(PRESETS) + " (or set OPENAI_BASE_URL and ADVISOR_LLM_MODEL)")
    return key, PRESETS[key]


def _dotenv(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    from dotenv import dotenv_values

    return {k: v for k, v in dotenv_values(path).items() if v is not None}


def _settings_llm() -> dict[str, Any]:
    section = settings().get("llm") or {}
    if not isinstance(section, dict):
        raise InputError("settings llm", type(section).__name__, "a mapping with preset, base_url, model, timeout_s, max_retries")
    return dict(section)


def load_config(env: dict[str, str] | None = None, dotenv_path: str | Path | None = ".env", **overrides: Any) -> LLMConfig:
    """Resolve the LLM settings (see the module docstring for the order)."""
    environ = dict(os.environ) if env is None else dict(env)
    dot = _dotenv(Path(dotenv_path)) if dotenv_path else {}
    file = _settings_llm()

    redact.remember_mapping(file)

    def configured(name: str) -> Any:
        var = _ENV.get(name)
        for source in (environ, dot):
            if var and source.get(var):
                return source[var]
        return file.get(name)

    def pick(name: str) -> Any:
        return overrides[name] if overrides.get(name) is not None else configured(name)

    preset_name, preset = _preset(pick("preset"))
    model = pick("model") or (preset.model if preset else None)
    base_url = pick("base_url") or (preset.base_url if preset else None)
    if model and not base_url:
        base_url = PRESETS["openai"].base_url
    key = overrides.get("api_key")
    if not key and _same_endpoint(base_url, _configured_base_url(configured)):
        # A key from the environment, .env or the settings file goes only to the endpoint
        # configured beside it, never to a base URL given by the caller (a visitor, a question).
        key = configured("api_key")
    if not key and preset and preset.key_env and _same_endpoint(base_url, preset.base_url):
        key = environ.get(preset.key_env) or dot.get(preset.key_env)  # named for that provider
    if not key and preset and preset.placeholder_key:
        key = preset.placeholder_key
    if not key and base_url and _is_local(str(base_url)):
        key = "EMPTY"
    numbers = {n: pick(n) for n in ("timeout_s", "max_retries", "temperature", "max_steps", "turn_timeout_s", "strict")}
    numbers["stream"] = pick("stream")
    if numbers["stream"] is None and preset is not None:
        numbers["stream"] = preset.stream
    try:
        cfg = LLMConfig(
            preset=preset_name, base_url=str(base_url).rstrip("/") if base_url else None,
            model=str(model) if model else None, api_key=SecretStr(str(key)) if key else None,
            **{k: v for k, v in numbers.items() if v is not None},
        )
    except ValueError as exc:  # pydantic ValidationError: one line, never the key
        err = exc.errors()[0] if hasattr(exc, "errors") else {}
        field = ".".join(str(x) for x in err.get("loc", ())) or "llm settings"
        raise InputError(f"llm {field}", err.get("input"), err.get("msg", "a valid value")) from None
    if cfg.api_key is not None:
        redact.remember(cfg.api_key.get_secret_value())  # scrub and the log filter remove it everywhere
    return cfg


def _configured_base_url(configured: Any) -> str | None:
    """The endpoint the operator configured (environment, .env, settings file), if any."""
    _, preset = _preset(configured("preset"))
    url = configured("base_url") or (preset.base_url if preset else None)
    if not url and (configured("model") or configured("api_key")):
        url = PRESETS["openai"].base_url
    return str(url) if url else None


def _same_endpoint(a: Any, b: Any) -> bool:
    def norm(url: Any) -> str:
        return str(url or "").strip().rstrip("/").lower()

    return bool(norm(a)) and norm(a) == norm(b)


def _is_local(url: str) -> bool:
    return any(h in url for h in ("://127.0.0.1", "://localhost", "://0.0.0.0", "://[::1]"))


def scrub(text: str) -> str:
    """``text`` with every configured key (and anything shaped like one) replaced by ``***``."""
    return redact.redact(text)
