"""``readreceipt hook print|install|uninstall --agent NAME`` through the real console script:
each agent's file, in its documented shape, merged, idempotent, backed up."""

from __future__ import annotations

import json
import os
import shlex
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import BIN, CliResult, clean_env
from readreceipt.agents import hooksettings

#: agent -> (project file, user file under HOME, a setting of the user's own to keep)
FILES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "gemini": (".gemini/settings.json", ".gemini/settings.json", {
        "theme": "GitHub", "hooks": {"AfterTool": [{"matcher": "write_file", "hooks": [
            {"name": "fmt", "type": "command", "command": "prettier --write",
             "timeout": 5000}]}]}}),
    "codex": (".codex/hooks.json", ".codex/hooks.json", {
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}),
    "cursor": (".cursor/hooks.json", ".cursor/hooks.json", {
        "version": 1, "hooks": {"afterFileEdit": [{"command": "./fmt.sh"}],
                                "stop": [{"command": "./audit.sh", "loop_limit": 2}]}}),
    "copilot": (".github/hooks/readreceipt.json", ".copilot/hooks/readreceipt.json", {
        "version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}}),
}
#: The events each agent's entries go on, and the mode each runs.
EVENTS = {
    "gemini": {"AfterTool": "after", "AfterAgent": "stop"},
    "codex": {"PostToolUse": "after", "Stop": "stop"},
    "cursor": {"postToolUse": "after", "afterAgentResponse": "answer", "stop": "stop"},
    "copilot": {"postToolUse": "after", "agentStop": "stop"},
}
KEY = {"gemini": "command", "codex": "command", "cursor": "command", "copilot": "bash"}


def hook_cli(*args: str, cwd: Path, home: Path, env: dict[str, str] | None = None) -> CliResult:
    full = clean_env()
    full.update({"HOME": str(home), **(env or {})})
    proc = subprocess.run([str(BIN / "readreceipt"), "hook", *args], cwd=cwd, env=full,
                          capture_output=True, timeout=60, check=False)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project").mkdir()
    return tmp_path / "project"


def ours(agent: str, data: dict[str, Any]) -> dict[str, list[str]]:
    """event -> the modes of readreceipt's entries, in the file's shape."""
    out: dict[str, list[str]] = {}
    for event, groups in data.get("hooks", {}).items():
        for group in groups:
            inner = group.get("hooks", [group])
            for entry in inner:
                if hooksettings.is_ours(entry, KEY[agent]):
                    words = shlex.split(entry[KEY[agent]])
                    assert words[-2:] == ["--agent", agent], words
                    out.setdefault(event, []).append(words[-3])
    return out


@pytest.mark.parametrize("agent", list(FILES))
def test_print_is_the_agent_s_own_shape(agent: str, project: Path, home: Path) -> None:
    out = hook_cli("print", "--agent", agent, cwd=project, home=home)
    assert out.code == 0
    data = json.loads(out.stdout)  # only the configuration on stdout; where it goes on stderr
    [line] = out.stderr.splitlines()
    assert FILES[agent][0] in line and str(home / FILES[agent][1]) in line
    assert {event: modes[0] for event, modes in ours(agent, data).items()} == EVENTS[agent]
    if agent in ("cursor", "copilot"):
        assert data["version"] == 1
        for entries in data["hooks"].values():  # flat entries, no groups
            assert all("hooks" not in entry for entry in entries)
    if agent == "gemini":  # milliseconds, and a name per hook
        hooks = [h for g in data["hooks"]["AfterTool"] for h in g["hooks"]]
        assert hooks[0]["timeout"] == 15000 and hooks[0]["name"] == "readreceipt-after"
        assert data["hooks"]["AfterTool"][0]["matcher"] == "*"
    if agent == "copilot":
        assert {e["timeoutSec"] for es in data["hooks"].values() for e in es} == {15, 40}


@pytest.mark.parametrize("agent", list(FILES))
def test_install_merges_is_idempotent_backs_up_and_uninstalls(agent: str, project: Path,
                                                              home: Path) -> None:
    relative, _, existing = FILES[agent]
    path = project / relative
    path.parent.mkdir(parents=True)
    original = json.dumps(existing, indent=4)
    path.write_text(original, encoding="utf-8")
    out = hook_cli("install", "--agent", agent, cwd=project, home=home)
    assert out.code == 0, out.stderr
    assert str(path) in out.stdout
    data = json.loads(path.read_text("utf-8"))
    assert {event: modes[0] for event, modes in ours(agent, data).items()} == EVENTS[agent]
    for event, groups in existing["hooks"].items():  # the user's own entries stay
        for group in groups:
            assert group in data["hooks"][event]
    for key, value in existing.items():
        if key != "hooks":
            assert data[key] == value
    assert path.with_name(path.name + ".readreceipt-backup").read_text("utf-8") == original
    again = hook_cli("install", "--agent", agent, cwd=project, home=home)
    assert again.code == 0 and "nothing changed" in again.stdout
    assert json.loads(path.read_text("utf-8")) == data
    removed = hook_cli("uninstall", "--agent", agent, cwd=project, home=home)
    assert removed.code == 0 and "removed" in removed.stdout
    assert json.loads(path.read_text("utf-8")) == existing


@pytest.mark.parametrize("agent", list(FILES))
def test_user_scope_writes_the_user_s_file(agent: str, project: Path, home: Path) -> None:
    out = hook_cli("install", "--agent", agent, "--user", "--json", cwd=project, home=home)
    assert out.code == 0, out.stderr
    assert out.json()["path"] == str(home / FILES[agent][1])
    assert out.json()["agent"] == agent
    assert not (project / FILES[agent][0]).exists()


def test_codex_and_copilot_homes_move_the_user_s_file(project: Path, home: Path,
                                                      tmp_path: Path) -> None:
    for agent, variable, name in (("codex", "CODEX_HOME", "hooks.json"),
                                  ("copilot", "COPILOT_HOME", "hooks/readreceipt.json")):
        where = tmp_path / variable.lower()
        out = hook_cli("install", "--agent", agent, "--user", "--json", cwd=project, home=home,
                       env={variable: str(where)})
        assert out.code == 0 and out.json()["path"] == str(where / name)


def test_local_scope_and_the_guard_are_claude_code_s(project: Path, home: Path) -> None:
    local = hook_cli("install", "--agent", "gemini", "--local", cwd=project, home=home)
    assert local.code == 1 and len(local.stderr.strip().splitlines()) == 1
    assert "--project, --user" in local.stderr
    guard = hook_cli("print", "--agent", "codex", "--guard", cwd=project, home=home)
    assert guard.code == 1 and "--guard is for Claude Code" in guard.stderr
    assert not (project / ".gemini").exists()


def test_an_agent_file_it_cannot_understand_is_left_alone(project: Path, home: Path) -> None:
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_text('{"version": 1, "hooks": []}', encoding="utf-8")
    out = hook_cli("install", "--agent", "cursor", cwd=project, home=home)
    assert out.code == 1 and out.stderr.count("\n") == 1
    assert path.read_text("utf-8") == '{"version": 1, "hooks": []}'


# --- Cline: one executable file per hook --------------------------------------------------


def test_cline_hooks_are_executable_scripts_that_run_the_hook(project: Path,
                                                              home: Path) -> None:
    printed = hook_cli("print", "--agent", "cline", cwd=project, home=home)
    assert printed.code == 0 and "# hooks/PostToolUse" in printed.stdout
    out = hook_cli("install", "--agent", "cline", cwd=project, home=home)
    assert out.code == 0, out.stderr
    folder = project / ".clinerules" / "hooks"
    for name, mode in (("PostToolUse", "after"), ("TaskComplete", "stop")):
        path = folder / name
        assert os.stat(path).st_mode & stat.S_IXUSR
        text = path.read_text("utf-8")
        assert text.startswith("#!/bin/sh\n")
        assert text.splitlines()[-1].endswith(f" {mode} --agent cline")
        # the script runs: a documented payload in, Cline's JSON out
        ran = subprocess.run([str(path)], input=b"{}", capture_output=True, timeout=60,
                             env=clean_env(PATH=f"{BIN}:{os.environ.get('PATH', '')}"),
                             check=False)
        assert ran.returncode == 0 and json.loads(ran.stdout) == {"cancel": False}
    again = hook_cli("install", "--agent", "cline", cwd=project, home=home)
    assert "nothing changed" in again.stdout
    user = hook_cli("install", "--agent", "cline", "--user", "--json", cwd=project, home=home)
    assert user.json()["path"] == str(home / "Documents" / "Cline" / "Hooks")
    assert hook_cli("uninstall", "--agent", "cline", cwd=project, home=home).code == 0
    assert sorted(os.listdir(folder)) == []


def test_cline_a_hook_of_someone_else_s_is_not_replaced(project: Path, home: Path) -> None:
    folder = project / ".clinerules" / "hooks"
    folder.mkdir(parents=True)
    theirs = "#!/bin/sh\necho '{\"cancel\":false}'\n"
    (folder / "TaskComplete").write_text(theirs, encoding="utf-8")
    out = hook_cli("install", "--agent", "cline", cwd=project, home=home)
    assert out.code == 1 and out.stderr.count("\n") == 1 and "someone else" in out.stderr
    assert (folder / "TaskComplete").read_text("utf-8") == theirs
    assert not (folder / "PostToolUse").exists()  # nothing half-installed
    assert hook_cli("uninstall", "--agent", "cline", cwd=project, home=home).code == 0
    assert (folder / "TaskComplete").read_text("utf-8") == theirs
