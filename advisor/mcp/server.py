"""The MCP server: one low-level :class:`mcp.server.Server` whose handlers call the tools.

- ``tools/list``: every tool, with the compact argument schema and the description of
  :func:`advisor.tools.langchain.openai_tool` (the same descriptors the LLM agent uses).
- ``tools/call``: the arguments are validated against that schema; a bad one is an MCP
  "invalid params" error naming the field. The result is the report's short form
  (:func:`advisor.present.markdown.short`), then the
  report's JSON, and the same JSON as ``structuredContent`` — equal to the Python API's
  ``report.model_dump(mode="json")``.
- ``resources``: the guides (``advisor://guides/<lang>/<slug>``, Markdown) and the rule packs
  (``advisor://rules/<pack>``, JSON lists of rules).

Tools are CPU-bound and synchronous: each call runs in a worker thread so the transport keeps
answering. Everything sent passes :func:`advisor.redact.redact_data`.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS
from pydantic import ValidationError

import advisor.tools as tools
from advisor import __version__
from advisor.errors import AdvisorError, InputError
from advisor.glossary import term
from advisor.knowledge.guides import load_guides
from advisor.present import PRESENTERS, markdown, present
from advisor.redact import redact, redact_data
from advisor.rules import load_packs
from advisor.tools import TOOL_NAMES
from advisor.tools.langchain import llm_schema, openai_tool

SERVER_NAME = "compute-cost-advisor"
GUIDE_PREFIX = "advisor://guides/"
RULES_PREFIX = "advisor://rules/"
INSTRUCTIONS = (
    "GPU compute cost tools: training and fine-tuning cost, hardware choice, billing modes, "
    "serving cost, quote checks, own vs rent, contract review, usage waste. Every figure comes "
    "from the tools; quote them, do not compute your own. 算力成本工具：所有数字来自工具结果。"
)


def tool_list() -> list[types.Tool]:
    """Every installed tool as MCP sees it."""
    out = []
    for name in TOOL_NAMES:
        try:
            function = openai_tool(name)["function"]
        except (ImportError, AttributeError):
            continue
        out.append(types.Tool(name=name, description=function["description"], input_schema=function["parameters"]))
    return out


def _bad_params(message: str) -> MCPError:
    return MCPError(code=INVALID_PARAMS, message=redact(message))


def _validated(name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    if name not in TOOL_NAMES:
        raise _bad_params(f"unknown tool {name!r}: expected one of {', '.join(TOOL_NAMES)}")
    try:
        args = llm_schema(name).model_validate(arguments or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "arguments"
        raise _bad_params(f"invalid argument {field}: {first['msg']}") from None
    return args.model_dump(exclude_none=True)


def summary_text(name: str, report: dict[str, Any], lang: str = "en") -> str:
    """The report's short form (advisor.present: the same figures and words as the CLI, the UI
    and the chat), or, for a report without a presenter, its findings counted."""
    if name in PRESENTERS:
        return markdown.short(present(name, report, lang))
    counts = Counter(str(f.get("severity", "info")) for f in report.get("findings") or [] if isinstance(f, dict))
    if not counts:
        return term("label.no_findings", lang)
    parts = [f"{counts[s]} {term(f'severity.{s}', lang)}" for s in ("critical", "warning", "info") if s in counts]
    return term("label.findings_counted", lang, counts=term("chat.list_sep", lang).join(parts))


def call_tool(name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
    """Run one tool call (synchronously) and shape its MCP result."""
    args = _validated(name, arguments)
    try:
        report = getattr(tools, name)(**args)
    except InputError as exc:
        raise _bad_params(f"invalid argument {exc.field}: {exc.one_line()}") from None
    except AdvisorError as exc:
        return types.CallToolResult(content=[types.TextContent(type="text", text=exc.one_line())], is_error=True)
    data = redact_data(report.model_dump(mode="json"))
    lang = str(args.get("lang") or (data.get("inputs") or {}).get("lang") or "en")
    text = json.dumps(data, ensure_ascii=False)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=summary_text(name, data, lang)), types.TextContent(type="text", text=text)],
        structured_content=data,
    )


def _resources() -> dict[str, tuple[types.Resource, str]]:
    """uri -> (resource, text), built on each listing: guides and packs are small."""
    out: dict[str, tuple[types.Resource, str]] = {}
    for guide in load_guides():
        uri = f"{GUIDE_PREFIX}{guide.lang}/{guide.slug}"
        resource = types.Resource(name=f"{guide.lang}/{guide.slug}", title=guide.title, uri=uri,
                                  description=guide.meta.summary, mime_type="text/markdown")
        out[uri] = (resource, guide.body)
    for pack in load_packs().values():
        uri = f"{RULES_PREFIX}{pack.name}"
        rules = [{"id": r.id, "severity": r.severity, "category": r.category,
                  "title": {lang: r.text[lang]["title"].source for lang in ("en", "zh")}} for r in pack.rules]
        doc = {"pack": pack.name, "description": pack.description, "rules": rules}
        resource = types.Resource(name=f"rules/{pack.name}", title=f"Rule pack {pack.name}", uri=uri,
                                  description=str(pack.description or ""), mime_type="application/json")
        out[uri] = (resource, json.dumps(doc, ensure_ascii=False, indent=1))
    return out


async def _list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=tool_list())


async def _call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    return await anyio.to_thread.run_sync(call_tool, params.name, params.arguments)


async def _list_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=[r for r, _ in _resources().values()])


async def _read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    uri = str(params.uri)
    found = _resources().get(uri)
    if found is None:
        raise _bad_params(f"unknown resource {uri!r}: expected {GUIDE_PREFIX}<lang>/<slug> or {RULES_PREFIX}<pack>")
    resource, text = found
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=resource.mime_type,
                                                                          text=text)])


def build_server() -> Server[Any]:
    """The server object; transports are attached by :func:`serve_stdio` / :func:`serve_http`."""
    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=_list_tools,
        on_call_tool=_call_tool,
        on_list_resources=_list_resources,
        on_read_resource=_read_resource,
    )


async def _stdio() -> None:
    from mcp.server.stdio import stdio_server

    server = build_server()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve_stdio() -> None:
    """Serve one client over this process's stdin/stdout until it closes them.

    The SDK claims the real descriptors (and points fd 1 at stderr meanwhile, so stray prints
    cannot corrupt the wire); the CLI's redacting wrapper of ``sys.stdout`` is set aside for
    that time, since what goes on the wire is already redacted in :func:`call_tool`."""
    saved = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = sys.__stdin__, sys.__stdout__
    try:
        anyio.run(_stdio)
    finally:
        sys.stdin, sys.stdout = saved


def serve_http(port: int, host: str = "127.0.0.1") -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` until interrupted."""
    import socket

    import uvicorn

    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise InputError("--http", port, f"a free port on {host} ({exc.strerror or exc})") from None
    app = build_server().streamable_http_app(host=host)
    uvicorn.run(app, host=host, port=port, log_level="warning")
