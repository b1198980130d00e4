"""Shared fixtures: real HTTP servers on 127.0.0.1, a fresh library, the real console scripts.

Nothing here touches the internet. A test that needs a *name* to resolve to an address uses
``--resolve`` / an injected resolver rather than the system's DNS.

Hermetic: library discovery never looks above pytest's temporary folder. The whole session
(and every subprocess started through :func:`clean_env`) runs with
``READRECEIPT_CEILING_DIRECTORIES`` set to that folder, so a stray ``.readreceipt/`` in
``/tmp`` or anywhere above is never found, and no ``READRECEIPT_*`` variable of the machine
reaches a test.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from canary import Canary
from readreceipt.localserver import LocalServer, reply
from readreceipt.store.discovery import CEILING_ENV

pytest_plugins = ["teamstore"]

__all__ = ["BIN", "CORPUS", "CliResult", "LocalServer", "article_html", "clean_env", "reply",
           "run_cli", "run_on_terminal", "tmpfs"]


def _shared() -> Path:
    """``../shared`` beside the checkout (the development workspace), or beside the folder
    that holds it (a worktree one level further down); the first that exists."""
    checkout = Path(__file__).resolve().parents[1]
    beside = [folder / "shared" for folder in checkout.parents[:2]]
    return next((folder for folder in beside if folder.is_dir()), beside[0])


SHARED = _shared()
CORPUS = SHARED / "corpus"
BIN = Path(sys.executable).parent


@pytest.fixture(scope="session", autouse=True)
def discovery_stops_at_the_temp_folder(tmp_path_factory: pytest.TempPathFactory
                                       ) -> Iterator[None]:
    """No READRECEIPT_* setting of the machine, a ceiling on library discovery, and a state
    folder of the session's own (which team stores the user was shown)."""
    saved = {k: v for k, v in os.environ.items() if k.startswith("READRECEIPT_")}
    for key in saved:
        del os.environ[key]
    os.environ[CEILING_ENV] = str(tmp_path_factory.getbasetemp())
    state = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.getbasetemp() / "state")
    yield
    os.environ.pop(CEILING_ENV, None)
    if state is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = state
    os.environ.update(saved)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a subprocess: this one without READRECEIPT_* settings, but with
    the session's discovery ceiling, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("READRECEIPT_")}
    env[CEILING_ENV] = os.environ[CEILING_ENV]
    env.update(extra)
    return env


@pytest.fixture
def server() -> Iterator[LocalServer]:
    srv = LocalServer()
    yield srv
    srv.close()


@pytest.fixture
def canary() -> Iterator[Canary]:
    """A listener at an address readreceipt must never reach; it counts connections."""
    c = Canary()
    yield c
    c.close()


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    return tmp_path / "lib"


@pytest.fixture
def own_marks_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary folder of the test's own (TMPDIR), so the hook's session marks are its own."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


@pytest.fixture
def allow_server(server: LocalServer, monkeypatch: pytest.MonkeyPatch) -> LocalServer:
    """Exempt exactly this server's pair from the private-address rule (in this process)."""
    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", server.pair)
    return server


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run_cli(*args: str, library: Path | None = None, allow: str | None = None,
            input: str | bytes | None = None, env: dict[str, str] | None = None,
            script: str = "readreceipt", timeout: float = 120) -> CliResult:
    """Run the real console script as a subprocess."""
    full_env = clean_env()
    if library is not None:
        full_env["READRECEIPT_LIBRARY"] = str(library)
    if allow is not None:
        full_env["READRECEIPT_ALLOW_HOSTS"] = allow
    full_env.update(env or {})
    data = input.encode("utf-8") if isinstance(input, str) else input
    proc = subprocess.run([str(BIN / script), *args], input=data, capture_output=True,
                          env=full_env, timeout=timeout, check=False)
    return CliResult(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                     proc.stderr.decode("utf-8", "replace"))


@pytest.fixture
def cli(library_dir: Path, server: LocalServer) -> Callable[..., CliResult]:
    """``cli("capture", url, "--json")`` against a fresh library, this server exempted."""

    def _run(*args: str, **kwargs: Any) -> CliResult:
        kwargs.setdefault("library", library_dir)
        kwargs.setdefault("allow", server.pair)
        return run_cli(*args, **kwargs)

    return _run


@pytest.fixture
def fetch(cli: Callable[..., CliResult], tmp_path: Path) -> Callable[..., CliResult]:
    """``fetch(url, ...)``: the real console script, its default folder under tmp_path."""

    def _run(*args: str, **kwargs: Any) -> CliResult:
        env = dict(kwargs.pop("env", None) or {})
        env.setdefault("TMPDIR", str(tmp_path))
        return cli("fetch", *args, env=env, **kwargs)

    return _run


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``path`` (made here), unmounted at the end; the test is
    skipped, saying why, where mounting is not allowed (it needs root)."""
    path.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True, check=False)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {proc.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def article_html() -> str:
    """A real-looking article of original prose (the demo's), about 2,500 characters."""
    from importlib import resources

    return resources.files("readreceipt.demo_pages").joinpath("article.html").read_text("utf-8")


def run_on_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run the console script with stderr on a pseudo-terminal: code, stdout, what it drew."""
    master, slave = pty.openpty()
    full_env = clean_env()
    full_env.update({"COLUMNS": "120", "TERM": "xterm", **env})
    proc = subprocess.Popen([str(BIN / "readreceipt"), *args], stdout=subprocess.PIPE,
                            stderr=slave, env=full_env)
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # the other end closed
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    out = proc.stdout.read() if proc.stdout else b""
    code = proc.wait(timeout=180)
    reader.join(timeout=10)
    os.close(master)
    return code, out.decode("utf-8", "replace"), b"".join(chunks).decode("utf-8", "replace")
