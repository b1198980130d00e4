"""``readreceipt mcp`` driven by the MCP SDK's own stdio client: list and call every tool."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from conftest import BIN, LocalServer, article_html

mcp = pytest.importorskip("mcp")

from mcp import ClientSession  # noqa: E402 - after the skip: mcp is an optional extra
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

MISQUOTE = ('The engineer said "We did not make the bridge stronger, we made it far more '
            'rigid" when it reopened.')
CHALLENGE = ("<!doctype html><html><head><title>Just a moment...</title></head><body>"
             "<div id='challenge-running'>Verifying you are human. This may take a few "
             "seconds.</div><script>window._cf_chl_opt={cType:'managed'};</script>"
             "</body></html>")

Session = Callable[[ClientSession], Awaitable[None]]


def run_session(library: Path, server: LocalServer, tmp: Path, body: Session) -> None:
    params = StdioServerParameters(
        command=str(BIN / "readreceipt"), args=["mcp"],
        env={"READRECEIPT_LIBRARY": str(library), "READRECEIPT_ALLOW_HOSTS": server.pair,
             "TMPDIR": str(tmp)})

    async def main() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await body(session)

    anyio.run(main)


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data = result.structured_content
    if data is None:
        data = json.loads(result.content[0].text)
    assert isinstance(data, dict)
    return data


def test_every_tool_is_listed_and_called(server: LocalServer, library_dir: Path,
                                         tmp_path: Path) -> None:
    url = server.route("/bridge", article_html())
    other = server.route("/other", article_html().replace("318 million", "320 million"))
    seen: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        seen["tools"] = tools
        seen["fetch"] = structured(await session.call_tool(
            "fetch_page", {"url": url, "preview": 4, "path": str(tmp_path / "bridge.md")}))
        seen["capture"] = structured(await session.call_tool(
            "capture", {"url": other, "answer": MISQUOTE, "prompt": "what was said?"}))
        seen["check"] = structured(await session.call_tool(
            "check_answer", {"url": url, "answer": MISQUOTE}))
        seen["find"] = structured(await session.call_tool("find_records", {}))
        seen["find_url"] = structured(await session.call_tool(
            "find_records", {"url": "/other", "verdict": "RETRIEVED"}))

    run_session(library_dir, server, tmp_path, body)
    assert set(seen["tools"]) == {"fetch_page", "capture", "check_answer", "find_records"}
    assert "url" in seen["tools"]["fetch_page"].input_schema["properties"]

    fetched = seen["fetch"]
    assert fetched["message"].startswith(f"ok: wrote {fetched['bytes']} bytes to ")
    assert fetched["path"] == str(tmp_path / "bridge.md")
    assert Path(fetched["path"]).read_text("utf-8").count("UNTRUSTED WEB CONTENT") == 2
    assert fetched["verdict"] == "RETRIEVED" and fetched["record_id"]
    assert fetched["preview"].splitlines()[1].startswith("title: How the harbour bridge")
    assert fetched["preview"].splitlines()[3].startswith("# How the harbour bridge")

    captured = seen["capture"]
    assert captured["verdict"] == "RETRIEVED"
    assert captured["answer_check"]["outcome"] == "not_found"

    checked = seen["check"]
    assert checked["record_id"] == fetched["record_id"]
    assert checked["answer_check"]["outcome"] == "not_found"

    ids = {row["record_id"] for row in seen["find"]["records"]}
    assert ids == {fetched["record_id"], captured["record_id"]}
    assert [row["url"] for row in seen["find_url"]["records"]] == [other]


def test_refused_and_failed_fetches_are_tool_errors(server: LocalServer, library_dir: Path,
                                                    tmp_path: Path) -> None:
    walled = server.route("/walled", CHALLENGE)
    seen: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        seen["refused"] = await session.call_tool("fetch_page", {"url": "http://10.0.0.1/"})
        seen["missing"] = await session.call_tool("fetch_page", {"url": server.url("/gone")})
        seen["bad_format"] = await session.call_tool(
            "fetch_page", {"url": server.url("/x"), "format": "pdf"})
        seen["unknown"] = await session.call_tool(
            "check_answer", {"url": server.url("/never"), "answer": MISQUOTE})
        seen["capture_refused"] = await session.call_tool(
            "capture", {"url": "http://169.254.169.254/latest/"})
        seen["walled"] = await session.call_tool("fetch_page", {"url": walled})

    run_session(library_dir, server, tmp_path, body)
    for name, reason in (("refused", "private_address"), ("missing", "http_404"),
                         ("bad_format", "bad_format"), ("unknown", "unknown_url"),
                         ("capture_refused", "")):
        result = seen[name]
        assert result.is_error, name
        assert reason in result.content[0].text, (name, result.content[0].text)
    # A wall is not a failure of the tool: the result says plainly that the page was not read.
    walled_result = structured(seen["walled"])
    assert walled_result["verdict"] == "UNKNOWN" and walled_result["reason"] == "wall:challenge"
    assert walled_result["message"].startswith("not read: wrote ")
