"""``readreceipt serve``: the local, read-only web viewer of the library."""

from __future__ import annotations

import click

from readreceipt.cli import emit_json
from readreceipt.cli._common import json_option, library_option, open_library

DEFAULT_PORT = 8330


@click.command()
@click.option("--port", type=click.IntRange(min=0, max=65535), default=DEFAULT_PORT,
              show_default=True, help="Port on 127.0.0.1 (0: any free port).")
@json_option
@library_option
@click.pass_context
def serve(ctx: click.Context, port: int, as_json: bool, library_here: str | None) -> None:
    """Browse the library in a web browser: 127.0.0.1 only, read-only, no JavaScript."""
    from readreceipt.viewer import make_viewer_server

    lib = open_library(ctx, library_here)
    try:
        server, _ = make_viewer_server(lib, port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: "
                                   f"{exc.strerror or exc}") from exc
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    if as_json:
        emit_json({"url": url, "port": server.server_address[1], "library": lib.where})
    else:
        click.echo(f"readreceipt viewer: {url} (library {lib.where}; read-only; Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
