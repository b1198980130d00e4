"""The provenance an export carries beside the bytes: the record, its checks and its flags.

One metadata record per retrieval holds this as JSON, whether or not its bytes are exported,
so a forgotten capture still says what was fetched, when, and what readreceipt concluded.

Invariant: nothing here holds a secret: the record's response headers are already stripped of
credentials (``headers.safe_headers``) and an answer is only ever kept as its digest.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from readreceipt._version import __version__
from readreceipt.store.library import Library
from readreceipt.store.local.scratch import Scratch
from readreceipt.store.records import Record

#: What happened to a retrieval's bytes in the export (the ``exported_as`` field).
EXPORTED_AS = {
    "response": "the bytes as received, in a response record",
    "revisit": "a revisit record: the same bytes were already written for an earlier capture",
    "resource": "bytes a browser rendered, in a resource record (not an HTTP response)",
    "not_kept": "the bytes were not kept (forgotten on request, or never kept); only this "
                "provenance is exported",
    "missing": "the record says the bytes are kept, but the library no longer holds them",
    "corrupt": "the bytes held no longer match their digest; they are not exported",
    "no_response": "no HTTP response arrived; nothing but this provenance exists",
}


class Provenance:
    """Answer checks and flags of a library, grouped by record, read once per export (into
    dicts, or into ``scratch`` when the export's memory must stay flat)."""

    def __init__(self, library: Library, scratch: Scratch | None = None) -> None:
        self.scratch = scratch
        self.checks: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.flags: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for log, kept in (("answer_checks.jsonl", self.checks), ("flags.jsonl", self.flags)):
            for entry in library.read_log(log):
                if not isinstance(entry.get("record_id"), str):
                    continue
                if scratch is not None:
                    scratch.add(log.split(".")[0], entry["record_id"], entry)
                else:
                    kept[entry["record_id"]].append(entry)

    def _of(self, log: str, kept: dict[str, list[dict[str, Any]]],
            record_id: str) -> list[dict[str, Any]]:
        if self.scratch is not None:
            return list(self.scratch.values(log, record_id))
        return kept.get(record_id, [])

    def document(self, record: Record, exported_as: str) -> dict[str, Any]:
        """The metadata record's JSON for ``record``."""
        return {
            "readreceipt": __version__,
            "exported_as": exported_as,
            "exported_as_means": EXPORTED_AS[exported_as],
            "record": record.to_dict(),
            "answer_checks_against_held_copy": self._of("answer_checks", self.checks,
                                                        record.record_id),
            "flags": self._of("flags", self.flags, record.record_id),
        }
