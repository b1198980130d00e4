"""What the rest of readreceipt asks of a store, and the plain values it gets back.

Four protocols, each with two implementations: the local library's (one folder) and the
team library's (PostgreSQL and an S3-compatible bucket, :mod:`readreceipt.store.team.postgres`,
:mod:`readreceipt.store.team.objects`):

- :class:`Index` answers questions about retrievals, checks and flags, and holds the state
  several processes share (the pacing schedule, the robots.txt cache). The embedded one is
  :class:`~readreceipt.store.local.sqlite.SQLiteIndex`; the PostgreSQL one keeps the same methods.
- :class:`BlobStore` keeps bytes (and, as a second instance, extracted texts) under their
  SHA-256; :class:`~readreceipt.store.local.files.FileBlobStore` keeps them as files,
  :class:`~readreceipt.store.team.objects.ObjectBlobStore` as objects written once
  (``If-None-Match: *``).
- :class:`RecordStore` keeps one serialized record per retrieval under its record id.
- :class:`LogStore` appends one JSON object a line to the named logs (``skipped.jsonl``,
  ``flags.jsonl``, ``answer_checks.jsonl``); a team library keeps them as rows of a table.

Invariants, which every implementation keeps:
- no method hands out a connection, a cursor, a transaction or a driver's row type: results
  are the frozen dataclasses, tuples and dicts of this module;
- every method that changes shared state (a pacing slot, a robots.txt claim, claiming flags)
  does its read and its write in one transaction that holds the write lock, so concurrent
  processes never both win;
- a failure of the backend is raised as :class:`~readreceipt.errors.LibraryError` with a
  ``reason`` (``read_only``, ``disk_full``, ``io``, ``not_a_library``, ``unreachable``),
  never as the driver's own exception, and never with a secret in its message.

Standard library only: the hook's report path imports this through the SQLite index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from readreceipt.store.records import Record

#: The robots.txt cache's outcome while one worker fetches it and the others wait.
ROBOTS_PENDING = "pending"


@dataclass(frozen=True)
class Retrieval:
    """One retrieval as the index holds it: the record's searchable fields."""

    record_id: str
    url: str
    final_url: str | None
    host: str | None
    fetched_at: str
    http_status: int | None
    content_type: str | None
    verdict: str
    reason: str
    wall: str | None
    bytes: int
    bytes_sha256: str | None
    bytes_kept: bool
    truncated: bool
    text_sha256: str | None
    page_text_sha256: str | None
    text_chars: int
    javascript_executed: bool
    session_id: str | None
    agent_id: str | None
    answer_outcome: str | None
    answer_without_page_text: bool
    title: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RetrievalFilter:
    """Which retrievals a listing takes; every field None takes them all."""

    verdict: str | None = None  # RETRIEVED | FAILED | UNKNOWN, any case
    session_id: str | None = None
    url_like: str | None = None  # text the URL asked for or arrived at contains
    since: str | None = None  # fetched_at lower bound, inclusive (ISO 8601, UTC)
    until: str | None = None  # fetched_at upper bound, exclusive


#: The filter that takes every retrieval.
EVERY_RETRIEVAL = RetrievalFilter()


@dataclass(frozen=True)
class NewFlag:
    """A quoted passage, a figure or a name not found on the page it was attributed to, as
    it is written. ``kind``: "quotation", "figure" or "name"; ``passage`` is what the answer
    wrote; ``nearest`` what the page holds closest (a passage, or the figure the page
    attaches to the same words); ``place``: which of the page's texts that is in ("main",
    "page", "table", "metadata"), for a figure or name."""

    record_id: str
    url: str
    passage: str
    nearest: str | None
    similarity: float | None
    session_id: str | None
    agent_id: str | None
    created_at: str
    kind: str = field(default="quotation", kw_only=True)
    place: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class Flag(NewFlag):
    """A flag as the index holds it: numbered, and whom it was told to, when."""

    id: int
    reported_at: str | None
    reported_to: str | None


@dataclass(frozen=True)
class AnswerCheck:
    """An answer checked against a copy already held (no request made)."""

    record_id: str
    url: str
    outcome: str
    reason: str | None
    answer_sha256: str | None
    session_id: str | None
    agent_id: str | None


@dataclass(frozen=True)
class Summary:
    """The counts ``readreceipt status`` shows."""

    retrievals: int
    urls: int
    bytes_kept: int
    answer_without_page_text: int
    flags: int
    answer_checks: int
    #: (verdict, reason, count), the most frequent first.
    by_verdict_reason: tuple[tuple[str, str, int], ...]
    #: (outcome of the answer checked while capturing, count), the most frequent first.
    by_answer_outcome: tuple[tuple[str, int], ...]
    #: (kind of flag: quotation, figure or name, count), the most frequent first.
    flags_by_kind: tuple[tuple[str, int], ...] = ()

    def by_verdict(self) -> dict[str, int]:
        return _totals((v, n) for v, _, n in self.by_verdict_reason)

    def by_reason(self) -> dict[str, int]:
        return _totals((r, n) for _, r, n in self.by_verdict_reason)

    def totals(self) -> dict[str, int]:
        return {"retrievals": self.retrievals, "urls": self.urls, "bytes_kept": self.bytes_kept,
                "answer_without_page_text": self.answer_without_page_text,
                "flags": self.flags, "answer_checks": self.answer_checks}


def _totals(pairs: Iterator[tuple[str, int]]) -> dict[str, int]:
    sums: dict[str, int] = {}
    for key, count in pairs:
        sums[key] = sums.get(key, 0) + count
    return dict(sorted(sums.items(), key=lambda item: -item[1]))


@dataclass(frozen=True)
class CachedRobots:
    """One origin's robots.txt as cached: what came back, when, and what it means."""

    origin: str
    fetched_at: float  # epoch seconds
    status: int | None
    body: str
    outcome: str  # allow | rules | unreachable | pending (ROBOTS_PENDING)


@dataclass(frozen=True)
class RobotsClaim:
    """The cache's answer to "may I use or fetch this origin's robots.txt?"."""

    entry: CachedRobots | None  # a usable entry: use it
    claimed: bool  # no usable entry, and this caller is now the one to fetch it

    @property
    def wait(self) -> bool:
        """Another worker is fetching it: ask again shortly."""
        return self.entry is None and not self.claimed


@dataclass(frozen=True)
class ProbeAnswer:
    """How an origin answered a request for a path that cannot exist (the soft-404 probe)."""

    origin: str
    fetched_at: float  # epoch seconds
    url: str
    final_url: str | None
    status: int | None  # None: no answer (``failure`` says why)
    text_sha256: str | None
    text: str | None  # the answer's visible text, compared with later pages of the origin
    failure: str | None = None


@dataclass(frozen=True)
class Audit:
    """An agent session's transcript audited: its counts, and the whole report as JSON."""

    audit_id: str
    transcript: str  # the transcript's path as given
    session_id: str | None
    audited_at: str
    pages: int  # pages the session fetched
    quotations: int  # quotations in the assistant's messages
    not_found: int  # of them, on no page the session read
    report: str  # the audit's JSON document (readreceipt.agents.audit)


class Index(Protocol):
    """The questions the pipeline and the adapters ask of an index."""

    read_only: bool

    # retrievals
    def add_retrieval(self, record: Record) -> None: ...
    def retrieval(self, record_id: str) -> Retrieval | None: ...
    def ids_with_prefix(self, prefix: str, limit: int = 3) -> list[str]: ...
    def for_url(self, url: str, *, limit: int | None = None) -> list[Retrieval]:
        """Retrievals that asked for or arrived at ``url``, newest first."""
        ...
    def retrievals(self, where: RetrievalFilter = EVERY_RETRIEVAL, *,
                   limit: int | None = 50, offset: int = 0) -> list[Retrieval]:
        """Retrievals matching ``where``, newest first (``limit`` None: all of them)."""
        ...
    def all_retrievals(self) -> Iterator[Retrieval]:
        """Every retrieval, by record id, read a page at a time (verify, push)."""
        ...
    def oldest_first(self, where: RetrievalFilter = EVERY_RETRIEVAL, *,
                     batch: int = 2000) -> Iterator[Retrieval]:
        """Retrievals matching ``where``, oldest first, read a page at a time (export)."""
        ...
    def count_retrievals(self, where: RetrievalFilter = EVERY_RETRIEVAL) -> int: ...
    def newest_reached_since(self, url: str, since: str) -> str | None:
        """The record id of the newest retrieval of ``url`` fetched at or after ``since``
        that reached a server (it has an HTTP status); None when there is none."""
        ...
    def session_capture_count(self, session_id: str) -> int: ...
    def summary(self) -> Summary: ...
    def set_forgotten(self, record_ids: Sequence[str]) -> None: ...
    def is_bytes_kept(self, digest: str) -> bool:
        """Does a retrieval whose bytes are kept still have these bytes?"""
        ...
    def is_text_kept(self, digest: str) -> bool:
        """Does a retrieval whose bytes are kept still have this (main or page) text?"""
        ...
    def kept_rendered_ids(self) -> list[str]:
        """The record ids of the retrievals a browser rendered whose bytes are kept (the
        server's own bytes of such a page are named only in its record)."""
        ...

    # answer checks and flags
    def add_check(self, check: AnswerCheck) -> None: ...
    def add_flags(self, flags: Sequence[NewFlag]) -> list[NewFlag]:
        """Add the flags not held already (one per record, passage, session and agent:
        checking the same answer twice flags nothing new); the ones added."""
        ...
    def flags(self, *, limit: int = 200, session_id: str | None = None) -> list[Flag]: ...
    def has_unreported_flags(self, session_id: str, agent_id: str | None) -> bool: ...
    def claim_unreported_flags(self, session_id: str, agent_id: str | None, *,
                               limit: int) -> list[Flag]:
        """The flags this agent is to be told of now, marked reported in the same
        transaction; a subagent (``agent_id``) claims its own, the main agent (None) any of
        the session's."""
        ...

    # shared state: the pacing schedule and the robots.txt cache
    def reserve_pacing_slot(self, host: str, gap: float, clock: Callable[[], float]) -> float:
        """Reserve ``host``'s next slot (``clock()`` read under the lock); its start time."""
        ...
    def release_pacing_slot(self, host: str, start: float, gap: float) -> None:
        """Give back the slot starting at ``start`` if nobody has queued behind it."""
        ...
    def claim_robots(self, origin: str, now: float, *, fresh: Callable[[CachedRobots], bool],
                     pending_timeout: float) -> RobotsClaim: ...
    def release_robots_claim(self, origin: str) -> None: ...
    def claim_fetch(self, url: str, token: str, seconds: float) -> float | None:
        """Claim the fetch of ``url`` for ``token`` for ``seconds`` from now (on the index's
        clock, as the pacing schedule is): None when it is ``token``'s, else the seconds
        another capture's claim still holds."""
        ...
    def release_fetch(self, url: str, token: str) -> None: ...
    def store_robots(self, entry: CachedRobots) -> None: ...

    # audits of agent sessions
    def add_audit(self, audit: Audit) -> None: ...
    def audits(self, *, limit: int = 100) -> list[Audit]:
        """The audits, newest first."""
        ...
    def audit(self, audit_id: str) -> Audit | None: ...

    def probe_answer_for_origin(self, origin: str, newer_than: float) -> ProbeAnswer | None:
        """The origin's answer to a soft-404 probe made after ``newer_than`` (epoch)."""
        ...
    def remember_probe_answer(self, answer: ProbeAnswer) -> None:
        """Keep ``answer`` as the origin's probe answer, replacing an older one."""
        ...
    def close(self) -> None: ...


class BlobStore(Protocol):
    """Bytes under their SHA-256, written once and never overwritten."""

    def put(self, data: bytes) -> str:
        """Keep ``data``; its digest (a no-op when already kept)."""
        ...
    def get(self, digest: str) -> bytes:
        """The bytes; KeyError when not kept."""
        ...
    def chunks(self, digest: str) -> Iterator[bytes]:
        """The bytes a chunk at a time, never whole; KeyError when not kept."""
        ...
    def has(self, digest: str) -> bool: ...
    def delete(self, digest: str) -> bool: ...
    def digests(self) -> Iterator[str]: ...
    def location(self, digest: str) -> str:
        """Where a person finds the blob (a path, a URL), for messages."""
        ...
    def stage(self, data: bytes) -> StagedBlob:
        """:meth:`put` in two halves, so a caller can do other work during the first."""
        ...


class StagedBlob(Protocol):
    """A blob on its way in (:meth:`BlobStore.stage`): its slow half done (a local file
    written and fsynced under a temp name), not yet under its digest; nobody else sees it."""

    digest: str

    def publish(self) -> bool:
        """Keep it under its digest (a no-op when kept already: False). Durable when it
        returns."""
        ...
    def discard(self) -> None: ...


class StagedRecord(Protocol):
    """A new record on its way in (:meth:`RecordStore.stage`): its slow half done (a local
    file written and fsynced under a temp name), not yet under its id."""

    def publish(self) -> bool:
        """Keep it under its id unless one is kept there already (never replaced); True if
        kept here. Durable when it returns."""
        ...
    def discard(self) -> None: ...


class RecordStore(Protocol):
    """One serialized record per record id; a record is replaced only by ``forget``."""

    def put(self, record_id: str, data: bytes) -> None: ...
    def add(self, record_id: str, data: bytes) -> bool:
        """Write a new record unless one is kept under its id (never replaced); True if
        written here."""
        ...
    def stage(self, record_id: str, data: bytes) -> StagedRecord:
        """:meth:`add` in two halves, so a caller can do other writes during the first."""
        ...
    def get(self, record_id: str) -> bytes:
        """The record's bytes; KeyError when there is none."""
        ...
    def has(self, record_id: str) -> bool: ...
    def ids(self) -> Iterator[str]:
        """Every record id, in order."""
        ...
    def location(self, record_id: str) -> str: ...


class LogStore(Protocol):
    """Append-only logs of JSON objects, by name."""

    def append(self, name: str, entry: dict[str, Any]) -> None: ...
    def read(self, name: str) -> Iterator[dict[str, Any]]: ...
    def count(self, name: str) -> int:
        """Entries of ``name`` (as many as ``read`` yields), without reading them all."""
        ...
