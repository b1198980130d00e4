"""Agents' hook settings for readreceipt: the configuration, and merging it in and out of a file.

``readreceipt hook print|install|uninstall [--agent NAME]`` are thin adapters over this
module; what each agent's configuration is (file, shape, entries) is
:mod:`readreceipt.agents.hookconfigs`' table.

Claude Code's entries (``hooks`` in a settings file): ``readreceipt-hook capture`` on
PostToolUse and PostToolUseFailure for WebFetch, ``readreceipt-hook report`` on PostToolUse for
every tool, ``readreceipt-hook stop`` on Stop and SubagentStop. With ``guard``, WebFetch is
denied instead (``readreceipt-hook guard`` on PreToolUse for WebFetch) and that is the only
entry: a denied WebFetch is never captured, so capture, report and stop would never fire.

The command: ``readreceipt-hook`` when PATH finds this very script, else its absolute path,
or what the user gives (:func:`check_command`). A command naming a path on this machine is
:func:`machine_specific`: the CLI warns before writing one into a file meant to be committed.

Invariants: an entry is ours exactly when its command runs a program named
``readreceipt-hook`` or the module ``readreceipt.agents.hook`` (a hook script of ours, when it
carries :data:`~readreceipt.agents.hookconfigs.SCRIPT_MARK`); install and uninstall change
only such entries and keep every other setting, key order included; install is idempotent (a
second run changes nothing and writes nothing); a file whose content changes is first copied
to ``<name>.readreceipt-backup`` and then replaced atomically, by
:mod:`readreceipt.store.outputs`' rules (a symbolic link is followed: the file it points to is
replaced and the link stays); a settings file that is not a JSON object, or a hook script
that is not ours, is refused, not repaired.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import shlex
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readreceipt.agents.hookconfigs import (
    FLAT,
    HOOK_TIMEOUT,
    SCRIPT_MARK,
    SCRIPTS,
    STOP_TIMEOUT,
    Layout,
    layout,
)
from readreceipt.errors import UsageError
from readreceipt.store.outputs import write_file

SCRIPT = "readreceipt-hook"
SCOPES = ("project", "local", "user")
BACKUP_SUFFIX = ".readreceipt-backup"
MODULE = "readreceipt.agents.hook"

__all__ = ["BACKUP_SUFFIX", "HOOK_TIMEOUT", "MODULE", "SCOPES", "SCRIPT", "STOP_TIMEOUT",
           "Change", "Entry", "check_command", "entries", "install", "is_ours",
           "machine_specific", "ours_in", "script_command", "settings", "settings_path",
           "uninstall", "with_ours", "without_ours"]


@dataclass(frozen=True)
class Entry:
    """One of readreceipt's hooks as an agent's configuration holds it."""

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


def settings(*, guard: bool = False, command: str | None = None,
             agent: str = "claude") -> dict[str, Any]:
    """The configuration that registers readreceipt's hooks with ``agent`` (for Cline: each
    hook script's file name and content)."""
    cmd = check_command(command) if command is not None else script_command()
    return layout(agent).build(cmd, guard)


def settings_path(scope: str, *, project_dir: Path | None = None,
                  home: Path | None = None, agent: str = "claude") -> Path:
    if scope not in SCOPES:
        raise UsageError(f"unknown scope {scope!r}; use one of {', '.join(SCOPES)}",
                         reason="bad_scope")
    return layout(agent).path(scope, project_dir, home)


def is_ours(hook: Any, key: str = "command") -> bool:
    """Does this hook entry run readreceipt-hook?"""
    if not isinstance(hook, dict) or not isinstance(hook.get(key), str):
        return False
    try:
        words = shlex.split(hook[key])
    except ValueError:
        return False
    if not words:
        return False
    if os.path.basename(words[0]) == SCRIPT:
        return True
    # python [options] -m readreceipt.agents.hook MODE
    return any(a == "-m" and b == MODULE for a, b in itertools.pairwise(words))


# ------------------------------------------------------------------ nested groups and flat


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


def without_ours(data: dict[str, Any], *, flat: bool = False,
                 key: str = "command") -> dict[str, Any]:
    """``data`` with every readreceipt entry removed, and the groups and events it emptied."""
    out = copy.deepcopy(data)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        groups = hooks[event]
        kept_groups = []
        for group in groups:
            if flat:
                if not is_ours(group, key):
                    kept_groups.append(group)
                continue
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(is_ours(h, key) for h in inner):
                kept_groups.append(group)
                continue
            remaining = [h for h in inner if not is_ours(h, key)]
            if remaining:
                kept_groups.append({**group, "hooks": remaining})
        if kept_groups or not groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    if not hooks and data.get("hooks"):
        del out["hooks"]
    return out


def with_ours(data: dict[str, Any], ours: dict[str, Any], *, flat: bool = False,
              key: str = "command") -> dict[str, Any]:
    """``data`` with readreceipt's entries (only) replaced by ``ours``."""
    out = without_ours(data, flat=flat, key=key)
    for name, value in ours.items():  # an agent's own keys (Cursor's version) come first
        if name != "hooks" and name not in out:
            out = {name: value, **out}
    hooks = out.setdefault("hooks", {})
    for event, groups in ours["hooks"].items():
        hooks.setdefault(event, []).extend(copy.deepcopy(groups))
    return out


def _items(data: dict[str, Any], flat: bool, key: str
           ) -> list[tuple[str, str | None, dict[str, Any]]]:
    """(event, matcher, entry) for each of readreceipt's entries, in the file's order."""
    found: list[tuple[str, str | None, dict[str, Any]]] = []
    hooks = data.get("hooks")
    for event, groups in (hooks.items() if isinstance(hooks, dict) else ()):
        for group in groups if isinstance(groups, list) else ():
            if not isinstance(group, dict):
                continue
            inner = [group] if flat else group.get("hooks")
            for hook in inner if isinstance(inner, list) else ():
                if is_ours(hook, key):
                    matcher = group.get("matcher")
                    found.append((event, matcher if isinstance(matcher, str) else None, hook))
    return found


def ours_in(data: dict[str, Any], *, flat: bool = False,
            key: str = "command") -> list[tuple[str, str, str]]:
    """readreceipt's entries in ``data`` as sorted (event, matcher, hook) triples."""
    return sorted((event, str(matcher), json.dumps(hook, sort_keys=True))
                  for event, matcher, hook in _items(data, flat, key))


def entries(data: dict[str, Any], *, flat: bool = False,
            key: str = "command") -> tuple[Entry, ...]:
    """readreceipt's entries in ``data``, in the file's order."""
    return tuple(Entry(event, matcher, hook[key])
                 for event, matcher, hook in _items(data, flat, key))


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


def _replace(path: Path, data: bytes, before: bytes | None, mode: int | None = None
             ) -> Path | None:
    """Write ``data`` at ``path`` (its folder made), the previous content backed up first;
    the backup's path."""
    backup = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make {path.parent}: {exc.strerror or exc}",
                         reason="write_failed") from exc
    if before is not None:
        backup = path.with_name(path.name + BACKUP_SUFFIX)
        write_file(backup, before)
    written = write_file(path, data)
    if mode is not None:
        written.chmod(mode)
    return backup


def _write(path: Path, data: dict[str, Any], before: str | None, *, flat: bool,
           key: str) -> Change:
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    backup = _replace(path, text.encode("utf-8"),
                      before.encode("utf-8") if before is not None else None)
    return Change(path, True, backup, entries(data, flat=flat, key=key))


def install(path: Path, *, guard: bool = False, command: str | None = None,
            agent: str = "claude") -> Change:
    """Merge readreceipt's hooks into ``agent``'s configuration at ``path`` (made if
    missing)."""
    shape = layout(agent)
    ours = settings(guard=guard, command=command, agent=agent)
    if shape.shape == SCRIPTS:
        return _install_scripts(path, ours)
    flat, key = shape.shape == FLAT, shape.command_key
    data, before = _read(path)
    if before is not None and ours_in(data, flat=flat, key=key) == \
            ours_in(ours, flat=flat, key=key):
        return Change(path, False, None, entries(data, flat=flat, key=key))  # touch nothing
    return _write(path, with_ours(data, ours, flat=flat, key=key), before, flat=flat, key=key)


def uninstall(path: Path, agent: str = "claude") -> Change:
    """Remove readreceipt's hooks (only) from ``agent``'s configuration at ``path``."""
    shape = layout(agent)
    if shape.shape == SCRIPTS:
        return _uninstall_scripts(path, shape)
    flat, key = shape.shape == FLAT, shape.command_key
    data, before = _read(path)
    if before is None or not ours_in(data, flat=flat, key=key):
        return Change(path, False, None, ())
    return _write(path, without_ours(data, flat=flat, key=key), before, flat=flat, key=key)


# ------------------------------------------------------------------------------ scripts


def _script_is_ours(text: str) -> bool:
    return SCRIPT_MARK in text.splitlines()


def _read_script(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}", reason="bad_settings") from exc


def _script_entries(folder: Path, names: list[str]) -> tuple[Entry, ...]:
    out = []
    for name in names:
        text = _read_script(folder / name)
        if text is not None and _script_is_ours(text):
            line = next((x for x in text.splitlines() if x.startswith("exec ")), "")
            out.append(Entry(name, None, line.removeprefix("exec ")))
    return tuple(out)


def _install_scripts(folder: Path, scripts: dict[str, str]) -> Change:
    """Write each hook script into ``folder``; a file of the same name that is not ours is
    refused before anything is written (two programs cannot share one hook file)."""
    current = {name: _read_script(folder / name) for name in scripts}
    for name, text in current.items():
        if text is not None and not _script_is_ours(text):
            raise UsageError(f"{folder / name} is a hook of someone else's; readreceipt does not "
                             f"replace it (add `{scripts[name].splitlines()[-1]}` to it, or "
                             "move it aside)", reason="bad_settings")
    changed = False
    backup = None
    for name, text in scripts.items():
        path = folder / name
        executable = path.exists() and os.stat(path).st_mode & stat.S_IXUSR
        if current[name] == text and executable:
            continue
        old = current[name]
        backup = _replace(path, text.encode("utf-8"),
                          old.encode("utf-8") if old is not None else None, 0o755) or backup
        changed = True
    return Change(folder, changed, backup, _script_entries(folder, list(scripts)))


def _uninstall_scripts(folder: Path, shape: Layout) -> Change:
    names = list(shape.build(SCRIPT, False))
    removed = False
    for name in names:
        text = _read_script(folder / name)
        if text is not None and _script_is_ours(text):
            (folder / name).unlink()
            removed = True
    return Change(folder, removed, None, ())
