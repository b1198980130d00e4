"""``readreceipt init`` and ``readreceipt push``: set a library up, and hand evidence in."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

import click

from readreceipt.cli import emit_json
from readreceipt.cli._common import json_option, library_option
from readreceipt.errors import ExitCode, UsageError
from readreceipt.reading.wording import counted
from readreceipt.store import discovery
from readreceipt.store.library import Library
from readreceipt.store.team import config

if TYPE_CHECKING:
    from readreceipt.store.team.push import PushReport


def _init_folder(ctx: click.Context, library_here: str | None) -> Path:
    """``--library``, else ``$READRECEIPT_LIBRARY``, else ``./.readreceipt``: init makes a
    library here, not in whichever folder above it already has one."""
    explicit = library_here or (ctx.find_root().obj or {}).get("library")
    if explicit:
        return Path(explicit).expanduser()
    return Path.cwd() / discovery.DIRNAME


@click.command()
@click.option("--index-url", "index_url", metavar="URL",
              help="The team library's PostgreSQL index (no password in it).")
@click.option("--blobs-url", "blobs_url", metavar="URL",
              help="The team library's bucket: s3://bucket[/prefix].")
@click.option("--no-check", is_flag=True,
              help="Write the settings without connecting to the team store first.")
@json_option
@library_option
@click.pass_context
def init(ctx: click.Context, index_url: str | None, blobs_url: str | None, no_check: bool,
         as_json: bool, library_here: str | None) -> None:
    """Make a library folder: a local library, or (with --index-url and --blobs-url) one
    that points at a team library."""
    root = ctx.find_root().obj or {}
    index_url = index_url or root.get("index_url")
    blobs_url = blobs_url or root.get("blobs_url")
    folder = _init_folder(ctx, library_here)
    if not (index_url or blobs_url):
        with Library.open_local(folder) as lib:
            count = lib.index.count_retrievals()
        data = {"library": str(folder), "team": None, "config": None, "local_retrievals": count}
        if as_json:
            emit_json(data)
        else:
            click.echo(f"local library ready: {folder} ({count} retrievals)")
        return
    if not index_url or not blobs_url:
        raise UsageError("a team library needs both --index-url and --blobs-url",
                         reason="team_config")
    # Refused before anything connects or is written; the refusal names no secret.
    config.refuse_password(index_url)
    team = config.resolve(folder, index_url=index_url, blobs_url=blobs_url)
    assert team is not None
    if not no_check:
        with Library.open_team(folder, team) as lib:
            # A listing, not a HEAD: a missing bucket answers a HEAD 404 as a missing
            # object does, and fails a listing.
            next(lib.records.ids(), None)
    local = 0
    if discovery.is_library(folder) and (folder / discovery.INDEX_FILENAME).is_file():
        with Library.open_local(folder) as lib:
            local = lib.index.count_retrievals()
    path = config.write_file(folder, index_url, blobs_url)
    # The user named these servers themselves: their own file needs no telling.
    with contextlib.suppress(OSError):
        config.note_shown(config.TeamConfig(index_url, blobs_url, str(path)))
    data = {"library": str(folder), "team": team.describe(), "config": str(path),
            "local_retrievals": local, "checked": not no_check}
    if as_json:
        emit_json(data)
        return
    click.echo(f"{folder} now points at the team library {team.describe()} ({path})")
    if local:
        click.echo(f"its {local} local retrievals stay in {folder}; `readreceipt push "
                   f"{folder}` copies them into the team library")


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@json_option
@library_option
@click.pass_context
def push(ctx: click.Context, folder: str, as_json: bool, library_here: str | None) -> None:
    """Copy the local library in FOLDER into the team library (idempotent; run it again
    after an interruption to finish)."""
    from readreceipt.progress import progress_bar, stderr_is_terminal
    from readreceipt.store.team.push import no_team_library
    from readreceipt.store.team.push import push as run_push

    source_dir = Path(folder).expanduser()
    if not (source_dir / discovery.INDEX_FILENAME).is_file():
        raise UsageError(f"{source_dir} holds no local library (no index.db)",
                         reason="not_a_local_library")
    obj = ctx.find_root().obj or {}
    explicit = library_here or obj.get("library")
    here = Path(explicit).expanduser() if explicit else discovery.choose()
    team = config.resolve(here, index_url=obj.get("index_url"), blobs_url=obj.get("blobs_url"))
    if team is None:  # asked before anything is opened, so no library is made here
        raise no_team_library()
    target = Library.open_team(here, team)
    ctx.call_on_close(target.close)
    with Library.open_local(source_dir) as source, progress_bar(
            "pushing", enabled=stderr_is_terminal() and not as_json) as progress:
        report = run_push(source, target, progress)
    if as_json:
        emit_json({"from": str(source_dir), "to": target.where, **report.to_dict()})
    else:
        click.echo(_pushed(report, source_dir, target.where))
    if report.unreadable:
        click.echo(f"readreceipt: {counted(len(report.unreadable), 'retrieval')} left behind: "
                   "their "
                   f"records in {source_dir} cannot be read (`readreceipt --library "
                   f"{source_dir} verify` names them)", err=True)
    if report.conflicts:
        named = ", ".join(report.conflicts[:3]) + (", ..." if len(report.conflicts) > 3 else "")
        click.echo(f"readreceipt: {counted(len(report.conflicts), 'retrieval')} left behind: "
                   f"the team library holds other captures under their record ids ({named}); "
                   "neither was replaced", err=True)
    if report.unreadable or report.conflicts:
        ctx.exit(ExitCode.LIBRARY)


def _pushed(report: PushReport, source: Path, target: str) -> str:
    """What a push copied, in words; a push run again says that nothing was new."""
    head = (f"{counted(report.copied, 'retrieval')} copied from {source} to {target} "
            f"({report.already_there} already there, "
            f"{counted(report.blobs, 'blob or text', 'blobs and texts')} offered)")
    new = [counted(n, word) for n, word in ((report.flags, "flag"),
                                            (report.answer_checks, "answer check"),
                                            (report.audits, "audit"),
                                            (report.log_lines, "log line")) if n]
    if not new:
        return f"{head}; no flag, answer check, audit or log line was new"
    listed = new[0] if len(new) == 1 else f"{', '.join(new[:-1])} and {new[-1]}"
    return f"{head}; {listed} handed over"
