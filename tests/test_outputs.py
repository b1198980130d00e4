"""Files a user names and folders readreceipt picks: never renamed over, never another user's.

Attacks and accidents, run for real: ``fetch -o`` a device, a FIFO, ``/dev/stdout`` or a
symbolic link; ``export --warc`` a full device; ``hook install`` over a symlinked settings
file; the default fetch folder planted as a link or as another user's world-writable folder.
Device nodes are made by the test (``mknod``, root only) in its own folder, never the
system's. Each guard has a control showing what the unguarded write does.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import BIN, CliResult, LocalServer, article_html, clean_env
from library_builder import article, at, put_capture, put_failure
from readreceipt.errors import UsageError
from readreceipt.store.atomic import write_replace
from readreceipt.store.library import Library

Cli = Callable[..., CliResult]
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="mknod and chown to another user need root")
OTHER_UID = 65534  # nobody


def _device(path: Path, minor: int) -> Path:
    """A character device like /dev/null (minor 3) or /dev/full (minor 7), in our folder."""
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    return path


def _is_char_device(path: Path) -> bool:
    return stat.S_ISCHR(os.lstat(path).st_mode)


@pytest.fixture
def outputs() -> object:
    """The helper under test (imported here: the commands' tests run without it)."""
    from readreceipt.store import outputs as module

    return module


# --------------------------------------------------------------------------- the helper


@needs_root
def test_a_device_is_written_through_and_stays_a_device(tmp_path: Path, outputs: Any) -> None:
    null = _device(tmp_path / "null", 3)
    outputs.write_file(null, b"evidence")
    assert _is_char_device(null)
    # Control: the library's own atomic write renames over its target, device or not.
    control = _device(tmp_path / "control", 3)
    write_replace(control, b"evidence")
    assert not _is_char_device(control)


@needs_root
def test_a_full_device_is_one_clear_error(tmp_path: Path, outputs: Any) -> None:
    full = _device(tmp_path / "full", 7)
    with pytest.raises(UsageError, match="No space left on device") as caught:
        outputs.write_file(full, b"x" * 10)
    assert caught.value.reason == "write_failed" and _is_char_device(full)


def test_a_symlink_is_followed_and_stays_a_link(tmp_path: Path, outputs: Any) -> None:
    real = tmp_path / "real.md"
    real.write_text("old")
    real.chmod(0o600)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    outputs.write_file(link, b"new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600  # the file's own permissions kept
    # Control: a rename onto the link's name replaces the link itself.
    write_replace(link, b"renamed over")
    assert not link.is_symlink() and real.read_bytes() == b"new"


def test_a_dangling_link_makes_its_target(tmp_path: Path, outputs: Any) -> None:
    link = tmp_path / "link.md"
    link.symlink_to(tmp_path / "made.md")
    outputs.write_file(link, b"made")
    assert link.is_symlink() and (tmp_path / "made.md").read_bytes() == b"made"


def test_a_fifo_with_a_reader_gets_the_bytes_and_without_one_is_refused(
        tmp_path: Path, outputs: Any) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match="FIFO that nobody is reading"):
        outputs.write_file(fifo, b"lost")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    for _ in range(200):  # the reader opens the FIFO; then a writer finds it
        try:
            outputs.write_file(fifo, b"through the pipe")
            break
        except UsageError:
            threading.Event().wait(0.01)
    reader.join(timeout=10)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_folder_or_a_socket_is_refused(tmp_path: Path, outputs: Any) -> None:
    import socket

    with pytest.raises(UsageError, match="is a folder"):
        outputs.write_file(tmp_path, b"x")
    path = tmp_path / "s"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        with pytest.raises(UsageError, match="is a socket"):
            outputs.write_file(path, b"x")
    finally:
        sock.close()


def test_default_names_never_replace(tmp_path: Path, outputs: Any) -> None:
    first = outputs.write_new(tmp_path, "page.md", b"one")
    second = outputs.write_new(tmp_path, "page.md", b"two")
    assert (first.name, second.name) == ("page.md", "page-2.md")
    assert first.read_bytes() == b"one" and second.read_bytes() == b"two"


# ------------------------------------------------------------------ through the commands


@needs_root
def test_fetch_to_a_device_leaves_the_device(fetch: Cli, server: LocalServer,
                                             tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    null = _device(tmp_path / "null", 3)
    out = fetch(url, "-o", str(null), "--now")
    assert out.code == 0, out.stderr
    assert _is_char_device(null)


def test_fetch_to_its_own_stdout_writes_into_the_stream(fetch: Cli,
                                                       server: LocalServer) -> None:
    # /dev/fd/1 rather than /dev/stdout: were the guard gone, a rename over /dev/fd/1 fails
    # inside /proc, while one over /dev/stdout would replace the machine's own link (as root).
    url = server.route("/a", article_html())
    out = fetch(url, "-o", "/dev/fd/1", "--now")
    assert out.code == 0, out.stderr
    assert "===== BEGIN UNTRUSTED" in out.stdout and "ok: wrote" in out.stdout


def test_dev_stdout_is_planned_as_written_through(outputs: Any) -> None:
    for name in ("/dev/stdout", "/dev/stderr", "/dev/fd/1", "/proc/self/fd/2"):
        assert outputs.plan(name).through, name  # looked at only: nothing is written


def test_fetch_through_a_symlink_keeps_the_link(fetch: Cli, server: LocalServer,
                                                tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    real = tmp_path / "notes" / "page.md"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "page.md"
    link.symlink_to(real)
    out = fetch(url, "-o", str(link), "--now")
    assert out.code == 0, out.stderr
    assert link.is_symlink() and "BEGIN UNTRUSTED" in real.read_text("utf-8")


def test_fetch_to_a_fifo_nobody_reads_is_one_line_not_a_hang(
        fetch: Cli, server: LocalServer, tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    out = fetch(url, "-o", str(fifo), "--now", timeout=60)
    assert out.code == 1
    assert out.stderr.strip().count("\n") == 0 and "nobody is reading" in out.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _export(tmp_path: Path, *args: str, cwd: Path | None = None
            ) -> subprocess.CompletedProcess[str]:
    """``readreceipt export ARGS`` of a library of one capture (run in ``cwd``); what it
    wrote is read as text, bytes that are not UTF-8 escaped."""
    lib_dir = tmp_path / "lib"
    if not lib_dir.exists():
        with Library.open(lib_dir) as lib:
            put_capture(lib, "https://news.example/a", article("A", "Some words " * 40), at(0))
    return subprocess.run([str(BIN / "readreceipt"), "--library", str(lib_dir), "export",
                           *args], capture_output=True, text=True, errors="surrogateescape",
                          timeout=120, env=clean_env(), cwd=cwd, check=False)


@needs_root
def test_export_to_a_full_device_is_one_line_and_the_device_stays(tmp_path: Path) -> None:
    full = _device(tmp_path / "full", 7)
    proc = _export(tmp_path, "--warc", str(full))
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"readreceipt: cannot write {full}: No space left on device"]
    assert _is_char_device(full)


@needs_root
def test_export_wacz_to_a_device_stays_a_device(tmp_path: Path) -> None:
    null = _device(tmp_path / "null", 3)
    proc = _export(tmp_path, "--wacz", str(null))
    assert proc.returncode == 0, proc.stderr
    assert _is_char_device(null)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no work left


def test_export_to_its_own_stdout_says_so_on_stderr_in_whole_lines(tmp_path: Path) -> None:
    """The summary then goes to stderr, and is never wrapped there either (a pipe is not an
    80-column terminal)."""
    lib_dir = tmp_path / "lib"
    body = article("A", "Some words " * 40)
    with Library.open(lib_dir) as lib:
        put_capture(lib, "https://news.example/a", body, at(0))
        put_capture(lib, "https://news.example/a", body, at(30))  # a revisit
        put_capture(lib, "https://news.example/b", article("B", "Other words " * 40), at(60),
                    keep=False)
        put_failure(lib, "https://news.example/c", at(90))
    proc = subprocess.run([str(BIN / "readreceipt"), "--library", str(lib_dir), "export",
                           "--warc", "/dev/fd/1"], capture_output=True, timeout=120,
                          env=clean_env(), check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(b"WARC/1.1")
    lines = proc.stderr.decode().splitlines()
    assert lines[0] == "wrote /dev/fd/1 (WARC, written through)"
    assert lines[1] == ("  4 retrievals: 1 no response, 1 not kept, 1 response, 1 revisit; "
                        "2 replayable pages"), lines


def test_hook_install_follows_a_symlinked_settings_file(tmp_path: Path) -> None:
    project, dotfiles = tmp_path / "project", tmp_path / "dotfiles"
    (project / ".claude").mkdir(parents=True)
    dotfiles.mkdir()
    real = dotfiles / "claude-settings.json"
    real.write_text('{"model": "opus"}\n')
    link = project / ".claude" / "settings.json"
    link.symlink_to(real)
    env = clean_env(HOME=str(tmp_path / "home"))
    proc = subprocess.run([str(BIN / "readreceipt"), "hook", "install"], cwd=project,
                          capture_output=True, text=True, timeout=60, env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink(), "the settings link was replaced by a regular file"
    assert "readreceipt-hook" in real.read_text() and '"model": "opus"' in real.read_text()


# ------------------------------------------------------- the default folder (issue 11.3)


def test_the_default_folder_is_made_private(fetch: Cli, server: LocalServer,
                                            tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    out = fetch(url, "--now", "--json")
    assert out.code == 0, out.stderr
    folder = tmp_path / "readreceipt"
    assert out.json()["path"].startswith(str(folder))
    assert stat.S_IMODE(folder.lstat().st_mode) == 0o700


def test_a_planted_link_at_the_fallback_folder_is_refused(fetch: Cli, server: LocalServer,
                                                          tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    elsewhere = tmp_path / "attacker"
    elsewhere.mkdir()
    (tmp_path / "readreceipt").symlink_to(elsewhere)  # the shared folder: not ours
    fallback = tmp_path / f"readreceipt-{os.getuid()}"
    fallback.symlink_to(elsewhere)  # and the per-user one, planted too
    out = fetch(url, "--now")
    assert out.code == 2
    assert str(fallback) in out.stderr and "symbolic link" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert not any(elsewhere.rglob("*")), "the output went where the link pointed"
    assert not server.requests  # refused before anything was fetched


@needs_root
@pytest.mark.parametrize("mode", [0o777, 0o755])
def test_another_users_fallback_folder_is_refused(fetch: Cli, server: LocalServer,
                                                  tmp_path: Path, mode: int) -> None:
    url = server.route("/a", article_html())
    shared = tmp_path / "readreceipt"
    shared.mkdir()
    os.chown(shared, OTHER_UID, OTHER_UID)  # the shared folder belongs to someone else
    fallback = tmp_path / f"readreceipt-{os.getuid()}"
    fallback.mkdir()
    fallback.chmod(mode)
    os.chown(fallback, OTHER_UID, OTHER_UID)
    out = fetch(url, "--now")
    assert out.code == 2
    assert f"refusing to use {fallback}" in out.stderr and "another user" in out.stderr
    assert not any(fallback.iterdir())


@needs_root
def test_a_world_writable_fallback_of_our_own_is_refused(fetch: Cli, server: LocalServer,
                                                         tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    shared = tmp_path / "readreceipt"
    shared.mkdir()
    os.chown(shared, OTHER_UID, OTHER_UID)
    fallback = tmp_path / f"readreceipt-{os.getuid()}"
    fallback.mkdir()
    fallback.chmod(0o777)
    out = fetch(url, "--now")
    assert out.code == 2 and "every user may write into it" in out.stderr


@needs_root
def test_a_clean_fallback_is_used_when_the_shared_folder_is_not_ours(
        fetch: Cli, server: LocalServer, tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    shared = tmp_path / "readreceipt"
    shared.mkdir()
    os.chown(shared, OTHER_UID, OTHER_UID)
    out = fetch(url, "--now", "--json")
    assert out.code == 0, out.stderr
    fallback = tmp_path / f"readreceipt-{os.getuid()}"
    assert out.json()["path"].startswith(str(fallback))
    assert stat.S_IMODE(fallback.lstat().st_mode) == 0o700 and not any(shared.iterdir())


def test_export_to_dash_is_standard_output(tmp_path: Path) -> None:
    """``-`` is standard output, as ``--from -`` and ``--answer -`` are standard input."""
    work = tmp_path / "work"
    work.mkdir()
    for flag, start in (("--warc", "WARC/1.1"), ("--wacz", "PK")):
        proc = _export(tmp_path, flag, "-", cwd=work)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith(start)
        assert proc.stderr.startswith("wrote standard output (")
        assert list(work.iterdir()) == []  # no file named "-"
    mixed = _export(tmp_path, "--warc", "-", "--json", cwd=work)
    assert mixed.returncode == 1 and "--json cannot share standard output" in mixed.stderr


def test_export_json_names_the_whole_path(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    proc = _export(tmp_path, "--warc", "out.warc", "--json", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["path"] == str(work / "out.warc")


def test_fetch_to_a_path_ending_in_a_slash_makes_that_folder(fetch: Cli, server: LocalServer,
                                                             tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    out = fetch(url, "-o", f"{tmp_path / 'new' / 'dir'}/", "--json")
    assert out.code == 0, out.stderr
    folder = tmp_path / "new" / "dir"
    assert folder.is_dir()
    [written] = folder.iterdir()
    assert out.json()["path"] == str(written) and written.suffix == ".md"
