"""``readreceipt hook print|install|uninstall``: Claude Code settings for readreceipt-hook.

A thin adapter over :mod:`readreceipt.agents.hooksettings`. ``print`` writes only the settings JSON
on stdout, so it can be piped or pasted; ``install`` and ``uninstall`` say in one line what
changed and where the backup is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from readreceipt.agents import hooksettings
from readreceipt.cli import emit_json
from readreceipt.cli._common import json_option

F = TypeVar("F", bound=Callable[..., Any])


_SCOPES = {"project": ".claude/settings.json (this project; the default).",
           "local": ".claude/settings.local.json (this project, only you).",
           "user": "~/.claude/settings.json (every project of yours)."}


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


@click.group()
def hook() -> None:
    """Claude Code hooks: capture every WebFetch, report unfound quotations, block a stop
    that would let one reach the user, or guard WebFetch."""


_COMMAND_HELP = ("The command that runs the hook, written before each mode (default: "
                 "readreceipt-hook when PATH finds this installation's, else its full path). "
                 "It must run readreceipt-hook or `python -m readreceipt.agents.hook`.")
_GUARD_HELP = ("Deny WebFetch, pointing the agent to `readreceipt fetch`, instead of capturing "
               "it (the guard is then the only entry).")


@hook.command("print")
@click.option("--guard", is_flag=True, help=_GUARD_HELP)
@click.option("--command", "command", metavar="CMD", help=_COMMAND_HELP)
def print_(guard: bool, command: str | None) -> None:
    """Print the settings JSON (only JSON on stdout)."""
    click.echo(json.dumps(hooksettings.settings(guard=guard, command=command), indent=2))


@hook.command()
@_scope_options
@click.option("--guard", is_flag=True, help=_GUARD_HELP)
@click.option("--command", "command", metavar="CMD", help=_COMMAND_HELP)
@json_option
def install(guard: bool, command: str | None, as_json: bool) -> None:
    """Merge the hooks into a Claude Code settings file, keeping every other setting."""
    scope = _scope()
    path = hooksettings.settings_path(scope)
    chosen = hooksettings.check_command(command) if command is not None else \
        hooksettings.script_command()
    change = hooksettings.install(path, guard=guard, command=chosen)
    warning = None
    if scope == "project" and hooksettings.machine_specific(chosen):
        warning = (f"{path} is meant to be committed, and the command written names a path on "
                   f"this machine ({chosen}); put readreceipt-hook on PATH, give --command, or "
                   "install with --local (.claude/settings.local.json, not committed)")
    if as_json:
        emit_json({**change.to_json(), "warning": warning})
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
@json_option
def uninstall(as_json: bool) -> None:
    """Remove readreceipt's hooks (only) from a Claude Code settings file."""
    change = hooksettings.uninstall(hooksettings.settings_path(_scope()))
    if as_json:
        emit_json(change.to_json())
    elif change.changed:
        click.echo(f"removed readreceipt's hooks from {change.path} "
                   f"(the previous file is kept as {change.backup})")
    else:
        click.echo(f"no readreceipt hooks in {change.path}; nothing changed")
