"""Every case of tests/data/bad_inputs.yaml (CLI arguments, Python tool calls, files): no
traceback, no "internal error", CLI exit 2 with one line on stderr, tools either raise an
AdvisorError with a one-line message or return a report with no NaN/inf in it."""

from __future__ import annotations

import json
import math
import os
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from advisor.cli import main
from advisor.errors import AdvisorError

CASES = yaml.safe_load((Path(__file__).resolve().parents[1] / "data" / "bad_inputs.yaml").read_text(encoding="utf-8"))


def test_there_are_at_least_200_cases() -> None:
    assert sum(len(CASES[k]) for k in ("cli", "tools", "files")) >= 200


def assert_one_line_exit_2(code: int, out: Any) -> None:
    err = out.err.strip()
    assert "Traceback" not in out.err + out.out and "internal error" not in out.err, out.err
    assert code == 2, (code, out.err[-400:])
    assert len(err.splitlines()) == 1 and err.startswith("error:"), out.err


@pytest.mark.parametrize("argv", CASES["cli"])
def test_cli_case(capsys, argv: str) -> None:
    code = main(shlex.split(argv))
    assert_one_line_exit_2(code, capsys.readouterr())


def finite_everywhere(data: Any) -> bool:
    if isinstance(data, float):
        return math.isfinite(data)
    if isinstance(data, dict):
        return all(finite_everywhere(v) for v in data.values())
    if isinstance(data, list):
        return all(finite_everywhere(v) for v in data)
    return True


@pytest.mark.parametrize("case", CASES["tools"], ids=lambda c: f"{c['tool']}-{sorted(c['args'].items())!r}"[:90])
def test_tool_case(case: dict) -> None:
    import advisor.tools as tools

    fn = getattr(tools, case["tool"])
    try:
        report = fn(**case["args"])
    except AdvisorError as exc:
        assert "\n" not in exc.one_line() and exc.one_line()
        return
    data = report.model_dump(mode="json") if hasattr(report, "model_dump") else report
    assert finite_everywhere(json.loads(json.dumps(data, allow_nan=True))), case


def make_file(tmp_path: Path, case: dict) -> str:
    special = case.get("special")
    if special == "fifo":
        os.mkfifo(tmp_path / "pipe.txt")
        return str(tmp_path / "pipe.txt")
    if special == "device":
        return "/dev/zero"
    if special == "symlink_loop":
        (tmp_path / "loop.txt").symlink_to(tmp_path / "loop.txt")
        return str(tmp_path / "loop.txt")
    if special == "directory":
        (tmp_path / "folder.txt").mkdir()
        return str(tmp_path / "folder.txt")
    if special == "missing":
        return str(tmp_path / "missing.txt")
    path = tmp_path / case["name"]
    if "hex" in case:
        path.write_bytes(bytes.fromhex(case["hex"]))
    else:
        path.write_bytes(case["text"].encode(case.get("encoding", "utf-8")))
    return str(path)


COMMANDS = {
    "review": lambda p: ["review", p],
    "usage": lambda p: ["usage", p],
    "prices": lambda p: ["estimate", "--model", "llama-3-8b", "--tokens", "1e8", "--gpu", "a100", "--prices", p],
}


@pytest.mark.parametrize("case", CASES["files"], ids=lambda c: f"{c['command']}-{c.get('name') or c.get('special')}")
def test_file_case(capsys, tmp_path, case: dict) -> None:
    code = main(COMMANDS[case["command"]](make_file(tmp_path, case)))
    assert_one_line_exit_2(code, capsys.readouterr())
