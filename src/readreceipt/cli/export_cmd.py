"""``readreceipt export``: the library (or part of it) as a WARC 1.1 file or a WACZ package."""

from __future__ import annotations

import os
from pathlib import Path

import click

from readreceipt.cli import emit_json
from readreceipt.cli._common import (
    console,
    err_console,
    json_option,
    library_option,
    open_library,
)
from readreceipt.errors import ExitCode, UsageError
from readreceipt.export import Selection, export_wacz, export_warc, parse_since
from readreceipt.export.run import ExportResult
from readreceipt.progress import progress_bar, stderr_is_terminal
from readreceipt.reading.wording import counted

#: What ``-`` names: this process's standard output, written through, never renamed over.
STDOUT = "/dev/stdout"


@click.command()
@click.option("--warc", "warc_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Write a WARC 1.1 file (per-record gzip when FILE ends in .gz; - for "
              "standard output).")
@click.option("--wacz", "wacz_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Write a WACZ package (ReplayWeb.page, pywb; - for standard output).")
@click.option("--url", "url_pattern", metavar="PATTERN",
              help="Only URLs containing PATTERN (* matches any run of characters).")
@click.option("--since", metavar="DATE", help="Only retrievals on or after DATE (ISO 8601, UTC).")
@click.option("--session", "session_id", metavar="ID", help="Only this session's retrievals.")
@json_option
@library_option
@click.pass_context
def export(ctx: click.Context, warc_file: str | None, wacz_file: str | None,
           url_pattern: str | None, since: str | None, session_id: str | None, as_json: bool,
           library_here: str | None) -> None:
    """Export retrievals for web-archive tools; forgotten bytes stay out, their records go in."""
    if (warc_file is None) == (wacz_file is None):
        raise UsageError("give one of --warc FILE or --wacz FILE", reason="no_output")
    dash = "-" in (warc_file, wacz_file)
    if dash:
        if as_json:  # the archive takes standard output; the JSON would be mixed into it
            raise UsageError("--json cannot share standard output with the archive (- is "
                             "standard output): give a file name", reason="stdout_twice")
        # - is standard output, as --from - and --answer - are standard input
        warc_file, wacz_file = (STDOUT if warc_file == "-" else warc_file,
                                STDOUT if wacz_file == "-" else wacz_file)
    selection = Selection(url_pattern=url_pattern or None,
                          since=parse_since(since) if since else None,
                          session_id=session_id or None)
    lib = open_library(ctx, library_here)
    # The path reported (--json, the summary) is the whole one, wherever it was run from.
    warc_file = os.path.abspath(os.path.expanduser(warc_file)) if warc_file else None
    wacz_file = os.path.abspath(os.path.expanduser(wacz_file)) if wacz_file else None
    show = stderr_is_terminal() and not as_json
    with progress_bar("exporting", enabled=show) as progress:
        if warc_file is not None:
            result = export_warc(lib, Path(warc_file), selection, progress)
        else:
            result = export_wacz(lib, Path(str(wacz_file)), selection, progress)
    if as_json:
        emit_json(result.to_json())
    else:
        _summary(result, "standard output" if dash else None)
    if result.damaged:
        _say_damage(result)
        ctx.exit(ExitCode.LIBRARY)


def _say_damage(result: ExportResult) -> None:
    """One line on stderr: what of the selection was not exported whole, and what to run."""
    parts = []
    if result.unreadable:
        n = len(result.unreadable)
        named = ", ".join(result.unreadable[:5]) + (", ..." if n > 5 else "")
        parts.append(f"{n} selected record{'' if n == 1 else 's'} could not be read and "
                     f"{'was' if n == 1 else 'were'} left out ({named})")
    lost = result.by_kind.get("missing", 0) + result.by_kind.get("corrupt", 0)
    if lost:
        parts.append(f"the bytes of {lost} retrieval{'' if lost == 1 else 's'} are gone or no "
                     "longer match their digest (exported as records only)")
    click.echo(f"readreceipt: the rest was exported, but {'; '.join(parts)}; "
               "`readreceipt verify` names each problem", err=True)


def _summary(result: ExportResult, shown: str | None = None) -> None:
    kinds = ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in sorted(result.by_kind.items()))
    # Exported to stdout itself (/dev/stdout, a descriptor): the summary must not join it.
    out = err_console() if _is_stdout(result.path) else console()
    size = f"{result.size:,} bytes" if result.size is not None else "written through"
    out.print(f"wrote {shown or result.path} ({result.format.upper()}, {size})", markup=False)
    out.print(f"  {counted(result.retrievals, 'retrieval')}: {kinds}; "
              f"{counted(result.pages, 'replayable page')}", markup=False)


def _is_stdout(path: Path) -> bool:
    try:
        here, there = os.stat(path), os.fstat(1)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)
