"""A capture's stderr holds readreceipt's own lines; the libraries' come with ``-v`` only."""

from __future__ import annotations

from pathlib import Path

from conftest import LocalServer, run_cli

#: What trafilatura logs on a body it cannot parse (before: "readreceipt: discarding data:
#: None" and "parsed tree length: 0, ..." on a capture's stderr, as if they were ours).
_THEIRS = ("discarding data", "parsed tree length", "empty HTML tree")


def test_a_librarys_own_log_lines_stay_off_stderr(server: LocalServer,
                                                  library_dir: Path) -> None:
    url = server.route("/tiny", b"0123456789", headers={"Content-Type": "text/html"})
    quiet = run_cli("capture", url, "--now", library=library_dir, allow=server.pair)
    assert quiet.code == 8, quiet.stderr  # UNKNOWN: the page held no text
    assert not any(line in quiet.stderr for line in _THEIRS), quiet.stderr
    loud = run_cli("-v", "capture", url, "--now", library=library_dir, allow=server.pair)
    assert any(line in loud.stderr for line in _THEIRS), loud.stderr
