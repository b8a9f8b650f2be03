"""`advisor mcp` driven by the MCP SDK's own client, over stdio and over streamable HTTP:
every tool listed, results equal to the Python API's JSON, bad arguments named, resources."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from advisor import tools
from advisor.tools import TOOL_NAMES

LAUNCH = "import sys; from advisor.cli import main; sys.exit(main(sys.argv[1:]))"
ESTIMATE = {"model": "llama-3.1-8b", "method": "lora", "tokens_b": 0.15, "gpu": "A100", "gpu_count": 8}
CONTRACT = ("第三条 服务期满后本合同自动续期12个月，甲方需提前90天书面通知方可终止。\n"
            "第五条 实例停止后仍按原价计费，直至实例被释放。\n")


def _stdio() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-c", LAUNCH, "mcp"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def http_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    log = tmp_path_factory.mktemp("mcp") / "stderr.txt"
    with log.open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "mcp", "--http", str(port)],
                                stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"advisor mcp --http exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("advisor mcp --http did not listen within 60 s")
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(params=["stdio", "http"])
def connect(request: pytest.FixtureRequest) -> Callable[[Callable[[Client], Awaitable[Any]]], Any]:
    target: Any = _stdio() if request.param == "stdio" else request.getfixturevalue("http_url")

    def run(body: Callable[[Client], Awaitable[Any]]) -> Any:
        async def main() -> Any:
            async with Client(target, read_timeout_seconds=60) as client:
                return await body(client)

        return anyio.run(main)

    return run


def _python(name: str, **kwargs: Any) -> Any:
    return json.loads(json.dumps(getattr(tools, name)(**kwargs).model_dump(mode="json"), ensure_ascii=False))


def test_every_tool_is_listed_with_its_schema(connect: Any) -> None:
    listed = connect(lambda c: c.list_tools())
    names = [t.name for t in listed.tools]
    assert names == list(TOOL_NAMES)
    estimate = next(t for t in listed.tools if t.name == "estimate_training_cost")
    assert estimate.description and estimate.input_schema["type"] == "object"
    assert {"model", "gpu", "gpu_count"} <= set(estimate.input_schema["properties"])


def test_estimate_returns_the_python_api_json(connect: Any) -> None:
    result = connect(lambda c: c.call_tool("estimate_training_cost", ESTIMATE))
    assert not result.is_error
    expected = _python("estimate_training_cost", **ESTIMATE)
    assert result.structured_content == expected
    summary, body = result.content[0].text, result.content[1].text
    assert json.loads(body) == expected
    assert expected["gpu"]["name"] in summary


def test_contract_review_returns_the_python_api_json(connect: Any) -> None:
    result = connect(lambda c: c.call_tool("review_contract", {"text": CONTRACT}))
    assert not result.is_error
    expected = _python("review_contract", text=CONTRACT)
    assert result.structured_content == expected
    assert {f["category"] for f in expected["findings"]} >= {"auto_renewal"}


@pytest.mark.parametrize(("args", "field"), [
    ({"gpu_count": "many"}, "gpu_count"),
    ({"model": "llama-3.1-8b", "method": "dreaming"}, "method"),
    ({"model": "llama-3.1-8b", "tokens_b": 0.1, "gpu": "not-a-gpu"}, "gpu"),
    ({"model": "llama-3.1-8b", "tokens_b": 0.1, "surprise": 1}, "surprise"),
])
def test_bad_arguments_are_errors_naming_the_field(connect: Any, args: dict[str, Any], field: str) -> None:
    async def body(c: Client) -> str:
        with pytest.raises(MCPError) as err:
            await c.call_tool("estimate_training_cost", args)
        return err.value.message

    assert field in connect(body)


def test_unknown_tool_is_an_error_listing_the_tools(connect: Any) -> None:
    async def body(c: Client) -> str:
        with pytest.raises(MCPError) as err:
            await c.call_tool("delete_everything", {})
        return err.value.message

    message = connect(body)
    assert "delete_everything" in message and "estimate_training_cost" in message


def test_guides_and_rule_packs_are_resources() -> None:
    async def body(c: Client) -> tuple[list[str], str, str]:
        listed = await c.list_resources()
        uris = [str(r.uri) for r in listed.resources]
        guide = await c.read_resource("advisor://guides/zh/04-billing-modes")
        pack = await c.read_resource("advisor://rules/contract")
        return uris, guide.contents[0].text, pack.contents[0].text

    async def main() -> tuple[list[str], str, str]:
        async with Client(_stdio(), read_timeout_seconds=60) as client:
            return await body(client)

    uris, guide, pack = anyio.run(main)
    assert any(u.startswith("advisor://guides/en/") for u in uris)
    assert any(u.startswith("advisor://guides/zh/") for u in uris)
    assert "advisor://rules/contract" in uris and "advisor://rules/sizing" in uris
    assert "计费" in guide
    doc = json.loads(pack)
    assert doc["pack"] == "contract" and any(r["category"] == "auto_renewal" for r in doc["rules"])


def test_a_busy_port_is_one_line_and_exit_2() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = subprocess.run([sys.executable, "-c", LAUNCH, "mcp", "--http", str(port)],
                             capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and str(port) in run.stderr and "Traceback" not in run.stderr
