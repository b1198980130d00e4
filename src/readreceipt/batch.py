"""A batch of captures run by N workers: ``readreceipt capture --from FILE --jobs N``.

Each worker is a thread that takes the next URL and runs :func:`readreceipt.pipeline.capture`
on it. Politeness needs nothing of its own here: the pacing schedule, the robots.txt cache
and the dedup window live in the library's index, which every worker (and every other
process, on every machine of a team library) shares, so workers after one host queue one
gap apart while workers on different hosts run side by side.

A local library gives each worker its own connection to ``index.db`` (a SQLite connection
is not shared between threads); a team library is shared as it is (its connection pool and
object client are thread-safe), and should be opened with a pool of at least N connections.

Results come back in the order of the URLs given, whatever order they finish in; a capture
that raised is returned as its exception. Ctrl-C stops handing out URLs; the captures
already running finish and are kept. So does a :class:`~readreceipt.errors.LibraryError`
(the library cannot be written: asking more servers would be for nothing); a URL not
started then is returned as None.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from readreceipt.errors import LibraryError, ReadReceiptError
from readreceipt.pipeline import CaptureOptions, CaptureResult, capture
from readreceipt.store.library import Library

#: What became of one URL: its capture, the error it raised, or None (never started: the
#: batch stopped because the library cannot be written).
Outcome = CaptureResult | ReadReceiptError | None


def capture_batch(urls: Sequence[str], options: CaptureOptions, library: Library, *,
                  jobs: int, done: Callable[[int, str, Outcome], None] | None = None
                  ) -> list[Outcome]:
    """Capture every URL with ``jobs`` workers; one outcome per URL, in their order.
    ``done(i, url, outcome)`` is called (from the calling thread's view, one at a time) as
    each finishes."""
    local = threading.local()
    opened: list[Library] = []
    lock = threading.Lock()
    stopped = threading.Event()

    def worker_library() -> Library:
        if library.team is not None or jobs == 1:
            return library
        lib: Library | None = getattr(local, "library", None)
        if lib is None:
            lib = Library.open_local(library.root)
            local.library = lib
            with lock:
                opened.append(lib)
        return lib

    def one(i: int, url: str) -> Outcome:
        if stopped.is_set():
            return None
        try:
            outcome: Outcome = capture(url, options, worker_library())
        except ReadReceiptError as exc:
            outcome = exc
            if isinstance(exc, LibraryError):
                stopped.set()
        if done is not None:
            with lock:
                done(i, url, outcome)
        return outcome

    executor = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="capture")
    try:
        futures = [executor.submit(one, i, url) for i, url in enumerate(urls)]
        return [future.result() for future in futures]
    except BaseException:
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        executor.shutdown(wait=True)
        for lib in opened:
            lib.close()
