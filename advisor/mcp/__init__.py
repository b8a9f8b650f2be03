"""The tools over the Model Context Protocol, for desktop assistants (Claude Desktop, Cherry
Studio, Cursor, Dify) that speak MCP.

::

    advisor mcp               # stdio: the client starts the command and talks over its pipes
    advisor mcp --http 8765   # streamable HTTP on http://127.0.0.1:8765/mcp

Every tool of :data:`advisor.tools.TOOL_NAMES` is offered with the schema and description the
LLM agent sees (:mod:`advisor.tools.langchain`), so the two can never drift apart. Guides and
rule packs are readable resources. See :mod:`advisor.mcp.server`.
"""

from __future__ import annotations

from advisor.mcp.server import build_server, serve_http, serve_stdio

__all__ = ["build_server", "serve_http", "serve_stdio"]
