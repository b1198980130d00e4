"""``readreceipt audit TRANSCRIPT``: an agent's session checked after the fact.

A thin adapter over :func:`readreceipt.agents.audit.audit_transcript`: it prints the report
(or its JSON) and exits 10 when a quotation is on no page the session read.
"""

from __future__ import annotations

import click

from readreceipt.agents.audit import (
    DEFAULT_WAIT,
    AuditOptions,
    audit_transcript,
    read_transcript,
    report_text,
)
from readreceipt.cli import emit_json
from readreceipt.cli._common import json_option, library_option, open_library


@click.command()
@click.argument("transcript", type=click.Path(dir_okay=False))
@click.option("--capture/--no-capture", "capture_missing", default=True, show_default=True,
              help="Capture a page of the session no copy of which is held (politely: "
              "robots.txt, pacing, the dedup window).")
@click.option("--wait", type=click.FloatRange(min=0, max=600), default=DEFAULT_WAIT,
              show_default=True, help="Seconds a capture waits for its host's turn.")
@click.option("--resolve", multiple=True, metavar="HOST:PORT:ADDR",
              help="Pin a name to an address (as curl's); the address still passes the guard.")
@json_option
@library_option
@click.pass_context
def audit(ctx: click.Context, transcript: str, capture_missing: bool, wait: float,
          resolve: tuple[str, ...], as_json: bool, library_here: str | None) -> None:
    """Audit a session: a Claude Code transcript, a Codex CLI rollout or a Gemini CLI saved
    chat. Every page it fetched and its verdict, every quotation in the assistant's messages
    against the pages it read."""
    options = AuditOptions(capture_missing=capture_missing, wait=wait, resolve=resolve)
    # Read first: a file that is no transcript is one line, and makes no library.
    session = read_transcript(transcript)
    # The audit is kept in the library, and pages not held are captured: it may make one.
    result = audit_transcript(session, open_library(ctx, library_here, create=True), options)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(report_text(result))
    ctx.exit(result.exit_code)
