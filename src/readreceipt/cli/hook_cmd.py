"""``readreceipt hook print|install|uninstall``: agents' hook settings for readreceipt-hook.

A thin adapter over :mod:`readreceipt.agents.hooksettings`. ``print`` writes only the
configuration on stdout (JSON, or Cline's hook scripts), so it can be piped or pasted;
``install`` and ``uninstall`` say in one line what changed and where the backup is.
``--agent`` names the agent (default: Claude Code).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from readreceipt.agents import hookconfigs, hooksettings
from readreceipt.cli import emit_json
from readreceipt.cli._common import json_option

F = TypeVar("F", bound=Callable[..., Any])


_SCOPES = {"project": "The project's file (the default): .claude/settings.json, "
                      ".gemini/settings.json, .codex/hooks.json, .cursor/hooks.json, "
                      ".clinerules/hooks/ or .github/hooks/readreceipt.json.",
           "local": "Claude Code only: .claude/settings.local.json (this project, only you).",
           "user": "The user's file (every project of yours): ~/.claude/settings.json, "
                   "~/.gemini/settings.json, ~/.codex/hooks.json, ~/.cursor/hooks.json, "
                   "~/Documents/Cline/Hooks/ or ~/.copilot/hooks/readreceipt.json."}


def _one_scope(ctx: click.Context, param: click.Parameter, given: bool) -> bool:
    """Two of --project, --local and --user name two files: refuse rather than pick one (a
    stray --user would otherwise change the settings of every project of the user's)."""
    if given:
        chosen: list[str] = ctx.meta.setdefault("readreceipt_scopes", [])
        chosen.append(str(param.name))
        if len(chosen) > 1:
            raise click.UsageError("give one of --project, --local and --user, not "
                                   + " and ".join(f"--{name}" for name in chosen), ctx=ctx)
    return given


def _scope_options(func: F) -> F:
    for name in reversed(_SCOPES):
        func = click.option(f"--{name}", name, is_flag=True, callback=_one_scope,
                            expose_value=False, help=_SCOPES[name])(func)
    return func


def _scope() -> str:
    """The settings file the command was pointed at: ``project`` unless told otherwise."""
    chosen = click.get_current_context().meta.get("readreceipt_scopes", [])
    return str(chosen[0]) if chosen else "project"


_AGENT = click.option("--agent", "agent", type=click.Choice(list(hookconfigs.LAYOUTS)),
                      default="claude", show_default=True,
                      help="The coding agent whose hooks to write (claude: Claude Code, "
                      "gemini: Gemini CLI, codex: Codex CLI, cursor: Cursor, cline: Cline, "
                      "copilot: GitHub Copilot CLI).")


@click.group()
def hook() -> None:
    """Coding agents' hooks: capture every page an agent fetches, report unfound quotations,
    keep a stop from letting one reach the user, or (Claude Code) guard WebFetch."""


_COMMAND_HELP = ("The command that runs the hook, written before each mode (default: "
                 "readreceipt-hook when PATH finds this installation's, else its full path). "
                 "It must run readreceipt-hook or `python -m readreceipt.agents.hook`.")
_GUARD_HELP = ("Claude Code only: deny WebFetch, pointing the agent to `readreceipt fetch`, "
               "instead of capturing it (the guard is then the only entry).")


def _guard_for(agent: str, guard: bool) -> None:
    if guard and agent != "claude":
        raise click.UsageError("--guard is for Claude Code's WebFetch only (--agent claude)")


@hook.command("print")
@_AGENT
@click.option("--guard", is_flag=True, help=_GUARD_HELP)
@click.option("--command", "command", metavar="CMD", help=_COMMAND_HELP)
def print_(agent: str, guard: bool, command: str | None) -> None:
    """Print the configuration (only it on stdout): JSON to merge into the agent's file, or
    Cline's hook scripts, each under a line naming its file."""
    _guard_for(agent, guard)
    data = hooksettings.settings(guard=guard, command=command, agent=agent)
    shape = hookconfigs.layout(agent)
    if shape.shape == hookconfigs.SCRIPTS:
        folder = shape.path("project")
        for name, text in data.items():
            click.echo(f"# {folder.name}/{name} (project: {folder}/; user: "
                       f"{shape.path('user')}/)")
            click.echo(text, nl=False)
        return
    click.echo(json.dumps(data, indent=2))
    home = shape.path("user")
    click.echo(f"readreceipt: for {shape.path('project', project_dir=Path('.'))} (this project) "
               f"or {home} (yours); `readreceipt hook install --agent {agent}` merges it in",
               err=True)


@hook.command()
@_scope_options
@_AGENT
@click.option("--guard", is_flag=True, help=_GUARD_HELP)
@click.option("--command", "command", metavar="CMD", help=_COMMAND_HELP)
@json_option
def install(agent: str, guard: bool, command: str | None, as_json: bool) -> None:
    """Merge the hooks into the agent's hooks file, keeping every other setting."""
    _guard_for(agent, guard)
    scope = _scope()
    path = hooksettings.settings_path(scope, agent=agent)
    chosen = hooksettings.check_command(command) if command is not None else \
        hooksettings.script_command()
    change = hooksettings.install(path, guard=guard, command=chosen, agent=agent)
    warning = None
    if scope == "project" and hooksettings.machine_specific(chosen):
        local = " or install with --local (.claude/settings.local.json, not committed)" \
            if agent == "claude" else " or install with --user"
        warning = (f"{path} is meant to be committed, and the command written names a path on "
                   f"this machine ({chosen}); put readreceipt-hook on PATH, give --command,"
                   f"{local}")
    if as_json:
        emit_json({**change.to_json(), "agent": agent, "warning": warning})
        return
    if warning:
        click.echo(f"readreceipt: warning: {warning}", err=True)
    if change.changed:
        backup = f"; the previous file is kept as {change.backup}" if change.backup else ""
        click.echo(f"wrote readreceipt's hooks to {change.path}{backup}:")
    else:
        click.echo(f"readreceipt's hooks were already in {change.path}; nothing changed:")
    for entry in change.entries:
        where = f"{entry.event} ({entry.matcher})" if entry.matcher else entry.event
        click.echo(f"  {where}: {entry.command}")


@hook.command()
@_scope_options
@_AGENT
@json_option
def uninstall(agent: str, as_json: bool) -> None:
    """Remove readreceipt's hooks (only) from the agent's hooks file."""
    change = hooksettings.uninstall(hooksettings.settings_path(_scope(), agent=agent),
                                    agent=agent)
    if as_json:
        emit_json({**change.to_json(), "agent": agent})
    elif change.changed:
        kept = f" (the previous file is kept as {change.backup})" if change.backup else ""
        click.echo(f"removed readreceipt's hooks from {change.path}{kept}")
    else:
        click.echo(f"no readreceipt hooks in {change.path}; nothing changed")
