"""Shared fixtures: real HTTP servers on 127.0.0.1, a fresh library, the real console scripts.

Nothing here touches the internet. A test that needs a *name* to resolve to an address uses
``--resolve`` / an injected resolver rather than the system's DNS.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from canary import Canary

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"
BIN = Path(sys.executable).parent

Handler = Callable[[BaseHTTPRequestHandler], None]


def reply(handler: BaseHTTPRequestHandler, body: bytes, *, status: int = 200,
          content_type: str = "text/html; charset=utf-8") -> None:
    """Answer one request with ``body``, its length declared."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    handler: Handler | None = None


class LocalServer:
    """A real HTTP server on 127.0.0.1 whose routes a test sets."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[dict[str, Any]] = []
        self.connections = 0
        outer = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                outer.connections += 1
                super().setup()

            def do_GET(self) -> None:
                outer.requests.append({"path": self.path, "time": time.time(),
                                       "headers": {k.lower(): v for k, v in self.headers.items()}})
                route = outer.routes.get(self.path) or outer.routes.get(self.path.split("?")[0])
                if route is None:
                    route = Route(404, b"<html><body><h1>Not found</h1></body></html>",
                                  {"Content-Type": "text/html"})
                if route.handler is not None:
                    route.handler(self)
                    return
                self.send_response(route.status)
                headers = {"Content-Type": "text/html; charset=utf-8", **route.headers}
                for key, value in headers.items():
                    self.send_header(key, value)
                if "Content-Length" not in headers and "Transfer-Encoding" not in headers:
                    self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                self.wfile.write(route.body)

            def log_message(self, format: str, *args: object) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def pair(self) -> str:
        return f"127.0.0.1:{self.port}"

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def route(self, path: str, body: bytes | str = b"", status: int = 200,
              headers: dict[str, str] | None = None, handler: Handler | None = None) -> str:
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.routes[path] = Route(status, data, dict(headers or {}), handler)
        return self.url(path)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


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
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("READRECEIPT_")}
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


def article_html() -> str:
    """A real-looking article of original prose (the demo's), about 2,500 characters."""
    from importlib import resources

    return resources.files("readreceipt.demo_pages").joinpath("article.html").read_text("utf-8")
