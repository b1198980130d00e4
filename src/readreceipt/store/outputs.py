"""Writing a file the user named: ``fetch -o``, ``export --warc|--wacz``, ``hook install``.

The library's own files go through :mod:`readreceipt.store.atomic`, in folders readreceipt
made. A path a user names can be anything, so every adapter writes one through here:

- a regular file, or nothing yet: the data goes to a temporary file beside it
  (``.<name>.<random>.part``), which is renamed over it once complete, so nobody ever sees
  half a file; an existing file's permission bits are kept;
- a symbolic link is followed: the file it points to is replaced (its temporary file beside
  *that* file) and the link stays a link; a link to a missing file makes that file;
- anything else that exists is written through, in place, and never renamed over: a
  character or block device (``/dev/null``, ``/dev/full``), a FIFO (refused when nobody
  reads it, as the write would wait forever), the process's own descriptors
  (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``);
- a folder or a socket is refused.

Default names (:func:`write_new`) never replace anything: a name taken gets ``-2``, ``-3``...

Every failure is one :class:`~readreceipt.errors.UsageError` sentence naming the path:
reason ``bad_output`` (a target refused), ``exists`` (replacing was not asked for) or
``write_failed`` (the system refused the write: a full disk, a read-only folder).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from readreceipt.errors import UsageError

#: The process's own descriptors: a regular file behind one was opened by the shell (``>``),
#: and must be written into, not replaced by another file of the same name.
_DESCRIPTOR = re.compile(r"^/dev/(stdout|stderr|fd/\d+)$|^/proc/[^/]+/fd/\d+$")

#: How many numbered names :func:`write_new` tries before giving up.
_MAX_NUMBERED = 1000


@dataclass(frozen=True)
class Output:
    """Where a named output goes, decided before anything is written."""

    named: Path  # the path as the user gave it (absolute)
    real: Path  # where the bytes land: ``named`` with symbolic links followed
    through: bool  # written in place (device, FIFO, descriptor), never renamed over
    exists: bool


def plan(path: str | os.PathLike[str], *, overwrite: bool = True) -> Output:
    """How ``path`` will be written; UsageError when it cannot or must not be."""
    named = Path(os.path.abspath(Path(path).expanduser()))
    try:
        info: os.stat_result | None = os.stat(named)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise UsageError(f"cannot write {named}: {exc.strerror or exc}",
                         reason="bad_output") from exc
    if info is not None and not overwrite:
        raise UsageError(f"{named} exists and --no-overwrite was given", reason="exists")
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{named} is a folder; give a file name", reason="bad_output")
    if info is not None and stat.S_ISSOCK(info.st_mode):
        raise UsageError(f"{named} is a socket; give a file name", reason="bad_output")
    if info is not None and (not stat.S_ISREG(info.st_mode) or _DESCRIPTOR.match(str(named))):
        return Output(named, named, through=True, exists=True)
    real = Path(os.path.realpath(named))
    if not real.parent.is_dir():
        raise UsageError(f"the folder {real.parent} does not exist", reason="bad_output")
    return Output(named, real, through=False, exists=info is not None)


def _open_through(path: Path) -> int:
    """A descriptor writing into ``path`` in place. A FIFO is opened without waiting, so one
    that nobody reads is refused instead of holding the write forever; the descriptor is
    then held until the write ends (closing it early would tell the reader "end of data")."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise UsageError(f"{path} is a FIFO that nobody is reading; start its reader "
                             "first", reason="bad_output") from None
        raise _failed(path, exc) from exc
    os.set_blocking(fd, True)
    return fd


def _temp_beside(real: Path) -> Path:
    return real.parent / f".{real.name}.{secrets.token_hex(4)}.part"


@contextlib.contextmanager
def writing(path: str | os.PathLike[str], *, overwrite: bool = True,
            on_temp: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """The path to write ``path``'s new content into (open it with ``"wb"``).

    For a regular file it is a temporary file, renamed over the target when the block
    succeeds and removed when it fails; for a device, a FIFO or a descriptor it is the target
    itself. ``on_temp`` is told the temporary path first (so a leftover can be found after a
    crash). An OSError in the block becomes one UsageError sentence naming ``path``."""
    with _writing(plan(path, overwrite=overwrite), overwrite, on_temp) as target:
        yield target


@contextlib.contextmanager
def _writing(out: Output, overwrite: bool,
             on_temp: Callable[[Path], None] | None) -> Iterator[Path]:
    if out.through:
        fd = _open_through(out.named)
        try:
            yield out.named
        except OSError as exc:
            raise _failed(out.named, exc) from exc
        finally:
            os.close(fd)
        return
    tmp = _temp_beside(out.real)
    try:
        if on_temp is not None:
            on_temp(tmp)
        yield tmp
        _finish(tmp, out, overwrite)
    except OSError as exc:
        raise _failed(out.named, exc) from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _finish(tmp: Path, out: Output, overwrite: bool) -> None:
    """Put ``tmp`` in place of the target (replacing it only when ``overwrite``)."""
    if out.exists:
        with contextlib.suppress(OSError):
            os.chmod(tmp, stat.S_IMODE(os.stat(out.real).st_mode))
    if overwrite:
        os.replace(tmp, out.real)
        return
    try:
        os.link(tmp, out.real)
    except FileExistsError:
        raise UsageError(f"{out.named} exists and --no-overwrite was given",
                         reason="exists") from None


def _failed(path: Path, exc: OSError) -> UsageError:
    return UsageError(f"cannot write {path}: {exc.strerror or exc}", reason="write_failed")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _create(path: Path, data: bytes) -> None:
    """A new file at ``path`` holding ``data``, on disk (fsync) before it is renamed."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def write_file(path: str | os.PathLike[str], data: bytes, *, overwrite: bool = True) -> Path:
    """Write ``data`` to the file the user named at ``path`` (the rules above); the path."""
    out = plan(path, overwrite=overwrite)
    if out.through:
        fd = _open_through(out.named)
        try:
            _write_all(fd, data)
        except OSError as exc:
            raise _failed(out.named, exc) from exc
        finally:
            os.close(fd)
        return out.named
    with _writing(out, overwrite, None) as target:
        _create(target, data)
    return out.named


def numbered(name: str, n: int) -> str:
    """``page.md`` as its ``n``-th alternative: ``page-2.md``, ``page-3.md``..."""
    if n <= 1:
        return name
    stem, dot, ext = name.rpartition(".")
    return f"{stem}-{n}.{ext}" if dot and stem else f"{name}-{n}"


def write_new(folder: Path, name: str, data: bytes) -> Path:
    """Write ``data`` under ``name`` in ``folder``, or under the first free numbered name;
    never replaces a file. The path written."""
    tmp = _temp_beside(folder / name)
    try:
        _create(tmp, data)
        for n in range(1, _MAX_NUMBERED + 1):
            candidate = folder / numbered(name, n)
            try:
                os.link(tmp, candidate)
            except FileExistsError:
                continue
            return candidate
    except OSError as exc:
        raise _failed(folder / name, exc) from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    raise UsageError(f"{folder} already holds {_MAX_NUMBERED} files named like {name}; "
                     "nothing was replaced", reason="exists")
