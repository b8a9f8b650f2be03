"""The cost commands as a user runs them: one JSON document, or exit 2 with one line."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main

BASE = ["estimate", "--model", "llama-3.1-8b", "--method", "lora", "--tokens", "150M", "--gpu", "a100", "--gpus", "8"]


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--params", "-7B"], "-7B"),
        (["--params", "0"], "0"),
        (["--params", "seven"], "seven"),
        (["--tokens", "lots"], "lots"),
        (["--gpu", "a1000"], "a1000"),
        (["--mfu", "1.5"], "1.5"),
        (["--mfu", "0"], "0"),
        (["--price", "-2"], "-2"),
        (["--currency", "EUR"], "EUR"),
        (["--method", "dpo"], "dpo"),
        (["--gpus", "0"], "0"),
        (["--precision", "int3"], "int3"),
        (["--zero", "5"], "5"),
        (["--billing", "weekly"], "weekly"),
        (["--frobnicate"], "--frobnicate"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, flags: list[str], named: str) -> None:
    argv = [a for a in BASE]
    for flag in flags[::2]:
        if flag in argv:  # replace an existing flag's value
            i = argv.index(flag)
            del argv[i : i + 2]
    code, out, err = run(capsys, argv + flags)
    assert code == 2, (out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert named in lines[0]
    assert "Traceback" not in err


def test_unknown_gpu_suggests_close_names(capsys) -> None:
    argv = [a if a != "a100" else "h10" for a in BASE]
    code, _, err = run(capsys, argv)
    assert code == 2
    assert "did you mean" in err and "H100" in err


def test_missing_data_size_says_what_to_give(capsys) -> None:
    code, _, err = run(capsys, ["estimate", "--model", "llama-3.1-8b", "--gpu", "a100"])
    assert code == 2
    assert "--tokens" in err or "tokens" in err


def test_estimate_json_is_one_document(capsys) -> None:
    code, out, err = run(capsys, [*BASE, "--currency", "CNY", "--json"])
    assert code == 0, err
    doc = json.loads(out)
    for key in ("inputs", "flops", "memory", "gpu", "gpu_hours", "wall_hours", "cost", "billing", "assumptions",
                "findings"):
        assert key in doc
    assert doc["inputs"]["gpu"] == "A100-80GB" and doc["inputs"]["gpu_count"] == 8
    assert doc["inputs"]["params_b"] == pytest.approx(8.03) and doc["inputs"]["tokens_b"] == pytest.approx(0.15)
    assert doc["cost"]["currency"] == "CNY"
    for k in ("weights_gb", "gradients_gb", "optimizer_gb", "activations_gb", "overhead_gb", "per_gpu_gb",
              "gpu_memory_gb", "fits"):
        assert k in doc["memory"]
    assert abs(sum(c["amount"] for c in doc["cost"]["components"]) - doc["cost"]["total"]) < 1e-6
    assert {b["mode"] for b in doc["billing"]} >= {"on_demand", "monthly", "spot"}
    assert all({"name", "value", "source"} <= set(a) for a in doc["assumptions"])


@pytest.mark.parametrize(
    "argv",
    [
        ["recommend", "--model", "qwen2.5-7b", "--method", "qlora", "--tokens", "0.1B", "--deadline-days", "2"],
        ["billing", "--gpu", "h100", "--gpus", "64", "--days", "60", "--interruptible"],
        ["plan", "--model", "llama-2-7b", "--pretrain-tokens", "200B", "--finetune-tokens", "0.5B",
         "--serve-tokens-per-day", "50M", "--gpu", "h100", "--currency", "CNY"],
    ],
)
def test_other_cost_commands_print_json(capsys, argv: list[str]) -> None:
    code, out, err = run(capsys, [*argv, "--json"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["assumptions"] and "findings" in doc


@pytest.mark.parametrize("argv", [
    BASE,
    ["estimate", "--params", "70B", "--method", "full", "--tokens", "2B", "--gpu", "h100", "--lang", "zh"],
    ["billing", "--gpu", "h100", "--gpus", "64", "--days", "60", "--interruptible"],
    ["recommend", "--model", "qwen2.5-7b", "--method", "qlora", "--tokens", "0.1B", "--deadline-days", "2"],
    ["plan", "--model", "llama-2-7b", "--pretrain-tokens", "200B", "--finetune-tokens", "0.5B", "--gpu", "h100"],
])
def test_default_output_is_the_short_form(capsys, argv: list[str]) -> None:
    code, out, err = run(capsys, argv)
    assert code == 0, err
    assert len(out.splitlines()) <= 40, out
    assert "--details" in out


def test_details_show_the_tables_and_the_assumptions(capsys) -> None:
    code, out, err = run(capsys, [*BASE, "--details"])
    assert code == 0, err
    for heading in ("Expected total", "Where the money goes", "The same job under each billing mode",
                    "Assumptions and sources"):
        assert heading in out
    assert "REQUIREMENTS" not in out and "CALIBRATION" not in out


def test_a_short_job_keeps_its_size(capsys) -> None:
    code, out, err = run(capsys, ["estimate", "--params", "0.5B", "--method", "lora", "--tokens", "2M", "--gpu", "h100",
                                  "--gpus", "1", "--lang", "zh"])
    assert code == 0, err
    wall = next(line for line in out.splitlines() if "完成时间" in line)
    assert "0 小时" not in wall and ("分钟" in wall or "秒" in wall)
    assert " 0 卡时" not in out and "0.0 " not in out


def test_every_command_of_the_options_file_builds_with_known_settings() -> None:
    from advisor.cli.args import options, parser

    for command, spec in options()["commands"].items():
        flags = {o for a in parser(command)._actions for o in a.option_strings}
        assert "--json" in flags or command in ("chat", "mcp", "ui"), command
        assert "tool" not in spec or {"--details", "--lang"} <= flags, command


@pytest.mark.parametrize("argv", [["mcp", "--http", "70000"], ["ui", "--port", "0"], ["ui", "--port", "web"],
                                  ["ask", "hi", "--lang", "fr"], ["learn", "--lang", "de"], ["review", "x.txt", "--format", "pdf"],
                                  ["budget", "status", "--lang", "jp"], ["budget", "approve", "--approver", "z", "one"]])
def test_a_bad_flag_of_any_command_is_one_line_and_exit_2(capsys, argv: list[str]) -> None:
    code, _, err = run(capsys, argv)
    assert code == 2 and err.startswith("error:") and len(err.strip().splitlines()) == 1 and argv[-1] in err, err


@pytest.mark.parametrize("command", ["estimate", "billing", "serve", "quote", "own"])
def test_a_shared_flag_is_read_the_same_by_every_command(command: str) -> None:
    from advisor.cli.args import ArgumentError, parser

    p = parser(command)
    required = ["--gpu", "h100", "--price", "2"] if command == "quote" else ["--gpu", "h100"]
    assert p.parse_args([*required, "--gpus", "8"]).gpu_count == 8
    with pytest.raises(ArgumentError, match="positive whole number"):
        p.parse_args([*required, "--gpus", "0"])


def test_help_and_a_json_command_load_no_presenter() -> None:
    """``advisor --help`` (and a --json answer) start without the presenters or the CLI tables:
    each command imports them when it prints a view."""
    import subprocess
    import sys

    code = ("import sys; from advisor.cli import main; main(['--help']); main(['gpus', '--json']); sys.stdout.flush(); "
            "print('LOADED', sorted(m for m in sys.modules if m.startswith(('advisor.present', 'advisor.cli.render'))), "
            "file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert "LOADED []" in done.stderr, done.stderr[-2000:]
