"""Which folder is the library: ``$READRECEIPT_LIBRARY``, else the nearest ``.readreceipt/``.

The nearest library is looked for from a starting folder upwards, as git looks for a
repository, and the walk stops (after looking in it) at the first of:

- the user's home folder (a library above it belongs to nobody's project);
- a repository root (a folder holding ``.git``): one project never reads another's library;
- a filesystem boundary (the parent is on another device): a mounted volume stays apart;
- a folder named in ``$READRECEIPT_CEILING_DIRECTORIES`` (absolute paths, separated by
  ``os.pathsep``, as git's ``GIT_CEILING_DIRECTORIES``), which is itself never looked in
  unless the walk starts there. Test suites and sandboxes set it.

A folder is a library when it holds ``index.db`` (the local library) or ``config.toml``
(a folder that points at a team library, :mod:`readreceipt.store.team.config`). A library found
on the way is used only when it is the user's own
(:func:`readreceipt.store.ownership.foreign_control`): one another user owns or may write
into (a ``/tmp/.readreceipt`` anyone could have made) is passed over,
and the walk goes on (:func:`search` says which were, for the caller to warn of). So is one
whose own entries (the index, the logs, ``store/``, ``text/``, ``records/``...) include a
symbolic link (:func:`planted_link`): a repository can carry a ``.readreceipt/`` whose files
are links to anywhere, and writing to the library would write there. A library named outright
(``--library``, ``$READRECEIPT_LIBRARY``) is the user's choice and is not judged.

Standard library only (and :mod:`readreceipt.store.ownership`): the hook's report path uses
it on every tool call.
"""

from __future__ import annotations

import os
from pathlib import Path

from readreceipt.store.ownership import UnsafeFolder, untrusted_reason

LIBRARY_ENV = "READRECEIPT_LIBRARY"
CEILING_ENV = "READRECEIPT_CEILING_DIRECTORIES"
DIRNAME = ".readreceipt"
INDEX_FILENAME = "index.db"


#: A folder that names a team library holds this file instead of an index
#: (:mod:`readreceipt.store.team.config`).
CONFIG_FILENAME = "config.toml"


#: What a library keeps under fixed names (the index and SQLite's files beside it, the
#: team config, the folders of blobs, texts and records, the JSONL logs).
OWN_ENTRIES = (INDEX_FILENAME, f"{INDEX_FILENAME}-wal", f"{INDEX_FILENAME}-shm",
               f"{INDEX_FILENAME}-journal", CONFIG_FILENAME, "store", "text", "records",
               "skipped.jsonl", "flags.jsonl", "answer_checks.jsonl", "audits.jsonl",
               "scratch.jsonl")


def is_library(folder: Path) -> bool:
    return (folder / INDEX_FILENAME).is_file() or (folder / CONFIG_FILENAME).is_file()


def planted_link(folder: Path) -> str | None:
    """Why ``folder`` cannot be used as a found library because one of its own entries is a
    symbolic link, or None."""
    for name in OWN_ENTRIES:
        if os.path.islink(folder / name):
            return f"its {name} is a symbolic link"
    return None


def unsafe_reason(folder: Path) -> str | None:
    """Why a library found (not named) must not be used: another user controls it, or a
    link is planted in it; None when it is the user's own."""
    return untrusted_reason(folder) or planted_link(folder)



def configured() -> Path | None:
    """The library ``$READRECEIPT_LIBRARY`` names, if it is set."""
    env = os.environ.get(LIBRARY_ENV)
    return Path(env).expanduser() if env else None


def ceilings() -> frozenset[Path]:
    raw = os.environ.get(CEILING_ENV, "")
    found = set()
    for part in raw.split(os.pathsep):
        if part and os.path.isabs(part):
            found.add(Path(os.path.realpath(part)))
    return frozenset(found)


def _home() -> Path | None:
    try:
        return Path(os.path.realpath(Path.home()))
    except (KeyError, RuntimeError):  # no home for this user
        return None


def _device(folder: Path) -> int | None:
    try:
        return folder.stat().st_dev
    except OSError:
        return None


def walk(start: Path) -> list[Path]:
    """The folders looked in for a library, nearest first (see the module's rules)."""
    here = Path(os.path.realpath(start))
    stops, home = ceilings(), _home()
    folders: list[Path] = []
    for folder in (here, *here.parents):
        if folder != here and folder in stops:
            break
        folders.append(folder)
        if folder == home or (folder / ".git").exists():
            break
        parent = folder.parent
        if parent != folder and _device(parent) != _device(folder):
            break
    return folders


def search(start: Path) -> tuple[Path | None, list[tuple[Path, str]]]:
    """The nearest library at or above ``start`` that is the user's own, within the stops;
    and the libraries passed over on the way, each with why (another user controls it)."""
    passed: list[tuple[Path, str]] = []
    for folder in walk(start):
        candidate = folder / DIRNAME
        if not is_library(candidate):
            continue
        why = unsafe_reason(candidate)
        if why is None:
            return candidate, passed
        passed.append((candidate, why))
    return None, passed


def nearest(start: Path) -> Path | None:
    """The nearest library at or above ``start`` that is the user's own (silently: the
    hook's report path prints nothing but what Claude Code reads)."""
    return search(start)[0]


def find(start: Path | None = None) -> Path | None:
    """The library to use, if one exists: ``$READRECEIPT_LIBRARY``, else the nearest."""
    env = configured()
    if env is not None:
        return env if is_library(env) else None
    return nearest(start if start is not None else Path.cwd())


def fresh(start: Path | None = None) -> Path:
    """Where a new library goes: ``<start>/.readreceipt`` (UnsafeFolder when something is
    there already that another user controls)."""
    path = Path(os.path.realpath(start if start is not None else Path.cwd())) / DIRNAME
    if os.path.lexists(path):
        why = unsafe_reason(path)
        if why is not None:
            raise UnsafeFolder(path, why)
    return path


def choose(start: Path | None = None) -> Path:
    """The library to use or to create: ``$READRECEIPT_LIBRARY``, the nearest, else
    :func:`fresh`."""
    env = configured()
    if env is not None:
        return env
    return nearest(start if start is not None else Path.cwd()) or fresh(start)
