"""A batch of captures run by N workers: ``readreceipt capture --from FILE --jobs N``.

One job runs the captures in turn in the calling thread. N jobs run them in N worker
*processes*, never threads: trafilatura shares lxml objects (its parser, its compiled
expressions) between calls that are not safe across threads, and two threads extracting at
once crashed the interpreter (SIGSEGV, "double free or corruption"). A process of its own per
worker is also what lets a batch use every core: extraction holds the GIL.

Workers start warm, with the pipeline and its parsers imported once: forked from the caller
where that is safe (Linux, and the caller runs no other thread, so no lock can be copied
held), else from a *forkserver* that imported them (where its Unix socket's path fits under
the temporary folder), else spawned afresh. A worker never uses
what it inherited: it opens the library itself (its own SQLite connection, or its own
connection pool and object client for a team library) and takes URLs one at a time from the
caller, so a slow page holds one worker only.

Politeness needs nothing of its own here: the pacing schedule, the robots.txt cache and the
dedup window live in the library's index, which every worker (and every other process, on
every machine of a team library) shares, so workers after one host queue one gap apart while
workers on different hosts run side by side.

Invariants:
- results come back in the order of the URLs given, whatever order they finish in; a capture
  that raised is returned as its exception; ``done`` is called in the calling thread, one
  capture at a time, as each finishes;
- a :class:`~readreceipt.errors.LibraryError` (the library cannot be written: asking more
  servers would be for nothing) stops handing out URLs; the captures already running finish
  and are kept; a URL not started is returned as None;
- Ctrl-C (SIGINT, which a terminal sends the whole process group) reaches the caller only:
  the workers ignore it, so the captures already running finish and are kept, and then
  :class:`BatchInterrupted` is raised with the outcomes so far. A second Ctrl-C leaves at once
  (the running captures are abandoned: what a killed capture leaves, ``verify`` finds);
- a worker that dies (a crash in a parser, the OOM killer) costs its URL only: that URL's
  outcome is an error saying so, and a fresh worker takes its place;
- no worker outlives the batch: the caller stops them all before returning, and a worker
  whose caller vanished ends when it finds its pipe closed.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import FrameType
from typing import Any

from readreceipt import logs
from readreceipt.errors import LibraryError, ReadReceiptError
from readreceipt.pipeline import CaptureOptions, CaptureResult, capture
from readreceipt.store.library import Library
from readreceipt.store.team.config import TeamConfig

log = logging.getLogger(__name__)

#: What became of one URL: its capture, the error it raised, or None (never started: the
#: batch stopped because the library cannot be written, or was interrupted).
Outcome = CaptureResult | ReadReceiptError | None

#: What the forkserver imports once for every worker it starts (the heavy parsers with it).
#: ``__main__`` first: a worker then need not import the caller's script again.
_PRELOAD = ["__main__", "readreceipt.batch", "trafilatura", "selectolax.lexbor", "yaml"]

#: Seconds a stopped worker is given to leave before it is terminated.
_STOP_GRACE = 5.0


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped the batch after the captures already running finished; ``outcomes``
    holds one entry per URL (None: never started)."""

    def __init__(self, outcomes: list[Outcome]) -> None:
        super().__init__()
        self.outcomes = outcomes


class WorkerDied(ReadReceiptError):
    """The worker process capturing a URL ended without an answer (a crash in a parser, a
    kill): that URL's capture may or may not have been stored."""


def capture_batch(urls: Sequence[str], options: CaptureOptions, library: Library, *,
                  jobs: int, done: Callable[[int, str, Outcome], None] | None = None,
                  started: Callable[[int, str], None] | None = None) -> list[Outcome]:
    """Capture every URL with ``jobs`` workers; one outcome per URL, in their order.
    ``started(i, url)`` and ``done(i, url, outcome)`` are called in the calling thread as
    each capture begins and ends (a progress bar's hooks)."""
    if jobs <= 1 or len(urls) <= 1:
        return _in_turn(urls, options, library, done, started)
    return _Pool(urls, options, library, min(jobs, len(urls)), done, started).run()


def _in_turn(urls: Sequence[str], options: CaptureOptions, library: Library,
             done: Callable[[int, str, Outcome], None] | None,
             started: Callable[[int, str], None] | None) -> list[Outcome]:
    outcomes: list[Outcome] = [None] * len(urls)
    for i, url in enumerate(urls):
        if started is not None:
            started(i, url)
        outcome: Outcome
        try:
            outcome = capture(url, options, library)
        except ReadReceiptError as exc:
            outcome = exc
        except KeyboardInterrupt:
            raise BatchInterrupted(outcomes) from None
        outcomes[i] = outcome
        if done is not None:
            done(i, url, outcome)
        if isinstance(outcome, LibraryError):
            break
    return outcomes


# the caller's side -----------------------------------------------------------------------

@dataclass(frozen=True)
class _Setup:
    """What a worker needs to open the library and capture as the caller would."""

    root: Path
    team: TeamConfig | None
    options: CaptureOptions
    environ: dict[str, str]  # the caller's, now (the forkserver's would be older)
    log_level: int
    log_format: str | None


@dataclass(frozen=True)
class _Crash:
    """A worker's capture raised something that is not a ReadReceiptError (a bug)."""

    text: str


class _Worker:
    def __init__(self, context: Any, setup: _Setup) -> None:
        ours, theirs = context.Pipe(duplex=True)
        self.pipe: Connection = ours
        self.process = context.Process(target=_serve, args=(theirs, setup), daemon=True,
                                       name="readreceipt-capture")
        self.process.start()
        theirs.close()  # only the worker holds its end: our exit is its end of input
        self.job: tuple[int, str] | None = None

    def give(self, index: int, url: str) -> None:
        self.job = (index, url)
        self.pipe.send(self.job)

    def stop(self) -> None:
        with suppress(OSError):
            self.pipe.send(None)
        self.pipe.close()

    def reap(self, grace: float) -> None:
        self.process.join(grace)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(grace)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


class _Pool:
    def __init__(self, urls: Sequence[str], options: CaptureOptions, library: Library,
                 jobs: int, done: Callable[[int, str, Outcome], None] | None,
                 started: Callable[[int, str], None] | None) -> None:
        self.urls = urls
        self.done = done
        self.started = started
        self.jobs = jobs
        self.outcomes: list[Outcome] = [None] * len(urls)
        self.todo = deque(range(len(urls)))
        self.stopping = False  # no URL is handed out any more
        self.interrupts = 0
        self.crash: _Crash | None = None
        root_logger = logging.getLogger()
        formats = [h.formatter._fmt for h in root_logger.handlers if h.formatter is not None]
        self.setup = _Setup(library.root, library.team, options, dict(os.environ),
                            root_logger.level, formats[0] if formats else None)
        self.context = _context()

    def run(self) -> list[Outcome]:
        workers: list[_Worker] = []
        try:
            with _ctrl_c_counted(self), _sigint_blocked():
                workers = [_Worker(self.context, self.setup) for _ in range(self.jobs)]
            with _ctrl_c_counted(self):
                self._loop(workers)
        finally:
            grace = 0.0 if self.interrupts > 1 else _STOP_GRACE
            for worker in workers:
                worker.stop()
            for worker in workers:
                worker.reap(grace)
        if self.crash is not None:
            raise RuntimeError(f"a capture worker failed:\n{self.crash.text}")
        if self.interrupts:
            raise BatchInterrupted(self.outcomes)
        return self.outcomes

    def _loop(self, workers: list[_Worker]) -> None:
        while True:
            if self.interrupts:
                self.stopping = True
            for worker in workers:
                if worker.job is None and self.todo and not self.stopping:
                    index = self.todo.popleft()
                    worker.give(index, self.urls[index])
                    if self.started is not None:
                        self.started(index, self.urls[index])
            busy = [w for w in workers if w.job is not None]
            if not busy:
                return
            ready = wait([w.pipe for w in busy] + [w.process.sentinel for w in busy])
            for worker in busy:
                if worker.pipe in ready:
                    self._answer(worker, workers)
                elif worker.process.sentinel in ready:
                    self._died(worker, workers)

    def _answer(self, worker: _Worker, workers: list[_Worker]) -> None:
        assert worker.job is not None
        index, url = worker.job
        try:
            got = worker.pipe.recv()
        except (EOFError, OSError):
            self._died(worker, workers)
            return
        worker.job = None
        if isinstance(got, _Crash):
            self.crash, self.stopping = got, True
            return
        _, outcome = got
        self._finish(index, url, outcome)

    def _died(self, worker: _Worker, workers: list[_Worker]) -> None:
        assert worker.job is not None
        index, url = worker.job
        worker.job = None
        worker.process.join()
        code = worker.process.exitcode
        how = (f"was killed by signal {-code}" if code is not None and code < 0
               else f"exited with status {code}")
        self._finish(index, url, WorkerDied(
            f"the worker process capturing this URL {how} before it answered; a record may "
            "or may not have been stored (`readreceipt verify` finds what it left)",
            url=url, reason="worker_died"))
        worker.pipe.close()
        workers.remove(worker)
        if self.todo and not self.stopping:
            with _sigint_blocked():
                workers.append(_Worker(self.context, self.setup))

    def _finish(self, index: int, url: str, outcome: Outcome) -> None:
        self.outcomes[index] = outcome
        if isinstance(outcome, LibraryError):
            self.stopping = True
        if self.done is not None:
            self.done(index, url, outcome)


def _context() -> Any:
    """How workers start: forked from this process, warm, where that is safe (Linux, and no
    thread running here, so none can hold a lock the copy would inherit held); else from a
    forkserver that imports the pipeline once; else as fresh interpreters."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform.startswith("linux") and \
            threading.active_count() == 1:
        for name in _PRELOAD[1:]:  # imported once here, shared by every copy
            with suppress(ImportError):
                importlib.import_module(name)
        return multiprocessing.get_context("fork")
    if "forkserver" in methods and _socket_path_fits():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


#: The longest path of a Unix socket (Linux's sun_path holds 108 bytes, the last a NUL).
_SOCKET_PATH_MAX = 107
#: What multiprocessing adds to the temporary folder for the forkserver's socket
#: (``/pymp-XXXXXXXX/listener-XXXXXXXX``), with room to spare.
_SOCKET_SUFFIX = 40


def _socket_path_fits() -> bool:
    """Whether the forkserver's socket can be made in the temporary folder: under a long
    ``TMPDIR`` its path is too long for a Unix socket ("AF_UNIX path too long"), and the
    workers are spawned instead."""
    folder = os.fsencode(tempfile.gettempdir())
    return len(folder) + _SOCKET_SUFFIX <= _SOCKET_PATH_MAX


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back while workers start: a process started now (the forkserver, a
    worker) inherits the mask, so a Ctrl-C can never reach one before it ignores SIGINT."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextmanager
def _ctrl_c_counted(pool: _Pool) -> Iterator[None]:
    """Ctrl-C in the caller: the first stops handing out URLs (the running captures finish),
    the second leaves at once. Only the main thread receives signals; a batch run from
    another thread gets the caller's KeyboardInterrupt handling as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def count(signum: int, frame: FrameType | None) -> None:
        pool.interrupts += 1
        pool.stopping = True
        if pool.interrupts > 1:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, count)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# the worker's side -----------------------------------------------------------------------

def _serve(pipe: Connection, setup: _Setup) -> None:
    """A worker: open the library, then capture each URL the caller sends until it sends
    None or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller decides when a batch stops
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    os.environ.clear()
    os.environ.update(setup.environ)
    if setup.log_format is not None:
        logs.configure(setup.log_level, setup.log_format)
    library: Library | None = None
    try:
        while True:
            try:
                job = pipe.recv()
            except (EOFError, OSError):
                return
            if job is None:
                return
            index, url = job
            try:
                if library is None:
                    library = (Library.open_team(setup.root, setup.team, connections=1)
                               if setup.team is not None
                               else Library.open_local(setup.root, create=False))
                answer: Any = (index, capture(url, setup.options, library))
            except ReadReceiptError as exc:
                answer = (index, exc)
            except Exception:  # a bug: the caller stops the batch and says where
                answer = _Crash(traceback.format_exc())
            if not _send(pipe, answer):
                return
    finally:
        if library is not None:
            library.close()


def _send(pipe: Connection, answer: Any) -> bool:
    """Send one answer; an outcome that cannot be pickled goes as a plain error."""
    try:
        pipe.send(answer)
    except (BrokenPipeError, EOFError, OSError):
        return False
    except Exception as exc:
        index, outcome = answer if isinstance(answer, tuple) else (None, None)
        url = getattr(outcome, "url", None)
        try:
            pipe.send((index, ReadReceiptError(f"{outcome} ({type(exc).__name__} sending it "
                                               "back)", url=url, reason="worker_reply")))
        except (BrokenPipeError, EOFError, OSError):
            return False
    return True
