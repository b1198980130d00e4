"""Commands that read or tidy the library: status, log, show, history, verify, forget."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import click
from rich.table import Table

from readreceipt.cli import emit_json
from readreceipt.cli._common import (
    VERDICT_STYLE,
    console,
    json_option,
    library_option,
    open_library,
)
from readreceipt.cli._rows import print_rows
from readreceipt.errors import ExitCode, UsageError
from readreceipt.reading.wording import counted, describe
from readreceipt.store.library import Library
from readreceipt.store.protocols import Retrieval, RetrievalFilter

if TYPE_CHECKING:
    from readreceipt.history import Diff


def recorded_ref(lib: Library, ref: str) -> str:
    """A record id as given; a URL as given when the index holds it, else in the form a
    record holds a URL it captured (``http://host`` finds the captures of ``http://host/``)."""
    if "://" not in ref or lib.index.for_url(ref.strip(), limit=1):
        return ref
    from readreceipt.fetching.urlpolicy import as_recorded

    return as_recorded(ref)


#: The most rows ``log`` prints at once.
MAX_LOG_ROWS = 1_000_000


@click.command()
@json_option
@library_option
@click.pass_context
def status(ctx: click.Context, as_json: bool, library_here: str | None) -> None:
    """Counts: retrievals, verdicts by reason, answer checks and flags."""
    lib = open_library(ctx, library_here)
    summary = lib.index.summary()
    totals = summary.totals()
    by_outcome = dict(summary.by_answer_outcome)
    skipped = lib.count_log("skipped.jsonl")
    by_kind = {"quotation": 0, "figure": 0, "name": 0, **dict(summary.flags_by_kind)}
    data = {"library": lib.where, **totals, "skipped": skipped,
            "verdicts": summary.by_verdict(), "reasons": summary.by_reason(),
            "answer_outcomes": by_outcome, "flags_by_kind": by_kind}
    if as_json:
        emit_json(data)
        return
    out = console()
    out.print(f"library: {lib.where}", markup=False)
    out.print(f"{counted(totals['retrievals'], 'retrieval')} of "
              f"{counted(totals['urls'], 'URL')}; {totals['bytes_kept']} with bytes kept; "
              f"{skipped} refused or declined")
    table = Table("verdict", "reason", "count", box=None)
    for verdict, reason, count in summary.by_verdict_reason:
        style = VERDICT_STYLE.get(verdict, "")
        table.add_row(f"[{style}]{verdict}[/]", reason, str(count))
    if totals["retrievals"]:
        out.print(table)
    out.print(f"answer checks: {totals['answer_checks']} against held copies; "
              f"{sum(by_outcome.values())} while capturing; {counted(totals['flags'], 'flag')} "
              f"({counted(by_kind['quotation'], 'quotation')}, "
              f"{counted(by_kind['figure'], 'figure')}, {counted(by_kind['name'], 'name')} not "
              "on the page)")
    if totals["answer_without_page_text"]:
        out.print(f"answers with no page text behind them: {totals['answer_without_page_text']}")


@click.command("log")
@click.option("--limit", type=click.IntRange(min=1, max=MAX_LOG_ROWS), default=20,
              show_default=True, help=f"Rows to show (1 to {MAX_LOG_ROWS:,}).")
@click.option("--verdict", type=click.Choice(["RETRIEVED", "FAILED", "UNKNOWN"],
                                             case_sensitive=False),
              help="Only retrievals with this verdict (any case).")
@click.option("--session", "session_id", metavar="ID",
              help="Only this agent session's retrievals (as recorded by --session or the "
              "hook).")
@click.option("--url", "url_like", help="Only URLs containing this text.")
@json_option
@library_option
@click.pass_context
def log_(ctx: click.Context, limit: int, verdict: str | None, session_id: str | None,
         url_like: str | None, as_json: bool, library_here: str | None) -> None:
    """The newest retrievals, newest first."""
    lib = open_library(ctx, library_here)
    rows = lib.index.retrievals(RetrievalFilter(verdict=verdict, session_id=session_id,
                                                url_like=url_like), limit=limit)
    if as_json:
        emit_json({"retrievals": [r.to_dict() for r in rows]})
        return
    if not rows:
        filtered = verdict or session_id or url_like
        console().print("no retrievals match" if filtered else "no retrievals yet")
        return
    print_rows(console(), ("fetched (UTC)", "verdict", "reason", "bytes", "record", "url"),
               [(r.fetched_at[:19].replace("T", " "), r.verdict, r.reason, str(r.bytes),
                 r.record_id, r.url) for r in rows],
               [VERDICT_STYLE.get(r.verdict) for r in rows])


@click.command()
@click.argument("ref")
@click.option("--text", "with_text", is_flag=True, help="Print the extracted main text too.")
@json_option
@library_option
@click.pass_context
def show(ctx: click.Context, ref: str, with_text: bool, as_json: bool,
         library_here: str | None) -> None:
    """One record (by id, id prefix, or the newest capture of a URL)."""
    lib = open_library(ctx, library_here)
    record = lib.resolve(recorded_ref(lib, ref))[0]
    text = lib.text(record.text_sha256) if with_text else None
    if as_json:
        data = record.to_dict()
        data["record_path"] = lib.record_location(record.record_id)
        if with_text:
            data["text"] = text
        emit_json(data)
        return
    # The YAML and the page's text are printed as they are, byte for byte: never re-wrapped,
    # so the YAML still parses and the page keeps its own lines.
    click.echo(f"# {describe(record)}")
    click.echo(f"# record: {lib.record_location(record.record_id)}")
    click.echo(record.to_yaml(), nl=False)
    if with_text:
        click.echo("--- main text ---")
        click.echo(text if text is not None else "(no text kept)")


@click.command()
@click.argument("url")
@json_option
@library_option
@click.pass_context
def history(ctx: click.Context, url: str, as_json: bool, library_here: str | None) -> None:
    """Every capture of URL, and the distinct texts it has said over time."""
    lib = open_library(ctx, library_here)
    rows = list(reversed(lib.index.for_url(recorded_ref(lib, url))))
    if not rows:
        from readreceipt.errors import RecordNotFound

        raise RecordNotFound(f"no capture of {url} in {lib.where}", url=url, reason="unknown_url")
    from readreceipt.history import compare, text_versions

    texts = text_versions(list(reversed(rows)))
    captures = [{**r.to_dict(), "text_version": texts.get(r.text_sha256 or "")} for r in rows]
    # What changed each time the page said something new: the first capture of each
    # version against the one before it (one pass over the captures, oldest first: the
    # first of each digest comes in the versions' order).
    first_of: dict[str, Retrieval] = {}
    for r in rows:
        if r.text_sha256:
            first_of.setdefault(r.text_sha256, r)
    firsts = list(first_of.values())
    changes = [(v, older, newer, compare(lib, older, newer))
               for v, (older, newer) in enumerate(itertools.pairwise(firsts), start=1)]
    if as_json:
        emit_json({"url": url, "captures": captures, "distinct_texts": len(texts),
                   "changes": [{"from_version": v, "to_version": v + 1,
                                "from_record": older.record_id, "to_record": newer.record_id,
                                "words_removed": diff.words_removed if diff else None,
                                "words_added": diff.words_added if diff else None}
                               for v, older, newer, diff in changes]})
        return
    out = console()
    out.print(f"{url}: {counted(len(captures), 'capture')}, "
              f"{counted(len(texts), 'distinct text')}", markup=False)
    print_rows(out, ("fetched (UTC)", "verdict", "reason", "text", "bytes sha256", "record"),
               [(c["fetched_at"][:19].replace("T", " "), c["verdict"], c["reason"],
                 f"v{c['text_version']}" if c["text_version"] else "-",
                 (c["bytes_sha256"] or "")[:12], c["record_id"]) for c in captures],
               [VERDICT_STYLE.get(c["verdict"]) for c in captures])
    _print_changes(changes)


def _print_changes(changes: list[tuple[int, Retrieval, Retrieval, Diff | None]]) -> None:
    """Each new version's short word diff against the one before: [-removed-] {+added+}.
    The page's words are marked as any web text is, and never taken as console markup."""
    from readreceipt.agents.fence import one_line
    from readreceipt.history import short_changes

    for version, older, newer, diff in changes:
        head = (f"v{version} \u2192 v{version + 1} ({older.fetched_at[:19].replace('T', ' ')} "
                f"\u2192 {newer.fetched_at[:19].replace('T', ' ')}): ")
        if diff is None:
            click.echo(head + "the text of one of them is no longer held")
            continue
        click.echo(head + f"{counted(diff.words_removed, 'word')} removed, "
                   f"{counted(diff.words_added, 'word')} added")
        lines, more = short_changes(diff)
        for line in lines:
            click.echo(f"  \u2026{one_line(line, 300)}\u2026")
        if more:
            click.echo(f"  ({counted(more, 'more change')}: `readreceipt serve` shows the "
                       "whole diff)")


@click.command()
@click.option("--repair", is_flag=True, help="First remove what killed writers left behind "
              "(temporary files untouched for an hour; nothing else is changed).")
@json_option
@library_option
@click.pass_context
def verify(ctx: click.Context, repair: bool, as_json: bool, library_here: str | None) -> None:
    """Check every blob, text and record; exit 1 naming each problem found."""
    from readreceipt.progress import progress_bar, stderr_is_terminal

    lib = open_library(ctx, library_here)
    removed = lib.remove_leftovers() if repair else []
    with progress_bar("verifying", enabled=stderr_is_terminal() and not as_json) as progress:
        checked, problems = lib.verify(progress)
    if as_json:
        emit_json({"checked": checked, "ok": not problems,
                   "problems": [p.to_dict() for p in problems],
                   "removed": [item.to_dict() for item in removed]})
    else:
        for item in removed:
            click.echo(f"removed {item.path}: {item.describe()}")
        for p in problems:
            name = p.digest or p.record_id
            click.echo(f"{p.kind}: {name}: {p.detail}" if name else f"{p.kind}: {p.detail}")
        click.echo(f"{checked} blobs, texts and records checked; "
                   f"{counted(len(problems), 'problem')}")
    ctx.exit(ExitCode.LIBRARY if problems else ExitCode.OK)


@click.command()
@click.argument("ref")
@json_option
@library_option
@click.pass_context
def forget(ctx: click.Context, ref: str, as_json: bool,
           library_here: str | None) -> None:
    """Remove the bytes and texts of a record (or every capture of a URL); keep the records."""
    lib = open_library(ctx, library_here)
    if not ref.strip():
        raise UsageError("forget needs a record id or a URL", reason="no_ref")
    named = lib.resolve(recorded_ref(lib, ref))
    changed = lib.forget(recorded_ref(lib, ref))
    done = {r.record_id for r in changed}
    before = [r for r in named if r.record_id not in done]
    if as_json:
        emit_json({"forgotten": [r.record_id for r in changed],
                   "already_forgotten": [r.record_id for r in before]})
        return
    for r in changed:
        click.echo(f"forgot the bytes of {r.record_id} ({r.url}); the record stays")
    for r in before:
        click.echo(f"the bytes of {r.record_id} ({r.url}) were not held already; nothing "
                   "changed")
