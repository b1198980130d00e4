"""``readreceipt fetch``: a page's own content in a file for an agent; one line back.

A thin adapter over :func:`readreceipt.agents.fetchpage.fetch_page`: it parses options, prints the
result's one line (and, with ``--preview``, the first lines of the text, fenced as the file
is) and exits with the verdict's code.
"""

from __future__ import annotations

import click

from readreceipt.agents.fetchpage import DEFAULT_WAIT, FORMATS, FetchPageOptions, fetch_page
from readreceipt.cli import emit_json
from readreceipt.cli._common import (
    fetch_options,
    json_option,
    library_option,
    open_library,
    say_library,
)
from readreceipt.cli._inputs import Seconds


@click.command()
@click.argument("url")
@click.option("-o", "--output", metavar="PATH", type=click.Path(),
              help="Write here (a file, or a folder for the default name). Default: "
              "<tmp>/readreceipt/<host>/<time>-<slug>-<hash>.<ext>.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="markdown",
              show_default=True, help="How to write an HTML page; raw is the body byte for byte.")
@click.option("--links/--no-links", default=True, show_default=True,
              help="Keep links in the text.")
@click.option("--tables/--no-tables", default=True, show_default=True,
              help="Keep tables in the text.")
@click.option("--preview", type=click.IntRange(min=0), default=0, metavar="N",
              help="Also print the first N lines of the text.")
@click.option("--overwrite/--no-overwrite", default=True, show_default=True,
              help="Replace a file already at PATH.")
@fetch_options
@click.option("--wait", type=Seconds(0), default=DEFAULT_WAIT, show_default=True,
              help="Seconds to wait for the host's turn before declining.")
@json_option
@library_option
@click.pass_context
def fetch(ctx: click.Context, url: str, output: str | None, fmt: str, links: bool,
          tables: bool, preview: int, overwrite: bool, now: bool, wait: float, timeout: float,
          max_bytes: int, resolve: tuple[str, ...], as_json: bool,
          library_here: str | None) -> None:
    """Write URL's own content to a file for an agent to read, fenced as untrusted."""
    options = FetchPageOptions(output=output, format=fmt, links=links, tables=tables,
                               overwrite=overwrite, now=now, wait=wait, timeout=timeout,
                               max_bytes=max_bytes, resolve=resolve)
    lib = open_library(ctx, library_here, create=True)
    result = fetch_page(url, options, lib)
    if as_json:
        out = {**result.to_json(), "library": lib.where}
        if preview:
            out["preview"] = result.preview(preview)
        emit_json(out)
    else:
        click.echo(result.line())
        if preview and result.fenced is not None:
            click.echo(result.preview(preview))
    say_library(lib, as_json)
    ctx.exit(result.exit_code)
