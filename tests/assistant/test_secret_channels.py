"""A configured key never leaves the process through any channel: CLI stdout and stderr, logs,
JSON, error messages (a settings file or a price sheet quoting the raw value), and an endpoint
that echoes the key back in its reply. One redaction (advisor.redact) serves every channel."""

from __future__ import annotations

import json
import logging

import pytest

from advisor import redact
from advisor.cli import main
from advisor.errors import DataError, InputError

pytestmark = pytest.mark.usefixtures("clean_llm_env")

SECRET = "sk-channel-test-a1b2c3d4e5f6"
Q = "LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s, how much?"


def test_registered_secrets_and_credential_shapes_are_redacted() -> None:
    redact.remember("plain-words-secret-xyz")
    cases = {
        "the key plain-words-secret-xyz failed": "the key *** failed",
        f"Incorrect API key provided: {SECRET}": "Incorrect API key provided: ***",
        "Authorization: Bearer abcdefghijklmnop": "Authorization: Bearer ***",
        "api_key=hunter2hunter2 timeout=3": "api_key=*** timeout=3",
        '{"api_key": "zzzzzzzzzz"}': '{"api_key": "***"}',
        "token hf_abcdefghijklmnopqrstuv leaked": "token *** leaked",
    }
    for text, expected in cases.items():
        assert redact.redact(text) == expected
    assert redact.redact("8 A100 for 100 h costs $1,234") == "8 A100 for 100 h costs $1,234"
    assert redact.redact_data({"api_key": "value-123456", "rows": ["x plain-words-secret-xyz"]}) == \
        {"api_key": "***", "rows": ["x ***"]}


def test_error_messages_never_quote_a_key() -> None:
    redact.remember(SECRET)
    assert SECRET not in str(InputError("gpu", SECRET, "a GPU name"))
    assert SECRET not in DataError("prices.csv", f"bad price {SECRET!r}", row=3).one_line()


def test_cli_error_lines_and_output_are_redacted(capsys) -> None:
    redact.remember(SECRET)
    code = main(["estimate", "--model", "llama-3-8b", "--gpu", SECRET, "--tokens", "1e8"])
    out = capsys.readouterr()
    assert code == 2 and out.err.startswith("error:") and len(out.err.strip().splitlines()) == 1
    assert SECRET not in out.out + out.err and "***" in out.err


def test_settings_file_errors_never_quote_the_key(tmp_path, monkeypatch, capsys) -> None:
    settings = tmp_path / "advisor.yaml"
    settings.write_text(f"llm:\n  model: m\n  api_key: {SECRET}\n  timeout_s: {SECRET}\n", encoding="utf-8")
    monkeypatch.setenv("ADVISOR_CONFIG", str(settings))
    code = main(["ask", Q])
    out = capsys.readouterr()
    assert SECRET not in out.out + out.err
    assert code in (0, 2)


def test_price_sheet_error_quoting_a_key_is_redacted(tmp_path, capsys) -> None:
    sheet = tmp_path / "prices.csv"
    sheet.write_text(f"gpu,price_per_gpu_hour,currency\nA100,{SECRET},USD\n", encoding="utf-8")
    code = main(["estimate", "--model", "llama-3-8b", "--gpu", "A100", "--tokens", "1e8", "--prices", str(sheet)])
    out = capsys.readouterr()
    assert code == 2 and len(out.err.strip().splitlines()) == 1
    assert SECRET not in out.out + out.err


def test_an_endpoint_that_echoes_the_key_is_redacted_everywhere(stand_in, monkeypatch, capsys, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    server = stand_in(lambda body: {"content": f"Your key is {SECRET}. Authorization: Bearer {SECRET}"})
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("ADVISOR_LLM_MODEL", "stand-in")
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("ADVISOR_LLM_RETRIES", "0")
    for argv in (["ask", "--json", "hello, who are you?"], ["ask", "hello, who are you?"]):
        code = main(argv)
        out = capsys.readouterr()
        assert code == 0
        assert SECRET not in out.out + out.err
    assert server.headers[0]["authorization"] == f"Bearer {SECRET}"  # it did receive the key
    assert SECRET not in caplog.text
    logging.getLogger("httpx").warning("request headers %s", {"authorization": f"Bearer {SECRET}"})
    assert SECRET not in caplog.text


def test_json_output_of_ask_is_redacted(stand_in, monkeypatch, capsys) -> None:
    server = stand_in(lambda body: {"content": f"echo {SECRET}"})
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("ADVISOR_LLM_MODEL", "stand-in")
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    assert main(["ask", "--json", "hello"]) == 0
    text = capsys.readouterr().out
    assert SECRET not in text
    json.loads(text)


@pytest.mark.parametrize("echo", [
    lambda k: f"Incorrect API key provided: {k[:20]}....",  # a server that shows the key's start
    lambda k: f"key ending in ...{k[-12:]} is revoked",
    lambda k: f"{k[4:16]} not authorised",
])
def test_a_partial_echo_of_a_registered_key_is_redacted(echo) -> None:  # type: ignore[no-untyped-def]
    key = "ZqX9PLAINKEY4242secretvalue77"  # no credential shape: only the registration finds it
    redact.remember(key)
    text = echo(key)
    cleaned = redact.redact(text)
    assert redact.MASK in cleaned
    assert not any(key[i:i + redact.PARTIAL_CHARS] in cleaned for i in range(len(key) - redact.PARTIAL_CHARS + 1))


def test_a_key_set_in_the_environment_is_redacted_by_commands_that_load_no_llm(tmp_path, monkeypatch,
                                                                               capsys) -> None:
    key = "Envkey7788PLAIN9911value"
    monkeypatch.setenv("DEEPSEEK_API_KEY", key)
    code = main(["review", str(tmp_path / f"{key}.txt")])
    out, err = capsys.readouterr()
    assert code == 2 and key not in out + err and "***" in err


def test_help_output_through_the_redacting_streams_has_no_byte_reprs(capsys) -> None:
    main(["gpus", "--help"])
    out = capsys.readouterr().out
    assert "usage: advisor gpus" in out and "b''" not in out and "b'\\n'" not in out
