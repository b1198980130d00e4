"""Claude Code settings for readreceipt's hooks: the JSON, and merging it in and out of a file.

``readreceipt hook print|install|uninstall`` are thin adapters over this module.

Entries (``hooks`` in a settings file): ``readreceipt-hook capture`` on PostToolUse and
PostToolUseFailure for WebFetch, ``readreceipt-hook report`` on PostToolUse for every tool,
``readreceipt-hook stop`` on Stop and SubagentStop. With ``guard``, WebFetch is denied
instead (``readreceipt-hook guard`` on PreToolUse for WebFetch) and that is the only entry:
a denied WebFetch is never captured, so capture, report and stop would never fire.

The command: ``readreceipt-hook`` when PATH finds this very script, else its absolute path,
or what the user gives (:func:`check_command`). A command naming a path on this machine is
:func:`machine_specific`: the CLI warns before writing one into a settings file meant to be
committed.

Invariants: an entry is ours exactly when its command runs a program named
``readreceipt-hook`` or the module ``readreceipt.agents.hook``; install and uninstall change
only such entries and keep every other setting, key order included; install is idempotent (a
second run changes nothing and writes nothing); a file whose content changes is first copied
to ``<name>.readreceipt-backup`` and then replaced atomically, by
:mod:`readreceipt.store.outputs`' rules (a symbolic link is followed: the file it points to is
replaced and the link stays); a settings file that is not a JSON object is refused, not
repaired.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readreceipt.errors import UsageError
from readreceipt.store.outputs import write_file

SCRIPT = "readreceipt-hook"
SCOPES = ("project", "local", "user")
BACKUP_SUFFIX = ".readreceipt-backup"

MODULE = "readreceipt.agents.hook"

#: Seconds Claude Code gives each hook. capture returns at once and report reads one table,
#: so this bounds only a pathological machine; the session is never held longer.
HOOK_TIMEOUT = 15
#: The stop hook waits for pending captures, at most READRECEIPT_STOP_WAIT (<= 30) seconds.
STOP_TIMEOUT = 40


@dataclass(frozen=True)
class Entry:
    """One of readreceipt's hooks as a settings file holds it."""

    event: str
    matcher: str | None
    command: str

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "matcher": self.matcher, "command": self.command}


@dataclass(frozen=True)
class Change:
    path: Path
    changed: bool
    backup: Path | None
    entries: tuple[Entry, ...]  # readreceipt's entries in the file afterwards

    def to_json(self) -> dict[str, Any]:
        return {"path": str(self.path), "changed": self.changed,
                "backup": str(self.backup) if self.backup else None,
                "entries": len(self.entries),
                "hooks": [entry.to_json() for entry in self.entries]}


def script_command() -> str:
    """How settings should name the hook script: bare when PATH finds this very script."""
    beside = Path(sys.executable).parent / SCRIPT
    found = shutil.which(SCRIPT)
    if found and (not beside.exists() or Path(found).resolve() == beside.resolve()):
        return SCRIPT
    return shlex.quote(str(beside)) if beside.exists() else SCRIPT


def check_command(command: str) -> str:
    """``command`` stripped, when it runs readreceipt's hook (so that install and uninstall
    can recognise the entries it makes); UsageError otherwise."""
    command = command.strip()
    if not command or not is_ours({"command": f"{command} report"}):
        raise UsageError(
            f"--command {command!r} does not run {SCRIPT}: give a path to {SCRIPT} or a "
            f"command that runs `python -m {MODULE}`, so that install and uninstall can "
            "recognise the entries", reason="bad_command")
    return command


def machine_specific(command: str) -> bool:
    """Does ``command`` name a file by its path (one that exists only on this machine)?"""
    try:
        words = shlex.split(command)
    except ValueError:
        return True
    return any(os.path.isabs(os.path.expanduser(word)) or word.startswith(("./", "../", "~"))
               for word in words)


def _entry(command: str, mode: str, timeout: int = HOOK_TIMEOUT) -> dict[str, Any]:
    return {"type": "command", "command": f"{command} {mode}", "timeout": timeout}


def settings(*, guard: bool = False, command: str | None = None) -> dict[str, Any]:
    """The settings JSON that registers readreceipt's hooks."""
    cmd = check_command(command) if command is not None else script_command()
    if guard:
        return {"hooks": {"PreToolUse": [{"matcher": "WebFetch",
                                          "hooks": [_entry(cmd, "guard")]}]}}
    return {"hooks": {
        "PostToolUse": [
            {"matcher": "WebFetch", "hooks": [_entry(cmd, "capture")]},
            {"matcher": "*", "hooks": [_entry(cmd, "report")]},
        ],
        "PostToolUseFailure": [{"matcher": "WebFetch", "hooks": [_entry(cmd, "capture")]}],
        "Stop": [{"hooks": [_entry(cmd, "stop", STOP_TIMEOUT)]}],
        "SubagentStop": [{"hooks": [_entry(cmd, "stop", STOP_TIMEOUT)]}],
    }}


def settings_path(scope: str, *, project_dir: Path | None = None,
                  home: Path | None = None) -> Path:
    if scope == "user":
        return (home or Path.home()) / ".claude" / "settings.json"
    base = (project_dir or Path.cwd()) / ".claude"
    if scope == "local":
        return base / "settings.local.json"
    if scope == "project":
        return base / "settings.json"
    raise UsageError(f"unknown scope {scope!r}; use one of {', '.join(SCOPES)}",
                     reason="bad_scope")


def is_ours(hook: Any) -> bool:
    """Does this hook entry run readreceipt-hook?"""
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    try:
        words = shlex.split(hook["command"])
    except ValueError:
        return False
    if not words:
        return False
    if os.path.basename(words[0]) == SCRIPT:
        return True
    # python [options] -m readreceipt.agents.hook MODE
    return any(a == "-m" and b == MODULE for a, b in itertools.pairwise(words))


def _check_shape(data: Any, path: Path) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise UsageError(f"{path} is not a JSON object; it was left as it is",
                         reason="bad_settings")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise UsageError(f"{path}: \"hooks\" is not an object; it was left as it is",
                         reason="bad_settings")
    for event, groups in (hooks or {}).items():
        if not isinstance(groups, list):
            raise UsageError(f"{path}: hooks.{event} is not a list; it was left as it is",
                             reason="bad_settings")
    return data


def without_ours(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with every readreceipt entry removed, and the groups and events it emptied."""
    out = copy.deepcopy(data)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        groups = hooks[event]
        kept_groups = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(is_ours(h) for h in inner):
                kept_groups.append(group)
                continue
            remaining = [h for h in inner if not is_ours(h)]
            if remaining:
                kept_groups.append({**group, "hooks": remaining})
        if kept_groups or not groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    if not hooks and data.get("hooks"):
        del out["hooks"]
    return out


def with_ours(data: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    """``data`` with readreceipt's entries (only) replaced by ``ours``."""
    out = without_ours(data)
    hooks = out.setdefault("hooks", {})
    for event, groups in ours["hooks"].items():
        hooks.setdefault(event, []).extend(copy.deepcopy(groups))
    return out


def ours_in(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """readreceipt's entries in ``data`` as sorted (event, matcher, hook) triples."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    return sorted((event, str(group.get("matcher")), json.dumps(hook, sort_keys=True))
                  for event, groups in hooks.items() if isinstance(groups, list)
                  for group in groups if isinstance(group, dict)
                  and isinstance(group.get("hooks"), list)
                  for hook in group["hooks"] if is_ours(hook))


def entries(data: dict[str, Any]) -> tuple[Entry, ...]:
    """readreceipt's entries in ``data``, in the file's order."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return ()
    return tuple(Entry(event, group.get("matcher"), hook["command"])
                 for event, groups in hooks.items() if isinstance(groups, list)
                 for group in groups if isinstance(group, dict)
                 and isinstance(group.get("hooks"), list)
                 for hook in group["hooks"] if is_ours(hook))


def _read(path: Path) -> tuple[dict[str, Any], str | None]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}", reason="bad_settings") from exc
    if not text.strip():
        return {}, text
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}); it was "
                         "left as it is", reason="bad_settings") from exc
    return _check_shape(data, path), text


def _write(path: Path, data: dict[str, Any], before: str | None) -> Change:
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    backup = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make {path.parent}: {exc.strerror or exc}",
                         reason="write_failed") from exc
    if before is not None:
        backup = path.with_name(path.name + BACKUP_SUFFIX)
        write_file(backup, before.encode("utf-8"))
    write_file(path, text.encode("utf-8"))
    return Change(path, True, backup, entries(data))


def install(path: Path, *, guard: bool = False, command: str | None = None) -> Change:
    """Merge readreceipt's hooks into the settings file at ``path`` (made if missing)."""
    data, before = _read(path)
    ours = settings(guard=guard, command=command)
    if before is not None and ours_in(data) == ours_in(ours):
        return Change(path, False, None, entries(data))  # already as asked: touch nothing
    return _write(path, with_ours(data, ours), before)


def uninstall(path: Path) -> Change:
    """Remove readreceipt's hooks (only) from the settings file at ``path``."""
    data, before = _read(path)
    if before is None or not ours_in(data):
        return Change(path, False, None, ())
    return _write(path, without_ours(data), before)
