"""``readreceipt mcp``: start the MCP server over stdio.

The server itself is :mod:`readreceipt.agents.mcp_server` (it never imports the CLI); this command
only starts it, and says in one line what to install when the ``mcp`` extra is missing.
"""

from __future__ import annotations

import importlib

import click

from readreceipt.errors import UsageError


@click.command()
@click.option("--library", "library_here", type=click.Path(),
              help="The evidence library (overrides the group's --library).")
@click.option("--output", "output", type=click.Path(file_okay=False), metavar="DIR",
              envvar="READRECEIPT_MCP_OUTPUT",
              help="The folder fetch_page writes below (default: a new folder of the "
              "server's own under <tmp>).")
@click.pass_context
def mcp(ctx: click.Context, library_here: str | None, output: str | None) -> None:
    """Serve readreceipt's tools over MCP on stdio (fetch_page, capture, check_answer,
    find_records)."""
    try:
        server = importlib.import_module("readreceipt.agents.mcp_server")
    except ImportError as exc:
        from readreceipt.installed import advice

        raise UsageError(f"the MCP server needs the mcp extra ({exc}); add it as this copy "
                         f"was installed: {advice('mcp')}", reason="mcp_missing") from exc
    server.main(library_here or (ctx.obj or {}).get("library"), output)
