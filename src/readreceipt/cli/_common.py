"""Options and helpers shared by the command modules of the CLI adapter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console

from readreceipt.store.library import Library

F = TypeVar("F", bound=Callable[..., Any])

json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print exactly one JSON object on stdout.")


def fetch_options(func: F) -> F:
    """The options every command that fetches shares: --now, --timeout, --max-bytes,
    --resolve (each command sets its own --wait, whose default differs)."""
    from readreceipt.fetching.transport import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT

    for option in reversed((
        click.option("--now", is_flag=True, help="Skip pacing, robots.txt and the 15-minute "
                     "dedup window (never the security rules)."),
        click.option("--timeout", type=click.FloatRange(min=0.1), default=DEFAULT_TIMEOUT,
                     show_default=True, help="Total deadline in seconds."),
        click.option("--max-bytes", type=click.IntRange(min=1), default=DEFAULT_MAX_BYTES,
                     show_default=True, help="Size cap; the first part is kept beyond it."),
        click.option("--resolve", multiple=True, metavar="HOST:PORT:ADDR",
                     help="Pin a name to an address (as curl's); the address still passes "
                     "the guard."),
    )):
        func = option(func)
    return func


def library_option(func: F) -> F:
    """``--library`` on the command itself as well as on the group."""
    return click.option("--library", "library_here", type=click.Path(),
                        help="The evidence library (overrides the group's --library).",
                        )(func)


def open_library(ctx: click.Context, library_here: str | None = None) -> Library:
    """The command's library, closed when the command ends (however it ends)."""
    explicit = library_here or (ctx.obj or {}).get("library")
    lib = Library.locate(explicit)
    ctx.call_on_close(lib.close)
    return lib


def console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


VERDICT_STYLE = {"RETRIEVED": "green", "FAILED": "red", "UNKNOWN": "yellow"}
