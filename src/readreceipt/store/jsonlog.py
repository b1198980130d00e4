"""Append-only JSON Lines logs (skipped.jsonl, flags.jsonl, answer_checks.jsonl).

Invariant: each call appends exactly one complete line, under an exclusive ``flock``, in a
single ``write``; concurrent writers never interleave or tear lines; a lone surrogate in any
text is written escaped (:mod:`readreceipt.store.escaping`), so no line is ever lost to it.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from readreceipt.store.escaping import storable


def append(path: Path, entry: dict[str, Any]) -> None:
    line = (json.dumps(storable(entry), ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def read(path: Path) -> Iterator[dict[str, Any]]:
    try:
        handle = path.open(encoding="utf-8")
    except FileNotFoundError:
        return
    with handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                yield value
