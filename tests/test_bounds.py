"""Every input has a bound and one clear line (issue 11, item 8).

``--answer /dev/zero`` and ``--from /dev/zero`` once read until the machine ran out of memory;
``--timeout nan``, ``--timeout inf`` and ``log --limit 99999999999999999999999`` ended in
internal errors. Each is run through the real console script, which must end within its
timeout, in one line on stderr, with exit 1, and with a bounded peak memory (read from the
kernel's accounting of the finished child).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import BIN, CliResult, LocalServer, article_html, clean_env

Cli = Callable[..., CliResult]

#: Far above what the command needs (about 60 MiB), far below what an unbounded read reaches.
PEAK_LIMIT_KIB = 400 * 1024


#: Run one command in a child with its address space capped (so that a regression fails
#: with MemoryError instead of taking the machine's memory), and report its exit code, its
#: stderr and its peak resident memory.
_PROBE = """
import json, resource, subprocess, sys
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, 3 * 1024 ** 3))
try:
    done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=40, preexec_fn=cap)
    code, err = done.returncode, done.stderr.decode("utf-8", "replace")
except subprocess.TimeoutExpired:
    code, err = None, "timed out"
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "stderr": err, "peak_kib": peak}))
"""


def run_measured(*args: str, library: Path) -> tuple[int | None, str, int]:
    """The console script's exit code, stderr and peak resident memory (KiB)."""
    env = clean_env(READRECEIPT_LIBRARY=str(library))
    done = subprocess.run([str(BIN / "python"), "-c", _PROBE, str(BIN / "readreceipt"), *args],
                          capture_output=True, text=True, env=env, timeout=90, check=True)
    out = json.loads(done.stdout)
    return out["code"], out["stderr"], out["peak_kib"]


@pytest.mark.parametrize("args", [
    ("check", "https://example.com/", "--answer", "/dev/zero"),
    ("capture", "https://example.com/", "--answer", "/dev/zero"),
    ("capture", "--from", "/dev/zero"),
], ids=["check-answer", "capture-answer", "capture-from"])
def test_reading_dev_zero_is_bounded(args: tuple[str, ...], library_dir: Path) -> None:
    code, err, peak = run_measured(*args, library=library_dir)
    assert code == 1
    assert len(err.strip().splitlines()) == 1, err
    assert "longer than" in err and "the most readreceipt reads" in err
    assert peak < PEAK_LIMIT_KIB, f"peak {peak} KiB"


@pytest.mark.parametrize("option", [
    ("--timeout", "nan"), ("--timeout", "inf"), ("--timeout", "-1"), ("--timeout", "0"),
    ("--timeout", "1e9"), ("--wait", "nan"), ("--wait", "inf"), ("--wait", "-2"),
    ("--max-bytes", "nonsense"), ("--max-bytes", "0"), ("--max-bytes", "-5"),
    ("--max-bytes", "2GB"), ("--max-bytes", "9" * 30), ("--max-bytes", "10 parsecs"),
])
def test_nonsense_numbers_are_one_line(cli: Cli, option: tuple[str, str],
                                       server: LocalServer) -> None:
    url = server.route("/a", article_html())
    for command in ("capture", "fetch"):
        out = cli(command, url, *option)
        assert out.code == 1, (command, option, out.stderr)
        assert out.stderr.strip().splitlines() == [out.stderr.strip()], out.stderr
        assert "Invalid value for" in out.stderr and "internal error" not in out.stderr
    assert not server.requests


def test_sizes_take_units(cli: Cli, server: LocalServer) -> None:
    url = server.route("/big", "x" * 5000, headers={"Content-Type": "text/plain"})
    small = cli("capture", url, "--now", "--max-bytes", "1K", "--json")
    assert small.code == 7 and small.json()["bytes"] == 1024
    roomy = cli("capture", url, "--now", "--max-bytes", "0.5MB", "--json")
    assert roomy.code in (0, 8) and roomy.json()["truncated"] is False


def test_log_limit_is_bounded(cli: Cli) -> None:
    out = cli("log", "--limit", "99999999999999999999999")
    assert out.code == 1
    assert out.stderr.strip().splitlines() == [out.stderr.strip()]
    assert "1<=x<=1000000" in out.stderr and "internal error" not in out.stderr


def test_a_url_list_too_long_is_refused(cli: Cli, tmp_path: Path) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text("".join(f"https://example.com/{i}\n" for i in range(10_001)))
    out = cli("capture", "--from", str(listing))
    assert out.code == 1 and "at most 10,000" in out.stderr


def test_the_answer_cap_never_loses_a_capture(server: LocalServer, library_dir: Path,
                                              allow_server: LocalServer) -> None:
    """An answer over the cap handed to the library (the hook, MCP) is recorded as not
    checked; the capture it came with is kept."""
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.quotes.answers import MAX_ANSWER_BYTES
    from readreceipt.store.library import Library

    url = server.route("/a", article_html())
    answer = '"' + "a" * MAX_ANSWER_BYTES + '"'
    with Library.open(library_dir) as lib:
        result = capture(url, CaptureOptions(now=True, answer=answer), lib)
        assert result.record.answer_check == {"outcome": "not_run",
                                              "reason": "answer_too_long", "passages": [],
                                              "skipped": [], "claims": []}
        assert lib.index.retrieval(result.record.record_id) is not None


def test_the_library_refuses_a_nan_deadline(library_dir: Path) -> None:
    from readreceipt.errors import UsageError
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library

    with Library.open(library_dir) as lib, pytest.raises(UsageError, match="timeout"):
        capture("https://example.com/", CaptureOptions(timeout=float("nan")), lib)


def test_dev_zero_as_stdin_is_bounded_too(library_dir: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run([str(BIN / "readreceipt"), "check", "https://example.com/",
                               "--answer", "-"], stdin=zero, capture_output=True, timeout=60,
                              env=clean_env(READRECEIPT_LIBRARY=str(library_dir)), check=False)
    assert proc.returncode == 1 and b"longer than" in proc.stderr
