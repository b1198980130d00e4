"""The record of one retrieval, and its YAML form on disk.

A record states facts about one request: these bytes were at this URL at this time,
retrieved by readreceipt. Field names are the contract of ``docs/record.md`` (a test keeps
that page and this class in step); programs read them from ``--json`` output and from
``records/<record_id>.yaml``.

Versions: ``format_version`` is :data:`FORMAT_VERSION` in every record written; a record
without it is version 1. Adding a field does not change the version; removing or renaming
one, or changing what one means, does.

Invariants: records are immutable values (``dataclasses.replace`` makes a changed copy);
the YAML form round-trips exactly; unknown keys in an older or newer file are kept in
``extra`` rather than dropped; a record read holds the types its fields declare (a file whose
values do not is refused: store/recordtypes.py).
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

import yaml

from readreceipt.store import recordparse, recordyaml
from readreceipt.store.clock import utc_now
from readreceipt.store.escaping import storable
from readreceipt.store.recordtypes import type_problem

#: The record format written now; readers take a record without the field as version 1.
FORMAT_VERSION = 1

#: Fields an adapter adds to a record it made (kept in ``extra``), and which adapter.
ADAPTER_FIELDS: dict[str, str] = {
    "agent_fetch": "the Claude Code hook (readreceipt.agents.hookworker)",
    "injection_marks": "readreceipt fetch (readreceipt.agents.fetchpage)",
    "fetch_output": "readreceipt fetch (readreceipt.agents.fetchpage)",
}

NOTE = (
    "These bytes were at this URL at this time, retrieved by readreceipt. They are not "
    "necessarily the bytes any agent read."
)


#: A record not in the form recordyaml writes (store/recordparse.py reads that one) is read by
#: libyaml's safe loader where it is built: about 7 times faster than the pure-Python one.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: Line breaks YAML folds to a space unless escaped (NEL, LS, PS): a text holding one is
#: written double-quoted, where the emitter escapes them (found by tests/test_fuzz.py: a
#: detail with U+0085 read back as a space).
_YAML_BREAKS = frozenset("\x85\u2028\u2029")


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if any(ch in _YAML_BREAKS for ch in value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


#: The most values (keys, scalars, lists and mappings, an alias counted each time it is used)
#: a record read back may hold. A record readreceipt writes holds a few hundred, and about
#: seven more for each request a rendering blocked (a rendering within its deadline and byte
#: budget blocks thousands at most); walking this many takes a fraction of a second.
MAX_RECORD_VALUES = 2_000_000


def _expanded_size(data: Any, limit: int) -> int:
    """How many values ``data`` holds with every alias followed (``limit + 1`` once past it,
    or when an alias holds itself). Each container is counted once and its size remembered,
    so the work is that of the text, not of what its aliases name."""
    sizes: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(data, False)]
    while stack:
        item, done = stack.pop()
        if not isinstance(item, dict | list | tuple):
            continue
        children = [*item.keys(), *item.values()] if isinstance(item, dict) else list(item)
        if done:
            total = 1 + sum(sizes.get(id(c), 1) for c in children)
            sizes[id(item)] = min(total, limit + 1)
            continue
        if id(item) in sizes:
            if sizes[id(item)] < 0:  # met again while being counted: an alias of itself
                return limit + 1
            continue
        sizes[id(item)] = -1
        stack.append((item, True))
        stack.extend((c, False) for c in children if isinstance(c, dict | list | tuple))
    return sizes.get(id(data), 1)


def new_record_id(now: datetime | None = None) -> str:
    """Time-sortable and unique across processes: ``20261130T011500Z-3f9a2c1b``."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{secrets.token_hex(4)}"


@dataclass(frozen=True)
class Record:
    record_id: str
    url: str
    format_version: int = FORMAT_VERSION
    final_url: str | None = None
    redirect_chain: tuple[dict[str, Any], ...] = ()
    fetched_at: str = field(default_factory=utc_now)
    http_status: int | None = None
    #: The HTTP version spoken with the server ("HTTP/1.1"); None in records made before
    #: it was kept (read as HTTP/1.1).
    http_version: str | None = None
    content_type: str | None = None
    charset: str | None = None
    bytes: int = 0
    bytes_sha256: str | None = None
    bytes_kept: bool = False
    truncated: bool = False
    #: The texts were extracted from the body's beginning only (see reading.extract).
    text_from_prefix: bool = False
    text_sha256: str | None = None
    page_text_sha256: str | None = None
    text_chars: int = 0
    extractor: str | None = None
    rendering_method: str = "none"
    javascript_executed: bool = False
    browser: str | None = None
    #: When a browser rendered the page, ``bytes_sha256`` is the rendered DOM's digest and
    #: this is the digest of the bytes the server itself sent (kept beside it).
    static_bytes_sha256: str | None = None
    #: Requests the rendering browser made that a security layer refused:
    #: ``{url, reason, layer}`` each (empty when no browser ran).
    blocked_requests: tuple[dict[str, str], ...] = ()
    response_headers: dict[str, str] = field(default_factory=dict)
    peer_address: str | None = None
    user_agent: str | None = None
    verdict: str = "UNKNOWN"
    reason: str = "unknown"
    wall: str | None = None
    rule: str | None = None
    detail: str | None = None
    session_id: str | None = None
    agent_id: str | None = None
    prompt: str | None = None
    answer_sha256: str | None = None
    answer_chars: int | None = None
    answer_check: dict[str, Any] | None = None
    answer_without_page_text: bool = False
    policy_exemption: str | None = None
    title: str | None = None
    #: The soft-404 probe made for this capture, when one was (a random path on the same
    #: origin): its url, status, text_sha256, fetched_at, whether the answer came from the
    #: day's cache, the resemblance to this page and what it decided.
    probe: dict[str, Any] | None = None
    #: The second reading of an article whose main text came out far shorter than the page
    #: (reading/secondreading.py), when one was made: whether it was used, by which method
    #: and why, the evidence the page is an article, and the first reading's extractor,
    #: length and digest.
    second_reading: dict[str, Any] | None = None
    note: str = NOTE
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "extra":
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        out.update(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        known = {f.name for f in fields(cls)} - {"extra"}
        kwargs = {k: v for k, v in data.items() if k in known}
        kwargs["format_version"] = int(data.get("format_version") or 1)
        for name in ("redirect_chain", "blocked_requests"):
            if name in kwargs:
                kwargs[name] = tuple(kwargs[name] or ())
        if kwargs.get("response_headers") is None:
            kwargs.pop("response_headers", None)
        problem = type_problem(cls, kwargs)
        if problem:
            raise TypeError(problem)  # from_yaml: "not a readreceipt record (...)"
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(**kwargs, extra=extra)

    def replace(self, **changes: Any) -> Record:
        return dataclasses.replace(self, **changes)

    def to_yaml(self) -> str:
        """The YAML form; a lone surrogate in any text is written escaped
        (:mod:`readreceipt.store.escaping`), so every record written reads back. The bytes
        are PyYAML's, written by :mod:`readreceipt.store.recordyaml` where it can (nearly
        every record) and by PyYAML where it cannot (a text holding NEL, LS or PS among
        them: ``_Dumper`` writes it double-quoted, escaped)."""
        data = storable(self.to_dict())
        fast = recordyaml.dump(data)
        if fast is not None:
            return fast
        return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)

    @classmethod
    def from_yaml(cls, text: str) -> Record:
        """The record ``text`` holds; ValueError (saying why) for anything else."""
        data: Any = recordparse.load(text, MAX_RECORD_VALUES)  # what dump wrote: no aliases
        if data is None:
            data = cls._pyyaml(text)
        if not isinstance(data, dict) or "record_id" not in data or "url" not in data:
            raise ValueError("not a readreceipt record")
        try:
            return cls.from_dict(data)
        except TypeError as exc:
            raise ValueError(f"not a readreceipt record ({exc})") from None

    @staticmethod
    def _pyyaml(text: str) -> Any:
        """What PyYAML reads from ``text``: a record in any other form (written by PyYAML,
        by hand, by an older version), held to the same bound once its aliases are
        followed."""
        try:
            data = yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader, C when built
        except yaml.YAMLError as exc:
            raise ValueError(f"not valid YAML ({' '.join(str(exc).split())})") from None
        if _expanded_size(data, MAX_RECORD_VALUES) > MAX_RECORD_VALUES:
            # YAML's aliases let a few hundred bytes name 10^8 values, which every reader
            # (show --json, export, the viewer) would then walk.
            raise ValueError(f"the record holds more than {MAX_RECORD_VALUES:,} values once "
                             "its aliases are followed")
        return data
