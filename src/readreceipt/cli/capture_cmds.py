"""``readreceipt capture`` and ``readreceipt check``: thin adapters over capture and answers."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from readreceipt.cli import emit_json, error_json
from readreceipt.cli._common import (
    console,
    fetch_options,
    json_option,
    library_option,
    open_library,
)
from readreceipt.errors import LibraryError, ReadReceiptError, UsageError, batch_exit_code
from readreceipt.pipeline import KEEP_CHOICES, CaptureOptions, CaptureResult
from readreceipt.pipeline import capture as run_capture
from readreceipt.reading.wording import describe
from readreceipt.store.library import Library


def read_answer(source: str) -> str:
    """The answer text from a file, or stdin for ``-``."""
    try:
        if source == "-":
            return sys.stdin.read()
        return Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the answer from {source}: {exc}",
                         reason="bad_answer") from exc


def _urls(urls: tuple[str, ...], from_file: str | None) -> list[str]:
    found = list(urls)
    if from_file:
        try:
            text = sys.stdin.read() if from_file == "-" else Path(from_file).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read URLs from {from_file}: {exc}",
                             reason="bad_url_file") from exc
        found += [line.strip() for line in text.splitlines()
                  if line.strip() and not line.lstrip().startswith("#")]
    if not found:
        raise UsageError("give at least one URL (or --from FILE)", reason="no_url")
    return found


@click.command()
@click.argument("urls", nargs=-1)
@click.option("--from", "from_file", metavar="FILE", help="Read URLs from FILE, one a line.")
@fetch_options
@click.option("--wait", type=click.FloatRange(min=0), default=None,
              help="Seconds to wait for the host's turn before declining (default: 0 for one "
              "URL; with several, each waits its turn, up to the longest Crawl-delay kept).")
@click.option("--prompt", help="What the agent asked of the page (kept in the record).")
@click.option("--answer", "answer_file", metavar="FILE",
              help="Check the quotations of this answer (file or -) against the page.")
@click.option("--session", "session_id", help="Session id to record.")
@click.option("--agent", "agent_id", help="Agent id to record.")
@click.option("--keep", type=click.Choice(KEEP_CHOICES), default="all", show_default=True,
              help="Whose bytes to keep.")
@click.option("--no-render", is_flag=True, help="Never run a browser on a JavaScript shell.")
@json_option
@library_option
@click.pass_context
def capture(ctx: click.Context, urls: tuple[str, ...], from_file: str | None, now: bool,
            wait: float | None, prompt: str | None, answer_file: str | None, session_id: str | None,
            agent_id: str | None, timeout: float, max_bytes: int, resolve: tuple[str, ...],
            keep: str, no_render: bool, as_json: bool, library_here: str | None) -> None:
    """Fetch URL(s) again, keep the bytes and a record, and say whether it was a real read."""
    targets = _urls(urls, from_file)
    batch = len(targets) > 1 or from_file is not None
    if wait is None:  # a batch is paced, not declined: each capture waits for its host's turn
        from readreceipt.fetching.politeness import MAX_CRAWL_DELAY

        wait = MAX_CRAWL_DELAY if batch else 0.0
    answer = read_answer(answer_file) if answer_file else None
    options = CaptureOptions(now=now, wait=wait, timeout=timeout, max_bytes=max_bytes,
                             session_id=session_id, agent_id=agent_id, prompt=prompt,
                             answer=answer, resolve=resolve, keep=keep, render=not no_render)
    lib = open_library(ctx, library_here)
    if not batch:
        result = run_capture(targets[0], options, lib)
        if as_json:
            emit_json(result.to_json())
        else:
            _print_result(result)
        ctx.exit(result.exit_code)
    ctx.exit(_capture_batch(targets, options, lib, as_json))


def _capture_batch(targets: list[str], options: CaptureOptions, lib: Library,
                   as_json: bool) -> int:
    """Several URLs (or ``--from``): each captured in turn, a failure of one not stopping the
    rest, unless the library itself failed; the batch's exit code (``batch_exit_code``)."""
    results: list[dict[str, Any]] = []
    codes: list[int] = []
    stopped: LibraryError | None = None
    for index, url in enumerate(_progress(targets, as_json)):
        try:
            result = run_capture(url, options, lib)
        except ReadReceiptError as exc:
            codes.append(exc.exit_code)
            results.append({"url": url, "error": error_json(exc)})
            if not as_json:
                click.echo(f"{url}\n  {type(exc).__name__.replace('Error', '').upper()}: {exc}",
                           err=True)
            if isinstance(exc, LibraryError):
                # Nothing more can be written down: asking the other servers would be for
                # nothing. What was stored stays stored.
                stopped = exc
                results += [{"url": rest, "attempted": False} for rest in targets[index + 1:]]
                click.echo(f"readreceipt: the batch stopped at {url}: the library cannot be "
                           f"written; {len(targets) - index - 1} URLs were not attempted",
                           err=True)
                break
            continue
        codes.append(result.exit_code)
        results.append({**result.to_json(), "exit_code": result.exit_code})
        if not as_json:
            _print_result(result)
    if as_json:
        emit_json({"captures": results})
    return batch_exit_code(codes, stopped=stopped is not None)


def _progress(items: list[str], quiet: bool) -> Iterator[str]:
    """The URLs, with a bar on a terminal's stderr naming the one being captured."""
    from readreceipt.progress import progress_bar, stderr_is_terminal

    show = len(items) > 1 and not quiet and stderr_is_terminal()
    with progress_bar("capturing", enabled=show, total=len(items)) as progress:
        for item in items:
            progress.describe(item)
            yield item
            progress.advance()


def _print_result(result: CaptureResult) -> None:
    r = result.record
    out = console()
    out.print(r.url, markup=False)
    style = {"RETRIEVED": "green", "FAILED": "red"}.get(r.verdict, "yellow")
    out.print(f"  [{style}]{describe(r)}[/]")
    if result.reused:
        out.print(f"  (answered from the copy fetched at {r.fetched_at}; --now fetches again)")
    if r.final_url and r.final_url != r.url:
        out.print(f"  final URL: {r.final_url}", markup=False)
    if r.policy_exemption:
        out.print(f"  note: {r.policy_exemption}", markup=False)
    out.print(f"  record: {result.record_path}", markup=False)
    if r.answer_check is not None:
        _print_check(r.answer_check)


def _print_check(check: dict[str, Any]) -> None:
    out = console()
    outcome = check.get("outcome")
    if outcome == "not_run":
        out.print(f"  answer check: not run ({check.get('reason')}); this is not a pass")
        return
    out.print(f"  answer check: {outcome}")
    for passage in check.get("passages", []):
        mark = "[green]found[/]" if passage.get("found") else "[red]NOT on the page[/]"
        out.print(f"    {mark}: \u201c{_short(passage.get('text', ''))}\u201d", highlight=False)
        if not passage.get("found") and passage.get("nearest"):
            sim = passage.get("similarity")
            out.print(f"      the page says: \u201c{_short(passage['nearest'])}\u201d"
                      + (f" ({sim:.0f}% similar)" if isinstance(sim, int | float) else ""))


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


@click.command()
@click.argument("url")
@click.option("--answer", "answer_file", required=True, metavar="FILE",
              help="The answer to check (a file, or - for stdin).")
@click.option("--prompt", default="", help="What the agent asked (its words are not checked).")
@click.option("--fetch", "fetch_first", is_flag=True,
              help="Capture the URL first when no copy is held.")
@click.option("--session", "session_id", help="Session id to record.")
@json_option
@library_option
@click.pass_context
def check(ctx: click.Context, url: str, answer_file: str, prompt: str, fetch_first: bool,
          session_id: str | None, as_json: bool, library_here: str | None) -> None:
    """Check an answer's quotations against the newest copy of URL held; no request made."""
    from readreceipt.errors import RecordNotFound
    from readreceipt.quotes.answers import check_newest

    answer = read_answer(answer_file)
    lib = open_library(ctx, library_here)
    try:
        held = check_newest(lib, url, answer, prompt, session_id)
    except RecordNotFound:
        if not fetch_first:
            raise
        run_capture(url, CaptureOptions(session_id=session_id, prompt=prompt or None), lib)
        held = check_newest(lib, url, answer, prompt, session_id)
    if as_json:
        emit_json(held.to_json())
    else:
        out = console()
        out.print(f"{held.record.url}", markup=False)
        out.print(f"  checked against the copy fetched at {held.record.fetched_at} "
                  f"(record {held.record.record_id}, {held.record.verdict})", markup=False)
        _print_check(held.answer_check)
    ctx.exit(held.exit_code)


