"""``readreceipt capture`` and ``readreceipt check``: thin adapters over capture and answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape

from readreceipt.agents.fence import one_line
from readreceipt.cli import emit_json, error_json, refusal_hint
from readreceipt.cli._common import (
    console,
    fetch_options,
    json_option,
    library_option,
    open_library,
    say_library,
)
from readreceipt.cli._inputs import MAX_URLS, Seconds, read_answer, read_urls
from readreceipt.errors import (
    ExitCode,
    LibraryError,
    ReadReceiptError,
    UsageError,
    batch_exit_code,
)
from readreceipt.pipeline import KEEP_CHOICES, CaptureOptions, CaptureResult
from readreceipt.pipeline import capture as run_capture
from readreceipt.progress import progress_bar, stderr_is_terminal
from readreceipt.reading.wording import counted, describe
from readreceipt.store.library import Library

if TYPE_CHECKING:
    from readreceipt.batch import Outcome

#: The most workers ``capture --jobs`` starts (two cores here; the work is mostly waiting).
MAX_JOBS = 32


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
              help="Seconds to wait for the host's turn before declining (default: 10 for one "
              "URL, as fetch; with several, each waits its turn, up to the longest "
              "Crawl-delay kept; 0: decline at once).")
@click.option("--prompt", help="What the agent asked of the page (kept in the record).")
@click.option("--answer", "answer_file", metavar="FILE",
              help="Check the quotations of this answer (file or -) against the page.")
@click.option("--session", "session_id", help="Session id to record.")
@click.option("--agent", "agent_id", help="Agent id to record.")
@click.option("--keep", type=click.Choice(KEEP_CHOICES), default="all", show_default=True,
              help="Whose bytes to keep.")
@click.option("--no-render", is_flag=True, help="Never run a browser on a JavaScript shell.")
@click.option("--jobs", "-j", type=click.IntRange(min=1, max=MAX_JOBS), default=1,
              show_default=True, help="Workers capturing at once; those after one host keep "
              "its pace together.")
@json_option
@library_option
@click.pass_context
def capture(ctx: click.Context, urls: tuple[str, ...], from_file: str | None, now: bool,
            wait: float | None, prompt: str | None, answer_file: str | None, session_id: str | None,
            agent_id: str | None, timeout: float, max_bytes: int, resolve: tuple[str, ...],
            keep: str, no_render: bool, jobs: int, as_json: bool,
            library_here: str | None) -> None:
    """Fetch URL(s) again, keep the bytes and a record, and say whether it was a real read."""
    if from_file == "-" and answer_file == "-":  # the URLs would leave the answer empty
        raise UsageError("--from - and --answer - cannot both read stdin: give one of them "
                         "a file", reason="stdin_twice")
    targets = _urls(urls, from_file)
    batch = len(targets) > 1 or from_file is not None
    if wait is None:  # a batch is paced, not declined: each capture waits for its host's turn
        from readreceipt.fetching.politeness import DEFAULT_WAIT, MAX_CRAWL_DELAY

        wait = MAX_CRAWL_DELAY if batch else DEFAULT_WAIT
    answer = read_answer(answer_file) if answer_file else None
    # With several URLs the answer is checked against all their pages at once (a quotation
    # is found on any of them), and that one check is written down once they are captured.
    options = CaptureOptions(now=now, wait=wait, timeout=timeout, max_bytes=max_bytes,
                             session_id=session_id, agent_id=agent_id, prompt=prompt,
                             answer=answer, resolve=resolve, keep=keep, render=not no_render,
                             record_answer=not batch)
    lib = open_library(ctx, library_here, create=True, connections=max(4, jobs))
    if not batch:
        result = run_capture(targets[0], options, lib)
        if as_json:
            emit_json({**result.to_json(), "library": lib.where})
        else:
            _print_result(result)
        say_library(lib, as_json)
        ctx.exit(result.exit_code)
    from readreceipt.batch import BatchInterrupted

    cut: int | None = None
    interrupted = False
    in_turn = jobs == 1 or len(targets) == 1
    try:
        outcomes = _capture_all(targets, options, lib, jobs, as_json)
    except BatchInterrupted as stop:
        outcomes, interrupted = stop.outcomes, True
        # In turn, Ctrl-C came during the capture after the last one done; under --jobs the
        # captures running finished (batch.py waits for them).
        cut = next((i for i, o in enumerate(outcomes) if o is None), None) if in_turn else None
    ctx.exit(_batch_result(targets, outcomes, lib, as_json, options, interrupted=interrupted,
                           cut=cut))


def _capture_all(targets: list[str], options: CaptureOptions, lib: Library, jobs: int,
                 as_json: bool) -> list[Outcome]:
    """Each result printed as it comes, under a progress bar at a terminal; the outcomes in
    the order given (:func:`readreceipt.batch.capture_batch`: a failure of one URL does not
    stop the rest, a failed library does; Ctrl-C raises BatchInterrupted)."""
    from readreceipt.batch import capture_batch

    show = not as_json and stderr_is_terminal()
    with progress_bar("capturing", enabled=show, total=len(targets)) as progress:
        def started(_: int, url: str) -> None:
            progress.describe(url)

        def done(_: int, url: str, outcome: Outcome) -> None:
            if not as_json:
                with progress.paused():
                    _print_outcome(url, outcome)
            progress.advance()

        return capture_batch(targets, options, lib, jobs=jobs, done=done, started=started)


def _print_outcome(url: str, outcome: Outcome) -> None:
    if isinstance(outcome, ReadReceiptError):
        kind = type(outcome).__name__.replace("Error", "").upper()
        click.echo(f"{url}\n  {kind}: {outcome}{refusal_hint(outcome)}", err=True)
    elif outcome is not None:
        _print_result(outcome, with_check=False)  # the answer is checked against them all


def _batch_result(targets: list[str], outcomes: list[Outcome], lib: Library,
                  as_json: bool, options: CaptureOptions, *, interrupted: bool = False,
                  cut: int | None = None) -> int:
    """Check the answer against every page had, print the batch's JSON (each URL's object and
    its own exit code, and the answer's check) and say whether it stopped; its exit code
    (:func:`readreceipt.errors.batch_exit_code`; 130 when Ctrl-C stopped it)."""
    from readreceipt.quotes.answerlog import check_across

    results: list[dict[str, Any]] = []
    codes: list[int] = []
    for i, (url, outcome) in enumerate(zip(targets, outcomes, strict=True)):
        if outcome is None:  # never started; or, under Ctrl-C, the capture cut short
            results.append({"url": url, "attempted": i == cut})
        elif isinstance(outcome, ReadReceiptError):
            results.append({"url": url, "error": error_json(outcome)})
            codes.append(outcome.exit_code)
        else:
            page = outcome.to_json()
            page.pop("answer_check", None)  # the answer is checked against all the pages
            results.append({**page, "exit_code": outcome.page_exit_code})
            codes.append(outcome.page_exit_code)
    checked = check_across(lib, [o.answer for o in outcomes if isinstance(o, CaptureResult)
                                 and o.answer is not None],
                           options.session_id, options.agent_id)
    if checked is not None:
        codes.append(checked.exit_code)
        if not as_json:
            pages = len(checked.pages)
            console().print(f"the answer, against {pages} page{'' if pages == 1 else 's'}:",
                            markup=False)
            _print_check(checked.check)
    left = sum(1 for outcome in outcomes if outcome is None)
    stopped = any(isinstance(outcome, LibraryError) for outcome in outcomes)
    if stopped:
        failed = next(url for url, o in zip(targets, outcomes, strict=True)
                      if isinstance(o, LibraryError))
        click.echo(f"readreceipt: the batch stopped at {failed}: the library cannot be "
                   f"written; {counted(left, 'URL')} {'was' if left == 1 else 'were'} not "
                   "attempted", err=True)
    if interrupted:
        made = len(outcomes) - left
        cut_short = f"the capture of {targets[cut]} cut short, " if cut is not None else ""
        click.echo(f"readreceipt: interrupted: {made} of {len(outcomes)} URLs done, "
                   f"{cut_short}{left - (cut is not None)} not attempted", err=True)
    if as_json:
        emit_json({"captures": results,
                   **({"answer_check": checked.check} if checked is not None else {}),
                   **({"interrupted": True} if interrupted else {}),
                   "library": lib.where})
    say_library(lib, as_json)
    if interrupted:
        return ExitCode.INTERRUPTED
    return batch_exit_code(codes, stopped=stopped)


def _print_result(result: CaptureResult, *, with_check: bool = True) -> None:
    """A capture for people. Every value that came from a server, a page or an answer is
    escaped before it reaches rich's markup: a ``[sic]`` would vanish, a ``[/b]`` fail."""
    r = result.record
    out = console()
    out.print(result.url, markup=False)
    style = {"RETRIEVED": "green", "FAILED": "red"}.get(r.verdict, "yellow")
    # The detail may quote the server (a reason phrase, a header line the parser refused):
    # marked like any web text an agent may read, and never taken as console markup.
    out.print(f"  [{style}]{escape(one_line(describe(r), 2000))}[/]")
    if result.reused:
        of = f" of {r.url}" if r.url != result.url else ""
        out.print(f"  (answered from the copy{of} fetched at {r.fetched_at}; --now fetches "
                  "again)", markup=False)
    if r.final_url and r.final_url != result.url:
        out.print(f"  final URL: {r.final_url}", markup=False)
    if r.policy_exemption:
        out.print(f"  note: {r.policy_exemption}", markup=False)
    out.print(f"  record: {result.record_location}", markup=False)
    if with_check and result.answer is not None:
        _print_check(result.answer.check)


def _print_check(check: dict[str, Any]) -> None:
    out = console()
    outcome = check.get("outcome")
    if outcome == "not_run":
        out.print(f"  answer check: not run ({check.get('reason')}); this is not a pass",
                  markup=False)
        return
    out.print(f"  answer check: {outcome}", markup=False)
    several = "pages" in check  # checked against several pages: each passage names its own
    for passage in check.get("passages", []):
        if passage.get("found"):
            mark = "[green]found[/]" + (f" on {escape(str(passage.get('url')))}" if several
                                        else "")
        else:
            mark = "[red]NOT on any of the pages[/]" if several else "[red]NOT on the page[/]"
        out.print(f"    {mark}: \u201c{_short(passage.get('text', ''))}\u201d", highlight=False)
        if not passage.get("found") and passage.get("nearest"):
            sim = passage.get("similarity")
            where = f"{escape(str(passage.get('url')))} says" if several else "the page says"
            out.print(f"      {where}: \u201c{_short(passage['nearest'])}\u201d"
                      + (f" ({sim:.0f}% similar)" if isinstance(sim, int | float) else ""),
                      highlight=False)
    _print_claims(check.get("claims") or [], several)
    for page in check.get("pages", []):
        if page.get("outcome") == "not_run":
            out.print(f"    not checked against {page.get('url')} ({page.get('reason')})",
                      markup=False)


_TEXTS = {"main": "main content", "page": "visible text", "table": "a table",
          "metadata": "the publisher's metadata"}


def _print_claims(claims: list[dict[str, Any]], several: bool) -> None:
    """The figures and names: how many were found, then each one rounded or not found."""
    if not claims:
        return
    out = console()
    tally = {o: sum(1 for c in claims if c.get("outcome") == o)
             for o in ("found", "approximate", "not_found", "not_run")}
    words = [f"{tally['found']} found"]
    if tally["approximate"]:
        words.append(f"{tally['approximate']} approximate")
    if tally["not_found"]:
        words.append(f"[red]{tally['not_found']} NOT on the page as fetched[/]")
    if tally["not_run"]:
        words.append(f"{tally['not_run']} not checked (too many)")
    out.print(f"    figures and names: {', '.join(words)}", highlight=False)
    for claim in claims:
        outcome = claim.get("outcome")
        what = f"{claim.get('kind')} \u201c{_short(claim.get('text', ''))}\u201d"
        on = f" on {escape(str(claim.get('url')))}" if several and claim.get("url") else ""
        if outcome == "approximate":
            out.print(f"    [yellow]approximate[/]: {what}{on}; the page says "
                      f"\u201c{_short(claim.get('match') or '')}\u201d", highlight=False)
        elif outcome == "not_found":
            mark = "[red]NOT on any of the pages[/]" if several else \
                "[red]NOT on the page as fetched[/]"
            out.print(f"    {mark}: {what}", highlight=False)
            if claim.get("nearest"):
                where = _TEXTS.get(str(claim.get("where")), "its text")
                out.print(f"      nearest figure beside the same words{on} ({where}): "
                          f"\u201c{_short(claim['nearest'])}\u201d", highlight=False)


def _short(text: str, limit: int = 160) -> str:
    """A passage (an answer's or a page's words) on one marked line, as console text."""
    return escape(one_line(str(text), limit))


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
    """Check an answer's quotations, figures and names against the newest copy of URL held;
    no request made."""
    from readreceipt.errors import RecordNotFound
    from readreceipt.quotes.answerlog import check_newest

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
        page = held.page
        out.print(f"{page.url}", markup=False)
        out.print(f"  checked against the copy fetched at {page.fetched_at} "
                  f"(record {page.record_id}, {page.verdict})", markup=False)
        _print_check(held.check)
    ctx.exit(held.exit_code)


