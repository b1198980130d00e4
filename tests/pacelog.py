"""The pacing schedule as the index kept it, read back in a test without timing anything.

Pacing is a schedule in the index (``pacing``: each host's next free time); workers reserve
slots in it and sleep until theirs. A test that only timed the requests at its HTTP server
measured the machine's scheduler as well: on a loaded machine a worker woken late sends its
request close behind the next one's, though the schedule was right. So these tests put a
trigger on the ``pacing`` table that writes down every change (the host's next free time
before and after), and check two things that hold whatever the machine's speed:

- the slots the index handed out (and did not take back) are one gap apart or more;
- no request reached the server before its slot (the k-th arrival is no earlier than the
  k-th slot: both clocks are this machine's). Every request to the host but robots.txt
  takes a slot: the pages, and the probe of a path that should not exist (a soft 404).
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from readreceipt.localserver import LocalServer
    from teamstore import Team

#: Rounding between the two clocks' readings (the index's epoch floats, time.time()).
CLOCK_SLACK = 0.005


def log_sqlite(index_db: Path) -> None:
    """Write down every change to a local library's pacing schedule (the library made)."""
    with sqlite3.connect(index_db) as conn:
        conn.executescript("""
            CREATE TABLE pacing_log (seq INTEGER PRIMARY KEY, host TEXT, before REAL,
                                     after REAL);
            CREATE TRIGGER pacing_inserted AFTER INSERT ON pacing BEGIN
                INSERT INTO pacing_log (host, before, after) VALUES (NEW.host, NULL,
                                                                     NEW.next_at);
            END;
            CREATE TRIGGER pacing_updated AFTER UPDATE ON pacing BEGIN
                INSERT INTO pacing_log (host, before, after) VALUES (NEW.host, OLD.next_at,
                                                                     NEW.next_at);
            END;
        """)
    conn.close()


def sqlite_changes(index_db: Path) -> list[tuple[float | None, float]]:
    conn = sqlite3.connect(index_db)
    try:
        return list(conn.execute("SELECT before, after FROM pacing_log ORDER BY seq"))
    finally:
        conn.close()


def log_postgres(team: Team, setup_folder: Path) -> None:
    """Write down every change to a team index's pacing schedule (the index made here)."""
    from readreceipt.store.library import Library

    with Library.locate(setup_folder, index_url=team.index_url, blobs_url=team.blobs_url):
        pass  # opening it makes the tables
    # Unqualified: the test's URL puts its own schema first on the search path, for the
    # workers' connections as for this one.
    team.sql("CREATE TABLE pacing_log (seq BIGSERIAL PRIMARY KEY, host TEXT, "
             "before DOUBLE PRECISION, after DOUBLE PRECISION)")
    team.sql("CREATE FUNCTION log_pacing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
             "INSERT INTO pacing_log (host, before, after) VALUES (NEW.host, OLD.next_at, "
             "NEW.next_at); RETURN NEW; END $$")
    team.sql("CREATE TRIGGER pacing_logged AFTER UPDATE ON pacing FOR EACH ROW "
             "EXECUTE FUNCTION log_pacing()")


def postgres_changes(team: Team) -> list[tuple[float | None, float]]:
    return [(before, after) for before, after in
            team.sql("SELECT before, after FROM pacing_log ORDER BY seq")]


def slots(changes: Sequence[tuple[float | None, float]], gap: float) -> list[float]:
    """The slots handed out and kept, sorted: a reservation moves the host's next free time
    a gap past the slot's start; a slot given back moves it back to that start."""
    kept: list[float] = []
    for before, after in changes:
        if before is None or after > before:
            kept.append(after - gap)
        else:
            kept.remove(after)
    return sorted(kept)


def paced_requests(server: LocalServer) -> list[float]:
    """When each request that takes a slot reached ``server``: all but robots.txt's."""
    return [r["time"] for r in server.requests if r["path"] != "/robots.txt"]


def assert_paced(changes: Sequence[tuple[float | None, float]], arrivals: Sequence[float],
                 gap: float) -> None:
    """One slot a request, slots a gap apart or more, no request before its slot."""
    handed = slots(changes, gap)
    assert len(handed) == len(arrivals), (handed, arrivals)
    gaps = [b - a for a, b in itertools.pairwise(handed)]
    assert all(g >= gap - 1e-6 for g in gaps), gaps
    late = [arrival - slot for slot, arrival in zip(handed, sorted(arrivals), strict=True)]
    assert all(d >= -CLOCK_SLACK for d in late), late
