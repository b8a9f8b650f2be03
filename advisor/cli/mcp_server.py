"""``advisor mcp``: the tools over the Model Context Protocol (stdio, or streamable HTTP)."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add ``mcp`` to ``app``."""
    app.command("mcp", help="Serve the tools over MCP: stdio by default, or --http PORT on 127.0.0.1. "
                            "以 MCP 协议提供全部工具。")(mcp)


def mcp(
    http: Annotated[int | None, typer.Option("--http", help="serve streamable HTTP on this port (path /mcp)",
                                             min=1, max=65535)] = None,
    host: Annotated[str, typer.Option("--host", help="address for --http; keep 127.0.0.1 unless you "
                                                     "front it with your own authentication")] = "127.0.0.1",
) -> None:
    """Serve until the client disconnects (stdio) or until interrupted (HTTP)."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.mcp import serve_http, serve_stdio

    if http is None:
        serve_stdio()
    else:
        serve_http(http, host=host)
