"""Progress of long library operations (export, verify, batch capture), shown or not.

The library reports progress through the small :class:`Progress` protocol and never decides
whether a bar is drawn: adapters pass :func:`progress_bar` (a rich bar on stderr) or nothing
(:data:`NO_PROGRESS`). No click here; rich is loaded only when a bar is actually drawn.

Invariants: a bar writes to stderr only, so ``--json`` output on stdout stays one object;
it is drawn only when asked for (adapters ask when stderr is a terminal); it is transient,
leaving no trace in the terminal once the work is done, however it ends; lines printed while
it runs are printed inside :meth:`Progress.paused`, so none of its frames is left behind.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, Protocol


class Progress(Protocol):
    """What a long operation tells its caller as it goes."""

    def start(self, total: int | None) -> None:
        """The amount of work, once known (None: unknown)."""

    def advance(self, steps: int = 1) -> None:
        """``steps`` more units done."""

    def describe(self, text: str) -> None:
        """What is being done now (a URL, a phase)."""

    def paused(self) -> contextlib.AbstractContextManager[None]:
        """A block in which the bar is off the screen, so that lines printed there (to
        stdout or stderr) are not mixed with it; it is drawn again afterwards."""


class _NoProgress:
    def start(self, total: int | None) -> None:
        return None

    def advance(self, steps: int = 1) -> None:
        return None

    def describe(self, text: str) -> None:
        return None

    def paused(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


#: The progress of a caller that shows none.
NO_PROGRESS: Progress = _NoProgress()


class _RichProgress:
    """One task of a rich progress display."""

    def __init__(self, bar: Any, task: Any, label: str) -> None:
        self._bar = bar
        self._task = task
        self._label = label

    def start(self, total: int | None) -> None:
        self._bar.update(self._task, total=total)

    def advance(self, steps: int = 1) -> None:
        self._bar.advance(self._task, steps)

    def describe(self, text: str) -> None:
        short = text if len(text) <= 60 else text[:59] + "\u2026"
        self._bar.update(self._task, description=f"{self._label} {short}")

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        self._bar.stop()  # transient: the bar's lines are erased
        try:
            yield
        finally:
            self._bar.start()


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stderr
        return False


@contextlib.contextmanager
def progress_bar(label: str, *, enabled: bool, total: int | None = None) -> Iterator[Progress]:
    """A transient rich bar on stderr labelled ``label`` when ``enabled``; else no progress."""
    if not enabled:
        yield NO_PROGRESS
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as RichBar

    console = Console(stderr=True, highlight=False)
    columns = (TextColumn("{task.description}", markup=False), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    # stdout is never redirected through the bar: data printed meanwhile stays on stdout
    # (a pipe, when it is one) instead of joining the bar on stderr.
    with RichBar(*columns, console=console, transient=True, redirect_stdout=False,
                 redirect_stderr=False) as bar:
        task = bar.add_task(label, total=total)
        yield _RichProgress(bar, task, label)
