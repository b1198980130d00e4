"""Each agent's hook configuration: which file, which shape, which entries.

:mod:`readreceipt.agents.hooksettings` writes them (merged, idempotent, backed up); this
module says what they are, agent by agent, from each agent's documentation (the pages are
named in :mod:`readreceipt.agents.dialects`):

- claude: ``.claude/settings.json`` (``--local``: ``.claude/settings.local.json``) and
  ``~/.claude/settings.json``; ``hooks.EVENT[{matcher, hooks: [{type, command, timeout}]}]``,
  timeouts in seconds;
- gemini: ``.gemini/settings.json`` and ``~/.gemini/settings.json``; the same groups, each
  hook with a ``name``, timeouts in milliseconds;
- codex: ``.codex/hooks.json`` and ``$CODEX_HOME/hooks.json`` (``~/.codex``); the same
  groups, timeouts in seconds;
- cursor: ``.cursor/hooks.json`` and ``~/.cursor/hooks.json``; ``{version: 1, hooks:
  {event: [{command, timeout}]}}``, flat entries;
- copilot: ``.github/hooks/readreceipt.json`` and ``$COPILOT_HOME/hooks/readreceipt.json``
  (``~/.copilot``); ``{version: 1, hooks: {event: [{type, bash, timeoutSec}]}}``;
- cline: the folders ``.clinerules/hooks/`` and ``~/Documents/Cline/Hooks/``; one executable
  file per hook type, ``PostToolUse`` and ``TaskComplete``.

Every entry runs ``readreceipt-hook MODE`` (Claude Code, as before) or ``readreceipt-hook
MODE --agent NAME``. Timeouts: the quick modes get 15 s (they take milliseconds; this bounds
only a pathological machine), the stop 40 s (it waits for pending captures, at most
``READRECEIPT_STOP_WAIT`` <= 30 s).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readreceipt.errors import UsageError

#: Seconds an agent gives each quick mode, and the stop.
HOOK_TIMEOUT = 15
STOP_TIMEOUT = 40

#: The shapes: nested groups (Claude Code, Gemini CLI, Codex CLI), flat entries (Cursor,
#: Copilot CLI), one script a hook (Cline).
GROUPS, FLAT, SCRIPTS = "groups", "flat", "scripts"

#: The line a hook script of ours carries, so that install and uninstall know it.
SCRIPT_MARK = "# readreceipt: this hook is readreceipt's (readreceipt hook install)"


@dataclass(frozen=True)
class Layout:
    agent: str
    title: str
    shape: str
    scopes: tuple[str, ...]
    #: (scope, project folder, home) -> the file (or, for scripts, the folder)
    where: Callable[[str, Path, Path], Path]
    #: (command, guard) -> the configuration (scripts: file name -> content)
    build: Callable[[str, bool], dict[str, Any]]
    command_key: str = "command"  # the field of an entry that holds its command
    #: Keys the agent's own file starts with (Cursor's and Copilot CLI's version).
    preamble: tuple[tuple[str, Any], ...] = ()

    def path(self, scope: str, project_dir: Path | None = None,
             home: Path | None = None) -> Path:
        if scope not in self.scopes:
            raise UsageError(f"{self.title} has no {scope!r} hooks file; use one of "
                             f"{', '.join('--' + s for s in self.scopes)}", reason="bad_scope")
        return self.where(scope, project_dir or Path.cwd(), home or Path.home())


def _entry(command: str, mode: str, timeout: int = HOOK_TIMEOUT) -> dict[str, Any]:
    return {"type": "command", "command": f"{command} {mode}", "timeout": timeout}


def _claude(command: str, guard: bool) -> dict[str, Any]:
    if guard:
        return {"hooks": {"PreToolUse": [{"matcher": "WebFetch",
                                          "hooks": [_entry(command, "guard")]}]}}
    return {"hooks": {
        "PostToolUse": [
            {"matcher": "WebFetch", "hooks": [_entry(command, "capture")]},
            {"matcher": "*", "hooks": [_entry(command, "report")]},
        ],
        "PostToolUseFailure": [{"matcher": "WebFetch", "hooks": [_entry(command, "capture")]}],
        "Stop": [{"hooks": [_entry(command, "stop", STOP_TIMEOUT)]}],
        "SubagentStop": [{"hooks": [_entry(command, "stop", STOP_TIMEOUT)]}],
    }}


def _gemini(command: str, guard: bool) -> dict[str, Any]:
    def entry(mode: str, seconds: int) -> dict[str, Any]:
        return {"name": f"readreceipt-{mode}", "type": "command",
                "command": f"{command} {mode} --agent gemini", "timeout": seconds * 1000}
    return {"hooks": {
        "AfterTool": [{"matcher": "*", "hooks": [entry("after", HOOK_TIMEOUT)]}],
        "AfterAgent": [{"hooks": [entry("stop", STOP_TIMEOUT)]}],
    }}


def _codex(command: str, guard: bool) -> dict[str, Any]:
    return {"hooks": {
        "PostToolUse": [{"hooks": [_entry(command, "after --agent codex")]}],
        "Stop": [{"hooks": [_entry(command, "stop --agent codex", STOP_TIMEOUT)]}],
    }}


def _cursor(command: str, guard: bool) -> dict[str, Any]:
    def entry(mode: str, seconds: int = HOOK_TIMEOUT) -> dict[str, Any]:
        return {"command": f"{command} {mode} --agent cursor", "timeout": seconds}
    return {"version": 1, "hooks": {
        "postToolUse": [entry("after")],
        "afterAgentResponse": [entry("answer")],
        "stop": [entry("stop", STOP_TIMEOUT)],
    }}


def _copilot(command: str, guard: bool) -> dict[str, Any]:
    def entry(mode: str, seconds: int = HOOK_TIMEOUT) -> dict[str, Any]:
        return {"type": "command", "bash": f"{command} {mode} --agent copilot",
                "timeoutSec": seconds}
    return {"version": 1, "hooks": {
        "postToolUse": [entry("after")],
        "agentStop": [entry("stop", STOP_TIMEOUT)],
    }}


def _script(command: str, mode: str) -> str:
    return (f"#!/bin/sh\n{SCRIPT_MARK}\n"
            f"exec {command} {mode} --agent cline\n")


def _cline(command: str, guard: bool) -> dict[str, Any]:
    return {"PostToolUse": _script(command, "after"), "TaskComplete": _script(command, "stop")}


def _home_dir(variable: str, default: str, home: Path) -> Path:
    value = os.environ.get(variable)
    return Path(value).expanduser() if value else home / default


def _where(project: str, user: Callable[[Path], Path], local: str | None = None
           ) -> Callable[[str, Path, Path], Path]:
    def where(scope: str, project_dir: Path, home: Path) -> Path:
        if scope == "user":
            return user(home)
        if scope == "local" and local is not None:
            return project_dir / local
        return project_dir / project
    return where


LAYOUTS: dict[str, Layout] = {layout.agent: layout for layout in (
    Layout("claude", "Claude Code", GROUPS, ("project", "local", "user"),
           _where(".claude/settings.json", lambda h: h / ".claude" / "settings.json",
                  ".claude/settings.local.json"), _claude),
    Layout("gemini", "Gemini CLI", GROUPS, ("project", "user"),
           _where(".gemini/settings.json", lambda h: h / ".gemini" / "settings.json"),
           _gemini),
    Layout("codex", "Codex CLI", GROUPS, ("project", "user"),
           _where(".codex/hooks.json",
                  lambda h: _home_dir("CODEX_HOME", ".codex", h) / "hooks.json"), _codex),
    Layout("cursor", "Cursor", FLAT, ("project", "user"),
           _where(".cursor/hooks.json", lambda h: h / ".cursor" / "hooks.json"), _cursor,
           preamble=(("version", 1),)),
    Layout("cline", "Cline", SCRIPTS, ("project", "user"),
           _where(".clinerules/hooks", lambda h: h / "Documents" / "Cline" / "Hooks"), _cline),
    Layout("copilot", "GitHub Copilot CLI", FLAT, ("project", "user"),
           _where(".github/hooks/readreceipt.json",
                  lambda h: _home_dir("COPILOT_HOME", ".copilot", h) / "hooks" /
                  "readreceipt.json"), _copilot, command_key="bash",
           preamble=(("version", 1),)),
)}


def layout(agent: str) -> Layout:
    """The layout of ``agent``; UsageError naming the agents there are."""
    try:
        return LAYOUTS[agent]
    except KeyError:
        raise UsageError(f"no hooks for an agent named {agent!r}; use one of "
                         f"{', '.join(LAYOUTS)}", reason="bad_agent") from None
