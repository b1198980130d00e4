"""``readreceipt push FOLDER``: copy a local library into a team library.

An agent that worked offline (or a laptop that kept a local library for months) hands its
evidence in later. What is copied: every indexed retrieval (its bytes, the server's own
bytes of a rendered page, its texts, its record, then its row), every flag and answer check
of the index, every audit of an agent session, and every line of the JSONL logs. Pacing,
the robots.txt cache and soft-404 probes are not evidence and stay behind.

Invariants:
- idempotent: a retrieval whose row the team index already has is skipped (its row is
  written last, so a row means everything before it is there); a row under the same id for
  another capture (another URL or time: two captures drew one id) is never replaced, and the
  local retrieval is left behind and named (``conflicts``); blobs are written once by
  digest; flags, checks and log lines carry a ``push_key`` made from what identifies them in
  the source, and a second copy of one is ignored by the database;
- resumable: a push killed at any point is finished by running it again, and nothing is
  duplicated (the same steps, in the same order, each a no-op where already done);
- the source's evidence (records, bytes, texts, rows, logs) is only read; opening it may
  bring an older index.db up to the current schema, as opening any library does;
- a retrieval whose record cannot be pushed (damaged, gone while the index names it, or
  misnamed: an id with a path in it, a file holding another id) is left behind, never half
  copied, and named in the report (``unreadable``); the others are copied.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from readreceipt.errors import LibraryError, ReadReceiptError, UsageError
from readreceipt.progress import NO_PROGRESS, Progress

if TYPE_CHECKING:
    from readreceipt.store.library import Library
    from readreceipt.store.local.sqlite import SQLiteIndex
    from readreceipt.store.protocols import Retrieval
    from readreceipt.store.team.postgres import PostgresIndex

log = logging.getLogger(__name__)

#: The JSONL logs of a local library that are copied.
LOGS = ("skipped.jsonl", "flags.jsonl", "answer_checks.jsonl", "audits.jsonl")
#: Rows asked about (and copied) at a time.
BATCH = 500


@dataclass(frozen=True)
class PushReport:
    retrievals: int  # indexed in the source
    copied: int  # copied now
    already_there: int  # skipped: the team index had their rows
    blobs: int  # bytes and texts read from the source and offered to the team store
    #: Flags, answer checks, audits and log lines the team library did not hold: copied now.
    flags: int
    answer_checks: int
    audits: int
    log_lines: int
    unreadable: tuple[str, ...] = ()  # record ids left behind: their records cannot be read
    #: record ids left behind: the team library holds another capture under the same id
    conflicts: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["unreadable"] = list(self.unreadable)
        data["conflicts"] = list(self.conflicts)
        return data


def no_team_library() -> UsageError:
    """The error of a push with no team library to push into."""
    return UsageError("push copies into a team library, and none is configured: give "
                      "--index-url and --blobs-url, set READRECEIPT_INDEX_URL and "
                      "READRECEIPT_BLOBS_URL, or run it where `readreceipt init` pointed the "
                      "library folder at one", reason="no_team_library")


def _indexes(source: Library, target: Library) -> tuple[SQLiteIndex, PostgresIndex]:
    from readreceipt.store.local.sqlite import SQLiteIndex
    from readreceipt.store.team.postgres import PostgresIndex

    if target.team is None or not isinstance(target.index, PostgresIndex):
        raise no_team_library()
    if source.team is not None or not isinstance(source.index, SQLiteIndex):
        raise UsageError(f"{source.root} is not a local library (push copies from a folder "
                         "holding index.db)", reason="not_a_local_library")
    return source.index, target.index


def _batches(source: SQLiteIndex) -> Iterator[list[Retrieval]]:
    batch: list[Retrieval] = []
    for row in source.all_retrievals():
        batch.append(row)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def push(source: Library, target: Library, progress: Progress = NO_PROGRESS) -> PushReport:
    local, team = _indexes(source, target)
    total = local.count_retrievals()
    progress.start(total)
    copied = present = blobs = 0
    unreadable: list[str] = []
    conflicts: list[str] = []
    for batch in _batches(local):
        there = team.existing_ids([row.record_id for row in batch])
        for row in batch:
            progress.advance()
            record_id = row.record_id
            if record_id in there:
                if there[record_id] == (row.url, row.fetched_at):
                    present += 1
                else:  # another capture drew the same id: neither may replace the other
                    log.warning("not pushed: the team library holds another capture (%s at "
                                "%s) under the record id %s", *there[record_id], record_id)
                    conflicts.append(record_id)
                continue
            offered = _copy_retrieval(source, target, record_id)
            if offered is None:
                unreadable.append(record_id)
                continue
            blobs += offered
            copied += 1
    flags = _copy_flags(local, team)
    checks = _copy_checks(local, team)
    audits = 0
    for audit in local.audits(limit=2**31):  # kept under its id: a copy replaces itself
        audits += team.audit(audit.audit_id) is None
        team.add_audit(audit)
    lines = sum(_copy_log(source, team, name) for name in LOGS)
    return PushReport(total, copied, present, blobs, flags, checks, audits, lines,
                      tuple(unreadable), tuple(conflicts))


def _copy_retrieval(source: Library, target: Library, record_id: str) -> int | None:
    """Objects first, the record next, its row last. The number of blobs offered; None,
    with nothing copied, when the record cannot be pushed.

    The source is a folder anyone may hand over, so its index is not taken at its word: a
    row's id must be a record id (no path in it), its record file must be there and parse,
    and the record must carry that same id; otherwise nothing of it is pushed and it is
    named in the report (the row is written last, so a team row always has its object)."""
    try:
        record = source.load(record_id)
        data = source.records.get(record_id)
    except (ReadReceiptError, KeyError) as exc:
        log.warning("not pushed: the record id %r, which the source's index names: %s",
                    record_id, exc)
        return None
    if record.record_id != record_id:
        log.warning("not pushed: the source's record file for %r holds the record id %r",
                    record_id, record.record_id)
        return None
    offered = 0
    for store_from, store_to, digest in (
            (source.blobs, target.blobs, record.bytes_sha256 if record.bytes_kept else None),
            (source.blobs, target.blobs, record.static_bytes_sha256),
            (source.texts, target.texts, record.text_sha256),
            (source.texts, target.texts, record.page_text_sha256)):
        if not digest or not store_from.has(digest):
            continue
        if store_to.put(store_from.get(digest)) != digest:
            raise LibraryError(f"{store_from.location(digest)} no longer matches its digest; "
                               "run `readreceipt verify` on the source (nothing was pushed "
                               f"for {record_id})", reason="digest_mismatch")
        offered += 1
    target.records.put(record_id, data)
    target.index.add_retrieval(record)
    return offered


def _copy_flags(local: SQLiteIndex, team: PostgresIndex) -> int:
    flags = local.all_flags()
    added = 0
    for start in range(0, len(flags), BATCH):
        part = flags[start:start + BATCH]
        added += len(team.add_flags(part, push_keys=[f"flag {f.record_id} {f.created_at} {f.id}"
                                                     for f in part]))
    return added


def _copy_checks(local: SQLiteIndex, team: PostgresIndex) -> int:
    return sum(team.add_pushed_check(check, checked_at=checked_at,
                                     push_key=f"check {check.record_id} {checked_at} {row_id}")
               for row_id, checked_at, check in local.all_checks())


def _copy_log(source: Library, team: PostgresIndex, name: str) -> int:
    seen: Counter[str] = Counter()
    count = 0
    for entry in source.logs.read(name):
        line = json.dumps(entry, sort_keys=True, ensure_ascii=True)
        digest = hashlib.sha256(line.encode("ascii")).hexdigest()
        seen[digest] += 1  # two identical lines are two events: each keeps its own key
        count += team.append_log(name, entry, push_key=f"log {name} {digest} {seen[digest]}")
    return count
