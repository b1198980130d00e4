"""``readreceipt capture`` and ``readreceipt check``: thin adapters over capture and answers."""

from __future__ import annotations

from typing import Any

import click

from readreceipt.cli import emit_json, error_json
from readreceipt.cli._common import (
    console,
    fetch_options,
    json_option,
    library_option,
    open_library,
    say_library,
)
from readreceipt.cli._inputs import MAX_URLS, Seconds, read_answer, read_urls
from readreceipt.errors import LibraryError, ReadReceiptError, UsageError, batch_exit_code
from readreceipt.pipeline import KEEP_CHOICES, CaptureOptions, CaptureResult
from readreceipt.pipeline import capture as run_capture
from readreceipt.progress import progress_bar, stderr_is_terminal
from readreceipt.reading.wording import describe
from readreceipt.store.library import Library


def _urls(urls: tuple[str, ...], from_file: str | None) -> list[str]:
    found = list(urls)
    if from_file:
        found += read_urls(from_file)
    if not found:
        raise UsageError("give at least one URL (or --from FILE)", reason="no_url")
    if len(found) > MAX_URLS:
        raise UsageError(f"{len(found):,} URLs given; one capture takes at most {MAX_URLS:,}",
                         reason="too_many_urls")
    return found


@click.command()
@click.argument("urls", nargs=-1)
@click.option("--from", "from_file", metavar="FILE",
              help="Read URLs from FILE (or - for stdin), one a line; blank lines and "
              "# comments are skipped.")
@fetch_options
@click.option("--wait", type=Seconds(0), default=None,
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
    lib = open_library(ctx, library_here, create=True)
    if not batch:
        result = run_capture(targets[0], options, lib)
        if as_json:
            emit_json({**result.to_json(), "library": str(lib.root)})
        else:
            _print_result(result)
        say_library(lib, as_json)
        ctx.exit(result.exit_code)
    code = _capture_batch(targets, options, lib, as_json)
    say_library(lib, as_json)
    ctx.exit(code)


def _capture_batch(targets: list[str], options: CaptureOptions, lib: Library,
                   as_json: bool) -> int:
    """Several URLs (or ``--from``): each captured in turn, a failure of one not stopping the
    rest, unless the library itself failed; the batch's exit code (``batch_exit_code``)."""
    results: list[dict[str, Any]] = []
    codes: list[int] = []
    stopped = False
    show = not as_json and stderr_is_terminal()
    with progress_bar("capturing", enabled=show, total=len(targets)) as progress:
        for index, url in enumerate(targets):
            progress.describe(url)
            try:
                result = run_capture(url, options, lib)
            except ReadReceiptError as exc:
                codes.append(exc.exit_code)
                results.append({"url": url, "error": error_json(exc)})
                if not as_json:
                    with progress.paused():
                        click.echo(f"{url}\n  {type(exc).__name__.replace('Error', '').upper()}"
                                   f": {exc}", err=True)
                if isinstance(exc, LibraryError):
                    # Nothing more can be written down: asking the other servers would be
                    # for nothing. What was stored stays stored.
                    stopped = True
                    left = targets[index + 1:]
                    results += [{"url": rest, "attempted": False} for rest in left]
                    with progress.paused():
                        click.echo(f"readreceipt: the batch stopped at {url}: the library "
                                   f"cannot be written; {len(left)} URLs were not attempted",
                                   err=True)
                    break
            else:
                codes.append(result.exit_code)
                results.append({**result.to_json(), "exit_code": result.exit_code})
                if not as_json:
                    with progress.paused():
                        _print_result(result)
            progress.advance()
    if as_json:
        emit_json({"captures": results, "library": str(lib.root)})
    return batch_exit_code(codes, stopped=stopped)


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
    lib = open_library(ctx, library_here, create=fetch_first)
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


