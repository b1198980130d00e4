"""Records read ahead of a reader that takes them in order (an export), on a team library.

Each record of a team library is an object, and so are its texts: read one after another,
an export of a million records waits for four million round trips to the object store in
turn (about 12 ms each to moto on loopback, more to a store a network away). Here a few
threads read the next records and their texts while the caller writes the current one, so
the round trips overlap.

Invariants:

- the records come out in the order of the ids, each with what reading it raised in its
  place when it could not be read (the caller decides what a damaged record means);
- at most :data:`WINDOW` records, with their texts, are held ahead of the caller: memory is
  bounded by the window, not by the number of records;
- the threads only read objects (never the index, whose connection is the caller's), and
  when the caller stops early the reads not begun are cancelled and the running ones waited
  for before the iterator is done;
- a text that could not be read ahead is simply not held: the caller reads it itself and
  meets the failure there, as without reading ahead.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

from readreceipt.errors import ReadReceiptError
from readreceipt.store.records import Record

log = logging.getLogger(__name__)

#: Records read ahead of the caller. Sixteen round trips in flight hide a 12 ms latency
#: behind the export's own work (about 3 ms a record); a record and its texts are a few
#: KiB to a few hundred KiB, so the window holds a few MiB at most.
WINDOW = 16
#: Threads reading them (the object client releases the interpreter while it waits).
THREADS = 8

#: What reading one record gave: the record, or the error it raised; and its texts read.
Read = tuple[Record | ReadReceiptError, dict[str, bytes]]


def _read(load: Callable[[str], Record], text: Callable[[str], bytes],
          record_id: str) -> Read:
    try:
        record = load(record_id)
    except ReadReceiptError as exc:
        return exc, {}
    texts: dict[str, bytes] = {}
    for digest in (record.text_sha256, record.page_text_sha256):
        if digest and digest not in texts:
            try:
                texts[digest] = text(digest)
            except Exception as exc:  # the caller reads it again and meets it there
                log.debug("text %s not read ahead: %s", digest, exc)
    return record, texts


def ahead(record_ids: Iterable[str], load: Callable[[str], Record],
          text: Callable[[str], bytes]) -> Iterator[tuple[str, Record | ReadReceiptError,
                                                          dict[str, bytes]]]:
    """``(record_id, record or its error, its texts by digest)`` for each id, in order,
    read :data:`WINDOW` ahead by :data:`THREADS` threads."""
    ids = iter(record_ids)
    pool = ThreadPoolExecutor(THREADS, thread_name_prefix="readreceipt-read-ahead")
    pending: deque[tuple[str, Future[Read]]] = deque()

    def submit() -> None:
        for record_id in ids:
            pending.append((record_id, pool.submit(_read, load, text, record_id)))
            return

    try:
        for _ in range(WINDOW):
            submit()
        while pending:
            record_id, future = pending.popleft()
            submit()
            record, texts = future.result()
            yield record_id, record, texts
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
