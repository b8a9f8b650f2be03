"""``advisor mcp``: the tools over the Model Context Protocol (stdio, or streamable HTTP)."""

from __future__ import annotations

from argparse import Namespace

import typer

from advisor.cli import args as A


def register(app: typer.Typer) -> None:
    """Add ``mcp`` to ``app`` (flags and help in options.yaml)."""
    A.command(app, "mcp", mcp)


def mcp(ns: Namespace) -> None:
    """Serve until the client disconnects (stdio) or until interrupted (HTTP)."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.mcp import serve_http, serve_stdio

    if ns.http is None:
        serve_stdio()
    else:
        serve_http(ns.http, host=ns.host)
