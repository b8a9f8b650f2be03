"""``advisor ui``: the Streamlit command it runs, and clear one-line errors for a bad port."""

from __future__ import annotations

import socket

from advisor.cli import main
from advisor.cli.ui import APP, command, streamlit_args


def test_streamlit_command_is_headless_on_the_given_address():
    args = streamlit_args("127.0.0.1", 8765)
    assert args[:2] == ["run", str(APP)]
    flags = dict(zip(args[2::2], args[3::2], strict=True))
    assert flags["--server.headless"] == "true"
    assert flags["--server.address"] == "127.0.0.1"
    assert flags["--server.port"] == "8765"
    assert flags["--browser.gatherUsageStats"] == "false"
    assert command("127.0.0.1", 8765, warm=False)[1:3] == ["-m", "streamlit"]
    assert command("127.0.0.1", 8765)[1].endswith("ui/serve.py")


def test_help_lists_host_and_port(capsys):
    assert main(["ui", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--host" in out and "--port" in out


def test_busy_port_is_a_one_line_error(capsys):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        assert main(["ui", "--port", str(port)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: invalid port") and "\n" not in err


def test_port_out_of_range(capsys):
    assert main(["ui", "--port", "70000"]) == 2
    assert "1 to 65535" in capsys.readouterr().err
