"""``make run`` / ``advisor ui``: the Streamlit command they run, and clear one-line errors for a bad port."""

from __future__ import annotations

import os
import re
import socket
import sys

import pytest

from advisor.cli import main
from advisor.cli.ui import SERVE
from ui import serve


def test_streamlit_command_is_headless_on_the_given_address():
    args = serve.streamlit_args("127.0.0.1", 8765)
    assert args[:2] == ["run", str(serve.APP)]
    flags = dict(zip(args[2::2], args[3::2], strict=True))
    assert flags["--server.headless"] == "true"
    assert flags["--server.address"] == "127.0.0.1"
    assert flags["--server.port"] == "8765"
    assert flags["--browser.gatherUsageStats"] == "false"


@pytest.mark.parametrize("extra", [[], ["--no-warm"]])
def test_advisor_ui_runs_what_make_run_runs(monkeypatch, extra):
    ran: list[list[str]] = []
    monkeypatch.setattr(os, "execv", lambda path, cmd: ran.append(cmd))
    assert main(["ui", "--host", "0.0.0.0", "--port", "8123", *extra]) == 0
    assert ran == [[sys.executable, str(SERVE), "--host", "0.0.0.0", "--port", "8123", *extra]]
    recipe = re.search(r"^run:.*\n\t(.+)", (SERVE.parents[1] / "Makefile").read_text(encoding="utf-8"), re.M)
    assert recipe and recipe.group(1).split()[1:] == ["ui/serve.py", "--host", "$(HOST)", "--port", "$(PORT)"]


def test_help_lists_host_and_port(capsys):
    assert main(["ui", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--host" in out and "--port" in out


def test_busy_port_is_a_one_line_error(capsys):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        assert serve.main(["--port", str(port)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: invalid port") and "\n" not in err and "--port" in err


@pytest.mark.parametrize("port", ["0", "70000", "-1"])
def test_port_out_of_range(capsys, port):
    assert serve.main(["--port", port]) == 2
    err = capsys.readouterr().err.strip()
    assert "1 to 65535" in err and "\n" not in err
