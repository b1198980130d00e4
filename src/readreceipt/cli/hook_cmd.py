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


def _scope_options(func: F) -> F:
    func = click.option("--user", "scope", flag_value="user",
                        help="~/.claude/settings.json (every project of yours).")(func)
    func = click.option("--local", "scope", flag_value="local",
                        help=".claude/settings.local.json (this project, only you).")(func)
    return click.option("--project", "scope", flag_value="project", default=True,
                        help=".claude/settings.json (this project; the default).")(func)


@click.group()
def hook() -> None:
    """Claude Code hooks: capture every WebFetch, report unfound quotations, guard WebFetch."""


@hook.command("print")
@click.option("--guard", is_flag=True, help="Also deny WebFetch, pointing to readreceipt fetch.")
def print_(guard: bool) -> None:
    """Print the settings JSON (only JSON on stdout)."""
    click.echo(json.dumps(hooksettings.settings(guard=guard), indent=2))


@hook.command()
@_scope_options
@click.option("--guard", is_flag=True, help="Also deny WebFetch, pointing to readreceipt fetch.")
@json_option
def install(scope: str, guard: bool, as_json: bool) -> None:
    """Merge the hooks into a Claude Code settings file, keeping every other setting."""
    change = hooksettings.install(hooksettings.settings_path(scope), guard=guard)
    if as_json:
        emit_json(change.to_json())
    elif change.changed:
        backup = f" (the previous file is kept as {change.backup})" if change.backup else ""
        click.echo(f"installed readreceipt's hooks in {change.path}{backup}")
    else:
        click.echo(f"readreceipt's hooks were already installed in {change.path}; "
                   "nothing changed")


@hook.command()
@_scope_options
@json_option
def uninstall(scope: str, as_json: bool) -> None:
    """Remove readreceipt's hooks (only) from a Claude Code settings file."""
    change = hooksettings.uninstall(hooksettings.settings_path(scope))
    if as_json:
        emit_json(change.to_json())
    elif change.changed:
        click.echo(f"removed readreceipt's hooks from {change.path} "
                   f"(the previous file is kept as {change.backup})")
    else:
        click.echo(f"no readreceipt hooks in {change.path}; nothing changed")
