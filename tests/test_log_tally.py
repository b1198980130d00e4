"""``status`` counts a local log's entries from where it last counted (store/local/jsonlog.py's
``tally``), and always as many as reading the log yields.

- after any mix of appends, damaged lines, a last line without its line break and several
  processes appending, the count equals the entries read;
- a second count reads only what was appended since the first: bytes before the tally's
  offset are not read again (a line overwritten in place, same size, is not seen);
- a log replaced (another inode) or cut shorter is counted again from its start;
- a read-only library counts without keeping a tally, and an index from before the
  tallies (migration 0010) gets them.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import tmpfs
from readreceipt.store.library import Library
from readreceipt.store.local import jsonlog

LOG = "skipped.jsonl"


@pytest.fixture
def lib(tmp_path: Path) -> Iterator[Library]:
    with Library.open_local(tmp_path / "lib") as opened:
        yield opened


def _read_count(lib: Library) -> int:
    return sum(1 for _ in lib.read_log(LOG))


def _tally_row(lib: Library) -> tuple[int, int, int] | None:
    with contextlib.closing(sqlite3.connect(lib.root / "index.db")) as conn:
        row = conn.execute("SELECT inode, offset, entries FROM log_tallies WHERE name = ?",
                           (LOG,)).fetchone()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


def test_the_count_is_the_entries_read_whatever_the_log_holds(lib: Library) -> None:
    assert lib.count_log(LOG) == 0  # no log yet
    path = lib.root / LOG
    for n in range(3):
        lib.log(LOG, {"url": f"https://example.org/{n}", "reason": "robots"})
    assert lib.count_log(LOG) == _read_count(lib) == 3
    with path.open("ab") as handle:  # damaged lines a reader passes over
        handle.write(b"not json\n\xff\xfe\n[1, 2]\n\n")
    lib.log(LOG, {"url": "https://example.org/after"})
    assert lib.count_log(LOG) == _read_count(lib) == 4
    with path.open("ab") as handle:  # a last line without its break: an entry, not tallied
        handle.write(json.dumps({"url": "https://example.org/tail"}).encode())
    assert lib.count_log(LOG) == _read_count(lib) == 5
    row = _tally_row(lib)
    assert row is not None and row[1] == path.stat().st_size - len(
        json.dumps({"url": "https://example.org/tail"})) and row[2] == 4
    with path.open("ab") as handle:  # ... and counted once its line ends
        handle.write(b"\n")
    lib.log(LOG, {"url": "https://example.org/last"})
    assert lib.count_log(LOG) == _read_count(lib) == 6


def test_a_second_count_reads_only_what_was_appended(lib: Library) -> None:
    for n in range(4):
        lib.log(LOG, {"url": f"https://example.org/{n}"})
    assert lib.count_log(LOG) == 4
    path = lib.root / LOG
    data = path.read_bytes()
    first_end = data.index(b"\n")
    # The first line overwritten in place by one of the same length that is no entry: a
    # count that read the log from its start would now find 3.
    with path.open("r+b") as handle:
        handle.write(b"x" * first_end)
    assert _read_count(lib) == 3
    lib.log(LOG, {"url": "https://example.org/new"})
    assert lib.count_log(LOG) == 5


@pytest.mark.parametrize("how", ["replaced", "cut"])
def test_a_log_replaced_or_cut_is_counted_again_from_its_start(lib: Library, how: str) -> None:
    for n in range(6):
        lib.log(LOG, {"url": f"https://example.org/{n}"})
    assert lib.count_log(LOG) == 6
    path = lib.root / LOG
    lines = path.read_bytes().splitlines(keepends=True)
    if how == "replaced":  # a new file at the name: another inode, even if longer
        fresh = path.with_name("fresh")
        fresh.write_bytes(b"".join(lines[:2]) + b'{"padding": "' + b"p" * 4000 + b'"}\n')
        os.replace(fresh, path)
        expected = 3
    else:  # the same file, cut shorter than where the count stopped
        with path.open("r+b") as handle:
            handle.truncate(len(b"".join(lines[:2])))
        expected = 2
    assert lib.count_log(LOG) == _read_count(lib) == expected


def test_processes_appending_while_counted(lib: Library) -> None:
    script = ("import sys\nfrom pathlib import Path\n"
              "from readreceipt.store.library import Library\n"
              "with Library.open_local(Path(sys.argv[1])) as lib:\n"
              "    for n in range(150):\n"
              "        lib.log('skipped.jsonl', {'url': f'https://example.org/{sys.argv[2]}/{n}'})\n")
    procs = [subprocess.Popen([sys.executable, "-c", script, str(lib.root), str(k)])
             for k in range(3)]
    seen = []
    while any(p.poll() is None for p in procs):
        seen.append(lib.count_log(LOG))
    assert all(p.wait() == 0 for p in procs)
    assert seen == sorted(seen)  # counts only ever grow while lines are appended
    assert lib.count_log(LOG) == _read_count(lib) == 450


def test_a_read_only_library_counts_without_keeping_a_tally(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "4m") as mnt:
        root = mnt / "lib"
        with Library.open_local(root) as lib:
            for n in range(3):
                lib.log(LOG, {"url": f"https://example.org/{n}"})
            assert _tally_row(lib) is None  # never counted yet
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        with Library.open_local(root) as lib:
            assert lib.read_only
            assert lib.count_log(LOG) == 3
        subprocess.run(["mount", "-o", "remount,rw", str(mnt)], check=True)
        with Library.open_local(root) as lib:
            assert _tally_row(lib) is None


def test_an_index_from_before_the_tallies_gets_them(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    with Library.open_local(root) as lib:
        lib.log(LOG, {"url": "https://example.org/0"})
    with contextlib.closing(sqlite3.connect(root / "index.db")) as conn, conn:
        conn.execute("DROP TABLE log_tallies")
        conn.execute("DELETE FROM migrations WHERE name = '0010_log_tallies'")
    with Library.open_local(root) as lib:
        lib.log(LOG, {"url": "https://example.org/1"})
        assert lib.count_log(LOG) == 2
        assert _tally_row(lib) is not None


def test_a_long_last_line_without_its_break_is_an_entry_not_tallied(tmp_path: Path) -> None:
    # A log's single line of 4 MB without a break (a writer cut off, or planted).
    path = tmp_path / LOG
    path.write_bytes(b'{"a": "' + b"x" * (4 << 20) + b'"}')
    tally, tail = jsonlog.tally(path, None)
    assert (tally.offset, tally.entries, tail) == (0, 0, 1)
