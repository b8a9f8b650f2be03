"""LLM settings: presets, precedence (arguments > environment > .env > settings file), and
the API key never shown."""

from __future__ import annotations

import logging

import pytest

from advisor.assistant.config import PRESETS, load_config, scrub
from advisor.errors import InputError

pytestmark = pytest.mark.usefixtures("clean_llm_env")

KEY = "sk-config-test-0a1b2c3d4e"


def test_nothing_configured_means_disabled() -> None:
    cfg = load_config(env={}, dotenv_path=None)
    assert not cfg.enabled and cfg.model is None


def test_an_api_key_alone_does_not_switch_the_llm_on() -> None:
    assert not load_config(env={"OPENAI_API_KEY": KEY}, dotenv_path=None).enabled


@pytest.mark.parametrize(("preset", "host"), [
    ("openai", "api.openai.com"), ("deepseek", "api.deepseek.com"), ("qwen", "dashscope.aliyuncs.com"),
    ("dashscope", "dashscope.aliyuncs.com"), ("ollama", "127.0.0.1:11434"), ("llama.cpp", "127.0.0.1:8080"),
])
def test_presets_fill_base_url_and_model(preset: str, host: str) -> None:
    cfg = load_config(env={"ADVISOR_LLM_PRESET": preset}, dotenv_path=None)
    assert host in cfg.base_url and cfg.enabled


def test_vllm_needs_a_model_name_and_local_servers_get_a_placeholder_key() -> None:
    assert not load_config(env={"ADVISOR_LLM_PRESET": "vllm"}, dotenv_path=None).enabled
    cfg = load_config(env={"ADVISOR_LLM_PRESET": "vllm", "ADVISOR_LLM_MODEL": "Qwen/Qwen2.5-7B-Instruct"}, dotenv_path=None)
    assert cfg.enabled and cfg.base_url == PRESETS["vllm"].base_url and cfg.api_key.get_secret_value() == "EMPTY"


def test_preset_key_variable_is_read() -> None:
    cfg = load_config(env={"ADVISOR_LLM_PRESET": "deepseek", "DEEPSEEK_API_KEY": KEY}, dotenv_path=None)
    assert cfg.api_key.get_secret_value() == KEY


def test_precedence_arguments_env_dotenv_settings(tmp_path, monkeypatch) -> None:
    settings = tmp_path / "advisor.yaml"
    settings.write_text("llm:\n  preset: ollama\n  model: from-settings\n  timeout_s: 5\n", encoding="utf-8")
    monkeypatch.setenv("ADVISOR_CONFIG", str(settings))
    dotenv = tmp_path / ".env"
    dotenv.write_text(f"ADVISOR_LLM_MODEL=from-dotenv\nOPENAI_API_KEY={KEY}\n", encoding="utf-8")
    cfg = load_config(env={}, dotenv_path=dotenv)
    assert (cfg.model, cfg.timeout_s, cfg.preset) == ("from-dotenv", 5.0, "ollama")
    assert cfg.api_key.get_secret_value() == KEY
    assert load_config(env={"ADVISOR_LLM_MODEL": "from-env"}, dotenv_path=dotenv).model == "from-env"
    assert load_config(env={"ADVISOR_LLM_MODEL": "from-env"}, dotenv_path=dotenv, model="arg").model == "arg"
    assert load_config(env={}, dotenv_path=None).model == "from-settings"


def test_bad_values_are_one_line_errors() -> None:
    with pytest.raises(InputError, match="llm preset"):
        load_config(env={"ADVISOR_LLM_PRESET": "gpt5-cloud"}, dotenv_path=None)
    with pytest.raises(InputError, match="timeout_s"):
        load_config(env={"ADVISOR_LLM_MODEL": "m", "ADVISOR_LLM_TIMEOUT": "-1"}, dotenv_path=None)


def test_the_key_is_never_shown(caplog) -> None:
    cfg = load_config(env={"ADVISOR_LLM_MODEL": "m", "OPENAI_API_KEY": KEY}, dotenv_path=None)
    for text in (repr(cfg), str(cfg), cfg.model_dump_json(), str(cfg.public()), str(cfg.model_dump())):
        assert KEY not in text
    assert cfg.public()["api_key"] == "***"
    caplog.set_level(logging.DEBUG)
    logging.getLogger("advisor.test").warning("request failed with key %s", KEY)
    logging.getLogger("openai._base_client").debug(f"headers: Bearer {KEY}")
    assert KEY not in caplog.text and "***" in caplog.text
    assert scrub(f"Incorrect API key provided: {KEY}") == "Incorrect API key provided: ***"


@pytest.mark.parametrize("source", ["env", "dotenv", "settings"])
def test_a_configured_key_goes_only_to_the_configured_endpoint(tmp_path, monkeypatch, source) -> None:
    own = "https://llm.operator.example/v1"
    env: dict[str, str] = {}
    dotenv = tmp_path / ".env"
    if source == "env":
        env = {"OPENAI_BASE_URL": own, "OPENAI_API_KEY": KEY}
    elif source == "dotenv":
        dotenv.write_text(f"OPENAI_BASE_URL={own}\nOPENAI_API_KEY={KEY}\n", encoding="utf-8")
    else:
        settings = tmp_path / "advisor.yaml"
        settings.write_text(f"llm:\n  base_url: {own}\n  api_key: {KEY}\n", encoding="utf-8")
        monkeypatch.setenv("ADVISOR_CONFIG", str(settings))
    same = load_config(env=env, dotenv_path=dotenv, base_url=own + "/", model="m")
    assert same.api_key.get_secret_value() == KEY
    for other in ("https://attacker.example/v1", own + ".attacker.example", "http://127.0.0.1:9/v1"):
        cfg = load_config(env=env, dotenv_path=dotenv, base_url=other, model="m")
        assert cfg.api_key is None or cfg.api_key.get_secret_value() != KEY, other
    given = load_config(env=env, dotenv_path=dotenv, base_url="https://attacker.example/v1", model="m", api_key="sk-own-0000")
    assert given.api_key.get_secret_value() == "sk-own-0000"


def test_a_provider_key_variable_goes_only_to_that_provider() -> None:
    env = {"DEEPSEEK_API_KEY": KEY}
    assert load_config(env=env, dotenv_path=None, preset="deepseek").api_key.get_secret_value() == KEY
    cfg = load_config(env=env, dotenv_path=None, preset="deepseek", base_url="https://attacker.example/v1")
    assert cfg.api_key is None
