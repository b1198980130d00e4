"""Which folder is the library: ``$READRECEIPT_LIBRARY``, else the nearest ``.readreceipt/``.

The nearest library is looked for from a starting folder upwards, as git looks for a
repository. ``$READRECEIPT_CEILING_DIRECTORIES`` (absolute paths, separated by
``os.pathsep``, as git's ``GIT_CEILING_DIRECTORIES``) stops the walk: a ceiling folder and
everything above it are never looked in, unless the walk starts there. Test suites and
sandboxes set it so that a stray library above them is never picked up.

A folder is a library when it holds ``index.db`` (the local library) or ``config.toml``
(a folder that points at a team library, :mod:`readreceipt.store.config`).

Standard library only: the hook's report path uses it on every tool call.
"""

from __future__ import annotations

import os
from pathlib import Path

LIBRARY_ENV = "READRECEIPT_LIBRARY"
CEILING_ENV = "READRECEIPT_CEILING_DIRECTORIES"
DIRNAME = ".readreceipt"
INDEX_FILENAME = "index.db"


#: A folder that names a team library holds this file instead of an index
#: (:mod:`readreceipt.store.config`).
CONFIG_FILENAME = "config.toml"


def is_library(folder: Path) -> bool:
    return (folder / INDEX_FILENAME).is_file() or (folder / CONFIG_FILENAME).is_file()



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


def nearest(start: Path) -> Path | None:
    """The nearest existing library at or above ``start``, within the ceilings."""
    here = Path(os.path.realpath(start))
    stops = ceilings()
    for folder in (here, *here.parents):
        if folder != here and folder in stops:
            return None
        candidate = folder / DIRNAME
        if is_library(candidate):
            return candidate
    return None


def find(start: Path | None = None) -> Path | None:
    """The library to use, if one exists: ``$READRECEIPT_LIBRARY``, else the nearest."""
    env = configured()
    if env is not None:
        return env if is_library(env) else None
    return nearest(start if start is not None else Path.cwd())


def choose(start: Path | None = None) -> Path:
    """The library to use or to create: ``$READRECEIPT_LIBRARY``, the nearest, else
    ``<start>/.readreceipt``."""
    env = configured()
    if env is not None:
        return env
    here = start if start is not None else Path.cwd()
    return nearest(here) or Path(os.path.realpath(here)) / DIRNAME
