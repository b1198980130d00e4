"""Which library a command uses: the walk's stops, other users' libraries, and read-only
commands that never make one (issue 11, item 4).

Libraries another user owns are made as root and given away with ``chown`` (skipped, saying
so, when the suite does not run as root). The filesystem boundary is a real tmpfs mounted
for the test (skipped when mounting is not allowed).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import BIN, CliResult, LocalServer, article_html, clean_env, tmpfs
from readreceipt.store import discovery
from readreceipt.store.library import Library

Cli = Callable[..., CliResult]
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
OTHER_UID = 65534


def run_in(cwd: Path, *args: str, allow: str | None = None,
           **env: str) -> CliResult:
    """The real console script, run in ``cwd`` with no library named."""
    full = clean_env(**env)
    if allow:
        full["READRECEIPT_ALLOW_HOSTS"] = allow
    proc = subprocess.run([str(BIN / "readreceipt"), *args], cwd=cwd, env=full,
                          capture_output=True, text=True, timeout=120, check=False)
    return CliResult(proc.returncode, proc.stdout, proc.stderr)


def make_library(folder: Path) -> Path:
    Library.open(folder / ".readreceipt").close()
    return (folder / ".readreceipt").resolve()


# ------------------------------------------------------------------------------ the walk


def test_the_walk_stops_at_a_repository_root(tmp_path: Path) -> None:
    above = make_library(tmp_path)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    assert discovery.nearest(repo / "src") is None
    # Control: without the .git folder the library above is found.
    (repo / ".git").rmdir()
    assert discovery.nearest(repo / "src") == above
    # A library at the repository's root is found from inside it.
    (repo / ".git").mkdir()
    own = make_library(repo)
    assert discovery.nearest(repo / "src") == own


def test_the_walk_stops_at_the_users_home(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    make_library(tmp_path)
    home = tmp_path / "home"
    (home / "notes").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    assert discovery.nearest(home / "notes") is None
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    assert discovery.nearest(home / "notes") is not None  # control


@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs mounted at tmp_path/mnt: another filesystem below a library's folder."""
    with tmpfs(tmp_path / "mnt", "4m") as point:
        yield point


def test_the_walk_stops_at_a_filesystem_boundary(tmp_path: Path, mounted: Path) -> None:
    make_library(tmp_path)
    (mounted / "work").mkdir()
    assert discovery.nearest(mounted / "work") is None
    assert discovery.walk(mounted / "work") == [(mounted / "work").resolve(),
                                                mounted.resolve()]


@pytest.mark.skipif(not ROOT, reason="giving a folder to another user needs root")
def test_a_library_another_user_owns_is_passed_over(tmp_path: Path) -> None:
    theirs = make_library(tmp_path)
    os.chown(theirs, OTHER_UID, OTHER_UID)
    work = tmp_path / "project"
    work.mkdir()
    assert discovery.nearest(work) is None
    out = run_in(work, "status")
    assert out.code == 1 and "no readreceipt library" in out.stderr
    assert f"not using the library {theirs}: it belongs to another user" in out.stderr


def test_a_library_anyone_may_write_into_is_passed_over(tmp_path: Path) -> None:
    shared = make_library(tmp_path)
    shared.chmod(0o777)
    work = tmp_path / "project"
    work.mkdir()
    assert discovery.nearest(work) is None
    shared.chmod(0o755)
    assert discovery.nearest(work) == shared  # control


def test_capture_refuses_to_make_its_library_in_another_users_folder(
        tmp_path: Path, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    work = tmp_path / "shared"
    (work / ".readreceipt").mkdir(parents=True)
    (work / ".readreceipt").chmod(0o777)  # planted, empty, writable by anyone
    out = run_in(work, "capture", url, "--now", allow=server.pair)
    assert out.code == 2
    assert f"refusing to use {(work / '.readreceipt').resolve()}" in out.stderr
    assert not server.requests and not any((work / ".readreceipt").iterdir())


# ----------------------------------------------------------- read-only commands make nothing


READ_ONLY = [
    ("status",), ("log",), ("show", "20260101T000000Z-00000000"),
    ("history", "https://example.com/"), ("verify",), ("export", "--warc", "OUT"),
    ("check", "https://example.com/", "--answer", "ANSWER"), ("forget", "https://example.com/"),
]


@pytest.mark.parametrize("args", READ_ONLY, ids=lambda a: a[0])
def test_read_only_commands_never_make_a_library(tmp_path: Path, args: tuple[str, ...]) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text('It says "something".')
    argv = [a.replace("OUT", str(tmp_path / "out.warc")).replace("ANSWER", str(answer))
            for a in args]
    missing = tmp_path / "nonexistent" / "x"
    out = run_in(tmp_path, "--library", str(missing), *argv)
    assert out.code == 1, out.stderr
    assert out.stderr.strip().splitlines() == [
        f"readreceipt: there is no readreceipt library at {missing}; nothing was made "
        "(`readreceipt capture URL --library DIR` makes one)"]
    assert not (tmp_path / "nonexistent").exists()
    # Nor one found by walking up: nothing is made in the current folder either.
    work = tmp_path / "work"
    work.mkdir()
    walked = run_in(work, *argv, "--json")
    assert walked.code == 1
    assert json.loads(walked.stdout)["error"]["reason"] == "no_library"
    assert not (work / ".readreceipt").exists()


def test_serve_never_makes_a_library(tmp_path: Path) -> None:
    out = run_in(tmp_path, "--library", str(tmp_path / "none"), "serve", "--port", "0")
    assert out.code == 1 and "there is no readreceipt library" in out.stderr
    assert not (tmp_path / "none").exists()


def test_check_with_fetch_may_make_one(tmp_path: Path, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    answer = tmp_path / "answer.txt"
    answer.write_text("The page says nothing quoted here.")
    lib = tmp_path / "made"
    out = run_in(tmp_path, "--library", str(lib), "check", url, "--answer", str(answer),
                 "--fetch", allow=server.pair)
    assert out.code == 11, out.stderr  # made and checked; the answer quotes nothing
    assert (lib / "index.db").is_file()


# ------------------------------------------------------- capture and fetch name their library


def test_capture_and_fetch_name_the_library_they_wrote_to(tmp_path: Path,
                                                          server: LocalServer) -> None:
    url = server.route("/a", article_html())
    work = tmp_path / "work"
    work.mkdir()
    where = (work / ".readreceipt").resolve()
    people = run_in(work, "capture", url, "--now", allow=server.pair)
    assert people.code == 0, people.stderr
    assert f"readreceipt: library {where}" in people.stderr.splitlines()
    programs = run_in(work, "capture", url, "--now", "--json", allow=server.pair)
    assert json.loads(programs.stdout)["library"] == str(where)
    several = run_in(work, "capture", url, server.url("/b"), "--now", "--json",
                     allow=server.pair)
    assert json.loads(several.stdout)["library"] == str(where)
    fetched = run_in(work, "fetch", url, "--now", "--json", allow=server.pair,
                     TMPDIR=str(tmp_path))
    assert json.loads(fetched.stdout)["library"] == str(where)
    told = run_in(work, "fetch", url, "--now", allow=server.pair, TMPDIR=str(tmp_path))
    assert told.stderr.strip().splitlines() == [f"readreceipt: library {where}"]


# --------------------------------------------------------------- links planted in a library


@pytest.mark.parametrize("planted", ["skipped.jsonl", "records", "index.db"])
def test_a_found_library_with_a_planted_link_is_not_written_through(
        tmp_path: Path, planted: str) -> None:
    # A repository can carry a .readreceipt/ whose files are symbolic links (git checks them
    # out as links): a refused capture then appended its line, with the URL the agent asked
    # for, to whatever file the link named: a shell's start-up file ran "$(...)" from it.
    repo = tmp_path / "cloned"
    (repo / ".git").mkdir(parents=True)
    make_library(repo)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "rc").write_text("# the user's own file\n")
    entry = repo / ".readreceipt" / planted
    moved = tmp_path / f"moved-{planted}"
    if entry.exists():  # kept aside, to be put back for the control
        entry.rename(moved)
    if planted == "skipped.jsonl":
        entry.symlink_to(victim / "rc")
    elif planted == "records":
        entry.symlink_to(victim)
    else:
        (victim / "index.db").write_bytes(moved.read_bytes())
        entry.symlink_to(victim / "index.db")
    url = "http://localhost/?$(touch pwned)"
    refused = run_in(repo, "capture", url)
    assert refused.code == 2, refused.stderr
    assert "symbolic link" in refused.stderr and "Traceback" not in refused.stderr
    assert (victim / "rc").read_text() == "# the user's own file\n"
    assert sorted(p.name for p in victim.iterdir()) == sorted(
        ["rc"] + (["index.db"] if planted == "index.db" else []))
    assert discovery.nearest(repo) is None  # the hook's quick look passes it over too
    # the control: the same library without the link is found and written to
    entry.unlink()
    if moved.exists():
        moved.rename(entry)
    assert discovery.nearest(repo) == (repo / ".readreceipt").resolve()
    assert run_in(repo, "capture", url).code == 2
    assert "touch pwned" in (entry.parent / "skipped.jsonl").read_text()


def test_a_log_is_never_appended_through_a_link(tmp_path: Path) -> None:
    # Even in a library named outright (not judged as a found one is): a log is the
    # library's own file, never a link to another.
    lib = Library.open(tmp_path / "named")
    target = tmp_path / "elsewhere.txt"
    target.write_text("kept\n")
    (tmp_path / "named" / "flags.jsonl").symlink_to(target)
    with pytest.raises(Exception) as raised:
        lib.log("flags.jsonl", {"x": 1})
    assert "symbolic link" in str(raised.value) or "link" in str(raised.value).lower()
    assert target.read_text() == "kept\n"
    lib.log("skipped.jsonl", {"x": 1})  # the control: a log of its own is appended to
    assert (tmp_path / "named" / "skipped.jsonl").read_text().count("\n") == 1
