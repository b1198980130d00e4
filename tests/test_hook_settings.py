"""``readreceipt hook print|install|uninstall`` through the real console script."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import BIN, CliResult, clean_env
from readreceipt.agents import hooksettings

EXISTING: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
    "hooks": {
        "PostToolUse": [{"matcher": "Edit", "hooks": [
            {"type": "command", "command": "prettier --write", "timeout": 5}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
    "env": {"FOO": "1"},
}


def hook_cli(*args: str, cwd: Path, home: Path) -> CliResult:
    """The real console script, run in ``cwd`` (the project) with ``home`` as HOME."""
    env = clean_env()
    env["HOME"] = str(home)
    proc = subprocess.run([str(BIN / "readreceipt"), "hook", *args], cwd=cwd, env=env,
                          capture_output=True, timeout=60, check=False)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


def commands(settings: dict[str, Any]) -> dict[str, list[tuple[str | None, str]]]:
    """event -> [(matcher, command)] for every hook in ``settings``."""
    out: dict[str, list[tuple[str | None, str]]] = {}
    for event, groups in settings.get("hooks", {}).items():
        for group in groups:
            for hook in group["hooks"]:
                out.setdefault(event, []).append((group.get("matcher"), hook["command"]))
    return out


def test_print_is_only_the_settings_json(project: Path, home: Path) -> None:
    out = hook_cli("print", cwd=project, home=home)
    assert out.code == 0
    data = json.loads(out.stdout)  # nothing but JSON on stdout
    found = commands(data)
    modes = {event: [(m, c.rsplit(" ", 1)[1]) for m, c in pairs]
             for event, pairs in found.items()}
    assert modes == {"PostToolUse": [("WebFetch", "capture"), ("*", "report")],
                     "PostToolUseFailure": [("WebFetch", "capture")],
                     "Stop": [(None, "stop")], "SubagentStop": [(None, "stop")]}
    assert all(hooksettings.is_ours({"command": c}) for pairs in found.values()
               for _, c in pairs)
    guarded = json.loads(hook_cli("print", "--guard", cwd=project, home=home).stdout)
    # A denied WebFetch is never captured: the guard is the only entry.
    assert list(commands(guarded)) == ["PreToolUse"]
    assert [m for m, _ in commands(guarded)["PreToolUse"]] == ["WebFetch"]
    assert commands(guarded)["PreToolUse"][0][1].endswith(" guard")


def test_install_merges_without_losing_anything_and_keeps_a_backup(project: Path,
                                                                   home: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    original = json.dumps(EXISTING, indent=4)
    path.write_text(original, encoding="utf-8")
    out = hook_cli("install", cwd=project, home=home)
    assert out.code == 0, out.stderr
    assert str(path) in out.stdout
    data = json.loads(path.read_text("utf-8"))
    for key in ("model", "permissions", "env"):
        assert data[key] == EXISTING[key]
    found = commands(data)
    assert ("Edit", "prettier --write") in found["PostToolUse"]
    assert found["Stop"][0] == (None, "notify-send done") and len(found["Stop"]) == 2
    assert len(found["PostToolUse"]) == 3 and "PreToolUse" not in found
    # The output says what was written, entry by entry.
    for event, pairs in found.items():
        for matcher, command in pairs:
            if hooksettings.is_ours({"command": command}):
                where = f"{event} ({matcher})" if matcher else event
                assert f"  {where}: {command}" in out.stdout.splitlines()
    backup = path.with_name("settings.json.readreceipt-backup")
    assert backup.read_text("utf-8") == original


def test_install_is_idempotent(project: Path, home: Path) -> None:
    assert hook_cli("install", cwd=project, home=home).code == 0
    path = project / ".claude" / "settings.json"
    first = path.read_text("utf-8")
    again = hook_cli("install", cwd=project, home=home)
    assert again.code == 0 and "nothing changed" in again.stdout
    assert path.read_text("utf-8") == first
    assert not path.with_name("settings.json.readreceipt-backup").exists()  # no change, no copy


def test_install_with_guard_then_without_removes_the_guard(project: Path, home: Path) -> None:
    assert hook_cli("install", "--guard", cwd=project, home=home).code == 0
    assert hook_cli("install", cwd=project, home=home).code == 0
    data = json.loads((project / ".claude" / "settings.json").read_text("utf-8"))
    assert "PreToolUse" not in data["hooks"]


def test_uninstall_removes_only_its_own_entries(project: Path, home: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    mixed = json.loads(json.dumps(EXISTING))
    # one of ours shares a group with someone else's hook
    mixed["hooks"]["PostToolUse"][0]["hooks"].append(
        {"type": "command", "command": "/opt/venv/bin/readreceipt-hook report"})
    path.write_text(json.dumps(mixed), encoding="utf-8")
    assert hook_cli("install", "--guard", cwd=project, home=home).code == 0
    out = hook_cli("uninstall", cwd=project, home=home)
    assert out.code == 0 and "removed" in out.stdout
    assert json.loads(path.read_text("utf-8")) == EXISTING
    again = hook_cli("uninstall", cwd=project, home=home)
    assert again.code == 0 and "nothing changed" in again.stdout


@pytest.mark.parametrize(("flag", "relative"), [
    ("--project", ".claude/settings.json"),
    ("--local", ".claude/settings.local.json"),
    ("--user", "HOME/.claude/settings.json"),
])
def test_scopes_write_their_own_file(flag: str, relative: str, project: Path,
                                     home: Path) -> None:
    out = hook_cli("install", flag, "--json", cwd=project, home=home)
    assert out.code == 0, out.stderr
    data = out.json()
    expected = (home / relative.removeprefix("HOME/") if relative.startswith("HOME/")
                else project / relative)
    assert data["path"] == str(expected) and data["changed"] is True and data["entries"] == 5
    assert {h["event"] for h in data["hooks"]} == {"PostToolUse", "PostToolUseFailure", "Stop",
                                                    "SubagentStop"}
    assert expected.is_file()
    others = {project / ".claude/settings.json", project / ".claude/settings.local.json",
              home / ".claude/settings.json"} - {expected}
    assert not any(p.exists() for p in others)


@pytest.mark.parametrize("command", ["install", "uninstall"])
@pytest.mark.parametrize("flags", [("--local", "--user"), ("--user", "--project"),
                                   ("--project", "--local", "--user")])
def test_two_scopes_are_refused_and_no_file_is_touched(command: str, flags: tuple[str, ...],
                                                       project: Path, home: Path) -> None:
    """Two scopes name two files: the last one given used to win, so a stray --user changed
    the settings of every project of the user's."""
    out = hook_cli(command, *flags, cwd=project, home=home)
    assert out.code == 1
    assert "give one of --project, --local and --user" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (project / ".claude").exists() and not (home / ".claude").exists()


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"hooks": []}',
                                     '{"hooks": {"PostToolUse": {}}}'])
def test_a_settings_file_it_cannot_understand_is_left_alone(content: str, project: Path,
                                                            home: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(content, encoding="utf-8")
    out = hook_cli("install", cwd=project, home=home)
    assert out.code == 1 and out.stderr.count("\n") == 1
    assert path.read_text("utf-8") == content
    assert hook_cli("uninstall", cwd=project, home=home).code == 1
    assert path.read_text("utf-8") == content


def test_an_empty_settings_file_is_filled(project: Path, home: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("", encoding="utf-8")
    assert hook_cli("install", cwd=project, home=home).code == 0
    assert len(commands(json.loads(path.read_text("utf-8")))["PostToolUse"]) == 2


def test_is_ours_recognises_the_script_by_name() -> None:
    assert hooksettings.is_ours({"command": "readreceipt-hook capture"})
    assert hooksettings.is_ours({"command": "'/a b/bin/readreceipt-hook' report"})
    assert not hooksettings.is_ours({"command": "echo readreceipt-hook"})
    assert not hooksettings.is_ours({"command": "readreceipt-hooks capture"})
    assert not hooksettings.is_ours({"command": 5})
    assert not hooksettings.is_ours("readreceipt-hook capture")


def test_guard_replaces_the_capture_entries_that_could_never_fire(project: Path,
                                                                   home: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(EXISTING), encoding="utf-8")
    assert hook_cli("install", cwd=project, home=home).code == 0
    assert hook_cli("install", "--guard", cwd=project, home=home).code == 0
    found = commands(json.loads(path.read_text("utf-8")))
    ours = {event: [c.rsplit(" ", 1)[1] for _, c in pairs
                    if hooksettings.is_ours({"command": c})] for event, pairs in found.items()}
    assert {event: modes for event, modes in ours.items() if modes} == {"PreToolUse": ["guard"]}
    assert found["Stop"] == [(None, "notify-send done")]  # the user's own stays


def _venv_not_on_path(home: Path) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": str(home)}


def hook_cli_env(*args: str, cwd: Path, env: dict[str, str]) -> CliResult:
    full = clean_env()
    full.update(env)
    proc = subprocess.run([str(BIN / "readreceipt"), "hook", *args], cwd=cwd, env=full,
                          capture_output=True, timeout=60, check=False)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_a_path_on_this_machine_in_a_committed_file_is_warned_about(project: Path,
                                                                    home: Path) -> None:
    env = _venv_not_on_path(home)
    out = hook_cli_env("install", cwd=project, env=env)
    assert out.code == 0
    written = json.loads((project / ".claude" / "settings.json").read_text("utf-8"))
    command = commands(written)["Stop"][0][1]
    assert command == f"{BIN / 'readreceipt-hook'} stop"  # not on PATH: its full path
    assert "warning" in out.stderr and "meant to be committed" in out.stderr
    assert "--command" in out.stderr and "settings.local.json" in out.stderr
    # Where it is not committed, no warning; with a portable --command, none either.
    local = hook_cli_env("install", "--local", cwd=project, env=env)
    assert local.code == 0 and local.stderr == ""
    portable = hook_cli_env("install", "--command", "readreceipt-hook", "--json", cwd=project,
                            env=env)
    assert portable.code == 0 and portable.stderr == ""
    assert portable.json()["warning"] is None
    assert {h["command"] for h in portable.json()["hooks"]} >= {"readreceipt-hook stop"}


def test_command_is_written_recognised_and_removed(project: Path, home: Path) -> None:
    command = "python3 -S -m readreceipt.agents.hook"
    out = hook_cli("install", "--local", "--command", command, cwd=project, home=home)
    assert out.code == 0, out.stderr
    path = project / ".claude" / "settings.local.json"
    found = commands(json.loads(path.read_text("utf-8")))
    assert found["PostToolUse"] == [("WebFetch", f"{command} capture"), ("*", f"{command} report")]
    again = hook_cli("install", "--local", "--command", command, cwd=project, home=home)
    assert "nothing changed" in again.stdout
    assert hook_cli("uninstall", "--local", cwd=project, home=home).code == 0
    assert json.loads(path.read_text("utf-8")) == {}


@pytest.mark.parametrize("command", ["", "echo hi", "my-wrapper --x"])
def test_a_command_that_does_not_run_the_hook_is_refused(command: str, project: Path,
                                                         home: Path) -> None:
    out = hook_cli("install", "--command", command, cwd=project, home=home)
    assert out.code == 1 and out.stderr.count("\n") == 1 and "--command" in out.stderr
    assert not (project / ".claude").exists()
