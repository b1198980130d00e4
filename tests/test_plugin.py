"""The repository as a Claude Code plugin and a one-plugin marketplace.

The files are checked against the fields Claude Code documents (code.claude.com/docs/en/
plugins-reference: "Plugin manifest schema", "Hooks", "MCP servers", "Environment variables";
/plugin-marketplaces: "Marketplace schema"), and every hook command in ``hooks/hooks.json`` is
run as Claude Code runs it (``sh -c``, ``${CLAUDE_PLUGIN_ROOT}`` set to the plugin's folder) on
payloads written from the hooks documentation (tests/fixtures/agents/claude-*.json); so is the
MCP server the manifest names, through the SDK's own client.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from agentpayloads import payload
from conftest import BIN, LocalServer, article_html, clean_env
from readreceipt._version import __version__

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / ".claude-plugin" / "plugin.json"
MARKETPLACE = ROOT / ".claude-plugin" / "marketplace.json"
HOOKS = ROOT / "hooks" / "hooks.json"

#: plugin.json's documented fields (plugins-reference, "Plugin manifest schema").
MANIFEST_FIELDS = {"name", "version", "description", "author", "homepage", "repository",
                   "license", "keywords", "commands", "agents", "skills", "hooks",
                   "mcpServers", "outputStyles", "lspServers"}
#: The hook events Claude Code documents (hooks reference).
EVENTS = {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
          "UserPromptSubmit", "Notification", "Stop", "SubagentStart", "SubagentStop",
          "PreCompact", "SessionStart", "SessionEnd"}
SESSION = "6e0d8f1c-plugin-4a2b-9c3d-000000000001"
MISQUOTE = ('The chief engineer said: "We did not make the bridge stronger, we made it far '
            'more rigid" at the reopening.')

pytestmark = pytest.mark.usefixtures("own_marks_folder")


def load(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def test_the_manifest_has_only_documented_fields() -> None:
    manifest = load(MANIFEST)
    assert set(manifest) <= MANIFEST_FIELDS, set(manifest) - MANIFEST_FIELDS
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", manifest["name"])  # kebab-case
    assert manifest["version"] == __version__  # the plugin is the package's own version
    assert manifest["description"] and manifest["license"] == "Apache-2.0"
    assert isinstance(manifest["author"], dict) and manifest["author"]["name"]
    # The standard hooks/hooks.json is loaded on its own: naming it in "hooks" fails the
    # plugin's load ("Duplicate hooks file detected"), so the manifest does not.
    assert manifest.get("hooks") in (None, []) or "./hooks/hooks.json" not in json.dumps(
        manifest["hooks"])
    [(name, server)] = manifest["mcpServers"].items()
    assert name == "readreceipt" and server["args"] == ["mcp"]
    assert server["command"].startswith("${CLAUDE_PLUGIN_ROOT}/")


def test_the_marketplace_lists_this_plugin() -> None:
    market, manifest = load(MARKETPLACE), load(MANIFEST)
    assert set(market) <= {"name", "owner", "metadata", "plugins"}
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", market["name"])
    assert market["owner"]["name"]
    [entry] = market["plugins"]
    assert entry["name"] == manifest["name"] and entry["source"] == "./"
    assert entry["version"] == manifest["version"]
    assert (ROOT / entry["source"] / ".claude-plugin" / "plugin.json").is_file()


def commands() -> list[tuple[str, str | None, str]]:
    """(event, matcher, command) for every hook of hooks/hooks.json."""
    data = load(HOOKS)
    assert set(data) <= {"description", "hooks"}
    out = []
    for event, groups in data["hooks"].items():
        assert event in EVENTS, event
        for group in groups:
            assert set(group) <= {"matcher", "hooks"}
            for hook in group["hooks"]:
                assert hook["type"] == "command" and isinstance(hook["timeout"], int)
                assert hook["command"].startswith('"${CLAUDE_PLUGIN_ROOT}/')
                out.append((event, group.get("matcher"), hook["command"]))
    return out


def test_the_hooks_are_the_ones_hook_install_writes() -> None:
    found = {(event, matcher, command.rsplit(" ", 1)[1]) for event, matcher, command in
             commands()}
    assert found == {("PostToolUse", "WebFetch", "capture"), ("PostToolUse", "*", "report"),
                     ("PostToolUseFailure", "WebFetch", "capture"), ("Stop", None, "stop"),
                     ("SubagentStop", None, "stop"), ("PreToolUse", "WebFetch", "guard")}
    runner = ROOT / "plugin" / "run"
    assert os.access(runner, os.X_OK) and runner.read_text("utf-8").startswith("#!/bin/sh\n")


def run(command: str, data: dict[str, Any], library: Path | None, *, path: str,
        allow: str | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    """One hook command as Claude Code runs it: through a shell, the payload on stdin."""
    full = clean_env(PATH=path, CLAUDE_PLUGIN_ROOT=str(ROOT), READRECEIPT_HOOK_FOREGROUND="1",
                     **env)
    if library is not None:
        full["READRECEIPT_LIBRARY"] = str(library)
    if allow is not None:
        full["READRECEIPT_ALLOW_HOSTS"] = allow
    return subprocess.run(["sh", "-c", command], input=json.dumps(data).encode(),
                          capture_output=True, env=full, timeout=90, check=False)


def by_mode(mode: str) -> str:
    return next(command for _, _, command in commands() if command.endswith(f" {mode}"))


def test_every_hook_command_runs_on_documented_payloads(server: LocalServer, library_dir: Path,
                                                        tmp_path: Path) -> None:
    url = server.route("/bridge", article_html())
    path = f"{BIN}:/usr/bin:/bin"
    values = {"URL": url, "CWD": str(tmp_path), "SESSION": SESSION, "PROMPT": "What was said?",
              "ANSWER": MISQUOTE}
    fetched = payload("claude-posttooluse-webfetch", **values)
    done = run(by_mode("capture"), fetched, library_dir, path=path, allow=server.pair)
    assert done.returncode == 0 and done.stdout == b"", done.stderr
    [record_file] = (library_dir / "records").glob("*.yaml")
    record = yaml.safe_load(record_file.read_text("utf-8"))
    assert record["url"] == url and record["answer_check"]["outcome"] == "not_found"
    failed = run(by_mode("capture"), payload("claude-posttoolusefailure-webfetch", **values),
                 library_dir, path=path, allow=server.pair)
    assert failed.returncode == 0
    subagent = run(by_mode("stop"), payload("claude-subagentstop", **values), library_dir,
                   path=path)
    assert subagent.returncode == 0 and subagent.stdout == b""  # not the subagent's flag
    told = run(by_mode("report"), payload("claude-posttooluse-bash", **values), library_dir,
               path=path)
    context = json.loads(told.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "far more rigid" in context
    stop = run(by_mode("stop"), payload("claude-stop", **values), library_dir, path=path)
    assert stop.returncode == 0 and stop.stdout == b""  # told already: the stop goes through
    guard = by_mode("guard")
    pre = payload("claude-pretooluse-webfetch", **values)
    assert run(guard, pre, library_dir, path=path).stdout == b""  # off by default
    denied = json.loads(run(guard, pre, library_dir, path=path, READRECEIPT_GUARD="1").stdout)
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_without_readreceipt_installed_one_line_says_how(tmp_path: Path) -> None:
    values = {"URL": "https://example.test/", "CWD": str(tmp_path), "SESSION": SESSION,
              "PROMPT": "p", "ANSWER": "a"}
    bare = "/usr/bin:/bin"  # no readreceipt on it (nor in HOME/.local/bin)
    env = {"HOME": str(tmp_path)}
    report = run(by_mode("report"), payload("claude-posttooluse-bash", **values), None,
                 path=bare, **env)
    assert report.returncode == 0 and report.stdout == b""
    [line] = report.stderr.decode().splitlines()
    assert "readreceipt is not installed" in line and "pipx install" in line
    stop = run(by_mode("stop"), payload("claude-stop", **values), None, path=bare, **env)
    assert stop.returncode == 1 and len(stop.stderr.decode().splitlines()) == 1
    server = load(MANIFEST)["mcpServers"]["readreceipt"]
    command = server["command"].replace("${CLAUDE_PLUGIN_ROOT}", str(ROOT))
    mcp = subprocess.run([command, *server["args"]], capture_output=True, timeout=60,
                         env=clean_env(PATH=bare, HOME=str(tmp_path)), check=False)
    assert mcp.returncode == 1 and b"readreceipt is not installed" in mcp.stderr


def test_the_manifest_s_mcp_server_starts_and_lists_its_tools(library_dir: Path,
                                                              tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = load(MANIFEST)["mcpServers"]["readreceipt"]
    params = StdioServerParameters(
        command=server["command"].replace("${CLAUDE_PLUGIN_ROOT}", str(ROOT)),
        args=server["args"], env={"PATH": f"{BIN}:/usr/bin:/bin", "TMPDIR": str(tmp_path),
                                  "READRECEIPT_LIBRARY": str(library_dir)})
    seen: list[str] = []

    async def main() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            seen.extend(tool.name for tool in (await session.list_tools()).tools)

    anyio.run(main)
    assert sorted(seen) == ["capture", "check_answer", "fetch_page", "find_records"]
