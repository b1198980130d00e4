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


def library_option(func: F) -> F:
    """``--library`` on the command itself as well as on the group."""
    return click.option("--library", "library_here", type=click.Path(),
                        help="The evidence library (overrides the group's --library).",
                        )(func)


def open_library(ctx: click.Context, library_here: str | None = None) -> Library:
    explicit = library_here or (ctx.obj or {}).get("library")
    return Library.locate(explicit)


def console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


VERDICT_STYLE = {"RETRIEVED": "green", "FAILED": "red", "UNKNOWN": "yellow"}
