"""What a killed writer leaves behind, found and removed: ``verify`` and ``verify --repair``.

A write that is killed (``kill -9``, a power cut) between making its temporary file and
renaming it leaves the temporary file:

- in the library: ``store/**/.tmp-*``, ``text/**/.tmp-*`` and ``records/.tmp-*``
  (:mod:`readreceipt.store.atomic`);
- beside an export: ``.<name>.<random>.part`` (:mod:`readreceipt.store.outputs`) and the WACZ
  work folder ``.readreceipt-wacz-*``. Those live wherever the user exported to, so each is
  noted in the library's ``scratch.jsonl`` before it is made (:func:`note`).

Invariants: only a leftover untouched for :data:`LEFTOVER_AGE` seconds is reported or
removed, so a writer still at work is never disturbed; only names of these shapes are ever
removed (a noted path of any other shape, a link, or another user's file is left alone);
a library folder that is itself a link is not looked in (what it leads to is not this
library's); the index, the records and the blobs are never touched here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readreceipt.store.local import jsonlog
from readreceipt.store.ownership import foreign_control

#: Seconds a temporary file must have been left untouched to count as a leftover. A writer
#: at work touches its file continuously; an export that stalls an hour has died.
LEFTOVER_AGE = 3600.0

SCRATCH_LOG = "scratch.jsonl"
_LIBRARY_FOLDERS = ("store", "text", "records")
_LIBRARY_TEMP = re.compile(r"^\.tmp-[0-9a-f]{16}$")
_EXPORT_PART = re.compile(r"^\..+\.[0-9a-f]{8}\.part$")
_EXPORT_WORK = re.compile(r"^\.readreceipt-wacz-[A-Za-z0-9_]+$")


@dataclass(frozen=True)
class Leftover:
    path: Path
    kind: str  # "library_temp" | "export_part" | "export_work"
    bytes: int
    age: float  # seconds since it was last written

    def describe(self) -> str:
        what = {"library_temp": "a temporary file of a write that never finished",
                "export_part": "the unfinished file of an export that never finished",
                "export_work": "the work folder of a WACZ export that never finished"}
        return (f"{what[self.kind]} ({self.bytes:,} bytes, untouched for "
                f"{self.age / 3600:.1f} h)")

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "kind": self.kind, "bytes": self.bytes,
                "age_seconds": round(self.age)}


def note(root: Path, path: Path) -> None:
    """Write down, in the library at ``root``, a temporary path about to be made elsewhere."""
    jsonlog.append(root / SCRATCH_LOG, {"path": str(path), "pid": os.getpid(),
                                        "at": time.time()})


def _size_and_mtime(path: Path, info: os.stat_result) -> tuple[int, float]:
    if not stat.S_ISDIR(info.st_mode):
        return info.st_size, info.st_mtime
    size, newest = 0, info.st_mtime
    for folder, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                item = os.lstat(os.path.join(folder, name))
                size += item.st_size
                newest = max(newest, item.st_mtime)
        with contextlib.suppress(OSError):
            newest = max(newest, os.lstat(folder).st_mtime)
    return size, newest


def _leftover(path: Path, kind: str, now: float, min_age: float) -> Leftover | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    want_dir = kind == "export_work"
    if stat.S_ISLNK(info.st_mode) or stat.S_ISDIR(info.st_mode) != want_dir:
        return None
    if not want_dir and not stat.S_ISREG(info.st_mode):
        return None
    if foreign_control(info) and kind != "library_temp":
        return None  # not ours to remove
    size, mtime = _size_and_mtime(path, info)
    age = now - mtime
    return Leftover(path, kind, size, age) if age >= min_age else None


def _noted(root: Path) -> Iterator[Path]:
    seen: set[str] = set()
    for entry in jsonlog.read(root / SCRATCH_LOG):
        path = entry.get("path")
        if isinstance(path, str) and path not in seen:
            seen.add(path)
            yield Path(path)


def find(root: Path, *, min_age: float = LEFTOVER_AGE,
         now: float | None = None) -> list[Leftover]:
    """Every leftover of the library at ``root`` older than ``min_age`` seconds."""
    clock = time.time() if now is None else now
    found: list[Leftover] = []
    for name in _LIBRARY_FOLDERS:
        folder = root / name
        if folder.is_symlink() or not folder.is_dir():
            continue  # a linked folder is elsewhere: what is there is not this library's
        for path in sorted(folder.rglob(".tmp-*")):
            if _LIBRARY_TEMP.match(path.name):
                item = _leftover(path, "library_temp", clock, min_age)
                if item is not None:
                    found.append(item)
    for path in _noted(root):
        kind = ("export_part" if _EXPORT_PART.match(path.name) else
                "export_work" if _EXPORT_WORK.match(path.name) else None)
        if kind is not None:
            item = _leftover(path, kind, clock, min_age)
            if item is not None:
                found.append(item)
    return found


def remove(root: Path, leftovers: list[Leftover]) -> list[Leftover]:
    """Remove ``leftovers`` (as :func:`find` returned them); the ones removed. The notes of
    paths that no longer exist are dropped from ``scratch.jsonl``."""
    removed: list[Leftover] = []
    for item in leftovers:
        try:
            if item.kind == "export_work":
                shutil.rmtree(item.path)
            else:
                item.path.unlink()
        except OSError:
            continue
        removed.append(item)
    _prune_notes(root)
    return removed


def _prune_notes(root: Path) -> None:
    log = root / SCRATCH_LOG
    if not log.exists():
        return
    from readreceipt.store.atomic import write_replace

    kept = [entry for entry in jsonlog.read(log)
            if isinstance(entry.get("path"), str) and os.path.lexists(entry["path"])]
    write_replace(log, "".join(json.dumps(e) + "\n" for e in kept).encode("utf-8"))
