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
    from readreceipt.cli._inputs import ByteSize, Seconds
    from readreceipt.fetching.transport import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT

    for option in reversed((
        click.option("--now", is_flag=True, help="Skip pacing, robots.txt and the 15-minute "
                     "dedup window (never the security rules)."),
        click.option("--timeout", type=Seconds(0.1), default=DEFAULT_TIMEOUT,
                     show_default=True, help="Total deadline in seconds (0.1 to 3600)."),
        click.option("--max-bytes", type=ByteSize(), default=DEFAULT_MAX_BYTES,
                     show_default=True, help="Size cap (bytes, or 500K, 50MB, 1GiB...; at most "
                     "1 GiB); the first part is kept beyond it."),
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


def open_library(ctx: click.Context, library_here: str | None = None, *,
                 create: bool = False, connections: int = 4) -> Library:
    """The command's library (a team library when the group's --index-url and --blobs-url,
    the environment or the folder's config.toml name one), closed when the command ends
    (however it ends). Only a command that writes evidence (``create``) makes a local
    library where none is found; the others say there is none (exit 1) and leave no folder
    behind."""
    obj = ctx.find_root().obj or {}
    explicit = library_here or obj.get("library")
    lib = Library.locate(explicit, create=create, index_url=obj.get("index_url"),
                         blobs_url=obj.get("blobs_url"), connections=connections)
    ctx.call_on_close(lib.close)
    return lib


def say_library(lib: Library, as_json: bool) -> None:
    """Name the library a command wrote to, on stderr for people (``--json`` carries it in
    its ``library`` field instead)."""
    if not as_json:
        click.echo(f"readreceipt: library {lib.where}", err=True)


#: The width a table is laid out in when stdout is not a terminal: wide enough that no row
#: of ``log`` or ``history`` is ever wrapped or cut for a program reading it.
PIPED_WIDTH = 10_000


def console() -> Console:
    """stdout, for people. Lines are never wrapped by readreceipt (a terminal wraps long ones
    itself, and a pipe gets them whole); tables fit a terminal's width, and are laid out
    without a width limit when stdout is not a terminal."""
    out = Console(highlight=False, soft_wrap=True)
    if out.is_terminal:
        return out
    return Console(highlight=False, soft_wrap=True, width=PIPED_WIDTH)


def err_console() -> Console:
    """stderr, for people: never wrapped either (a pipe is not an 80-column terminal)."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


VERDICT_STYLE = {"RETRIEVED": "green", "FAILED": "red", "UNKNOWN": "yellow"}
