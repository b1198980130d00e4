"""The rendering's last resort: at the capture's deadline, the browser is killed.

Every playwright call the rendering makes carries the deadline, but reading the DOM
(``page.content()``) does not: it waits for the page's main thread, and a page that spins
(``while(true){}`` after load, its polling keeping the network busy) never gives it back,
so a capture with ``--timeout 15`` still ran at 600 s. The proxy's own deadline cuts only
connections, and a spinning page holds none. :class:`Watchdog` kills playwright's driver and
the browsers it started a grace period after the deadline; the blocked call then fails, and
the rendering is discarded as one past its time.

Which processes are the driver's is learnt by the children this process gained while the
driver started (under a lock, so two renderings starting at once do not take each other's),
read from ``/proc``; where there is no ``/proc`` nothing is killed and the deadline rests on
playwright's own timeouts, as before.

Invariants: nothing is killed before the deadline plus :data:`GRACE_SECONDS`; only processes
this rendering started are killed; :meth:`Watchdog.cancel` after the rendering kills nothing.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from readreceipt.fetching.deadline import Deadline

log = logging.getLogger(__name__)

#: How long past the deadline a rendering may still be finishing before it is killed: a
#: call in flight gets its own timeout first (the deadline's), and a kill leaves no record.
GRACE_SECONDS = 3.0
_STARTING = threading.Lock()
_T = TypeVar("_T")


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                found.update(int(c) for c in (task / "children").read_text().split())
    return found


def _descendants(pid: int) -> Iterator[int]:
    seen: set[int] = set()
    todo = [pid]
    while todo:
        here = todo.pop()
        for child in _children(here) - seen:
            seen.add(child)
            todo.append(child)
            yield child


def started(start: Callable[[], _T]) -> tuple[_T, set[int]]:
    """``start()`` (playwright's driver), and the processes this process gained meanwhile."""
    me = os.getpid()
    with _STARTING:
        before = _children(me)
        value = start()
        gained = _children(me) - before
    # Another thread may have started a process of its own meanwhile (a PDF's reader):
    # only playwright's driver is this rendering's.
    return value, {pid for pid in gained if b"playwright" in _cmdline(pid)}


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


class Watchdog:
    """Kills ``pids`` (and every process under them) at ``deadline`` plus the grace."""

    def __init__(self, pids: set[int], deadline: Deadline) -> None:
        self.pids = pids
        self.fired = False
        self._timer = threading.Timer(deadline.remaining() + GRACE_SECONDS, self._fire)
        self._timer.daemon = True

    def __enter__(self) -> Watchdog:
        if self.pids:
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()

    def cancel(self) -> None:
        self._timer.cancel()

    def _fire(self) -> None:
        self.fired = True
        doomed = [pid for root in self.pids for pid in (root, *_descendants(root))]
        log.warning("the browser was still busy past the capture's deadline; killing it")
        for pid in doomed:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
