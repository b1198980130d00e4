"""The agents' ways in on a team library: the Claude Code hook, the MCP server and the API.

The hook's report runs on every tool call, so on a team library it must not reach for the
database when there is nothing to tell: a session is marked when it gets flags
(:mod:`readreceipt.store.sessionmarks`), and only a marked session is asked about over the
network.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import BIN, LocalServer, article_html, clean_env
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library
from teamstore import Team
from test_hook import MISQUOTE, other_tool, webfetch

#: Sessions of their own: the marks of test_hook's session are none of these tests' business.
SESSION = "7a1c0e52-team-4b8e-9f2d-000000000001"
ENV_SESSION = "7a1c0e52-team-4b8e-9f2d-000000000002"


def _hook(mode: str, payload: dict[str, Any],
          env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(BIN / "readreceipt-hook"), mode],
                          input=json.dumps(payload).encode(), capture_output=True, timeout=120,
                          env=clean_env(READRECEIPT_HOOK_FOREGROUND="1", **env), check=False)


def _modules_after_report(payload: dict[str, Any], env: dict[str, str]) -> list[str]:
    code = ("import sys\nfrom readreceipt.agents.hook import main\nmain(['report'])\n"
            "print(' '.join(sorted(m.split('.')[0] for m in sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", code], input=json.dumps(payload).encode(),
                          capture_output=True, env=clean_env(**env), timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.decode().split()


@pytest.fixture
def project(team: Team, tmp_path: Path) -> Path:
    """A project folder that `readreceipt init` pointed at the team store."""
    folder = tmp_path / "project"
    folder.mkdir()
    index_url = team.postgres.url(team.schema, password="").replace("postgres:@", "postgres@")
    made = subprocess.run([str(BIN / "readreceipt"), "init", "--index-url", index_url,
                           "--blobs-url", team.blobs_url], cwd=folder, capture_output=True,
                          env=clean_env(**_aws(team)), timeout=120, check=False)
    assert made.returncode == 0, made.stderr
    return folder


def _aws(team: Team) -> dict[str, str]:
    return {k: v for k, v in team.env.items() if not k.startswith("READRECEIPT_")}


def test_the_hook_captures_into_the_team_and_reports_once(team: Team, project: Path,
                                                         server: LocalServer) -> None:
    article = server.route("/article", article_html())
    env = {**_aws(team), "READRECEIPT_ALLOW_HOSTS": server.pair}
    # nothing to tell yet: the quick look stays on the disk (no database driver imported)
    quiet = other_tool(cwd=str(project), session=SESSION)
    assert "psycopg" not in _modules_after_report(quiet, env)
    done = _hook("capture", webfetch(article, MISQUOTE, cwd=str(project), session=SESSION), env)
    assert done.returncode == 0 and done.stdout == b""
    assert team.sql("SELECT url, session_id FROM retrievals") == [(article, SESSION)]
    assert team.sql("SELECT count(*) FROM flags WHERE reported_at IS NULL") == [(1,)]
    told = _hook("report", quiet, env)
    context = json.loads(told.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "We did not make the bridge stronger" in context
    assert team.sql("SELECT reported_to FROM flags") == [("main",)]
    assert _hook("report", quiet, env).stdout == b""  # told once
    # nothing left to tell: the session's mark is gone, and the database is not asked
    assert "psycopg" not in _modules_after_report(quiet, env)


def test_the_hook_with_the_team_named_by_the_environment_only(team: Team, tmp_path: Path,
                                                              server: LocalServer) -> None:
    article = server.route("/env-only", article_html())
    env = {**team.env, "READRECEIPT_ALLOW_HOSTS": server.pair}
    done = _hook("capture", webfetch(article, MISQUOTE, cwd=str(tmp_path),
                                     session=ENV_SESSION), env)
    assert done.returncode == 0
    assert team.sql("SELECT count(*) FROM retrievals") == [(1,)]
    assert not (tmp_path / ".readreceipt").exists()  # no local folder was made
    told = _hook("report", other_tool(cwd=str(tmp_path), session=ENV_SESSION), env)
    assert "We did not make the bridge stronger" in told.stdout.decode()


def test_the_api_and_the_mcp_server_on_a_team_library(team: Team, tmp_path: Path,
                                                      server: LocalServer,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", server.pair)
    page = server.route("/api", article_html())
    with Library.locate(tmp_path / "lib") as lib:
        assert lib.team is not None  # named by the environment
        result = capture(page, CaptureOptions(now=True), lib)
    assert result.record_location.startswith(team.blobs_url + "/records/")
    mcp = pytest.importorskip("mcp")
    from test_mcp import run_session, structured

    seen: dict[str, Any] = {}

    async def body(session: Any) -> None:
        seen["capture"] = structured(await session.call_tool("capture", {
            "url": server.route("/mcp", article_html()), "answer": MISQUOTE}))
        seen["find"] = structured(await session.call_tool("find_records", {}))

    assert mcp is not None
    run_session(tmp_path / "mcp-lib", server, tmp_path, body, extra_env=team.env)
    assert seen["capture"]["answer_check"]["outcome"] == "not_found"
    assert {r["url"] for r in seen["find"]["records"]} == {page, server.url("/mcp")}
    assert seen["find"]["library"] == f"{_redacted(team)} + {team.blobs_url}"
    assert team.sql("SELECT count(*) FROM retrievals") == [(2,)]


def _redacted(team: Team) -> str:
    return team.index_url.replace(team.index_url.split(":")[2].split("@")[0], "***", 1)
