"""The viewer as a WSGI app, and a server for it bound to 127.0.0.1 only.

Security, in layers, because captured pages are hostile input:

- every byte of page content reaches HTML escaped (:mod:`.html`), and raw bytes are only ever
  offered as a download (``application/octet-stream``, ``Content-Disposition: attachment``);
- every response (the HTTP server's own refusals included) carries a Content-Security-Policy
  that allows no script at all, no frames, no plugins, styles only from the viewer's own
  stylesheet, forms only to itself; downloads also get ``sandbox``;
  ``X-Content-Type-Options: nosniff`` stops a browser guessing HTML;
- only GET and HEAD are answered: nothing here can change the library;
- the Host header must name this server (127.0.0.1 or localhost at its port), so a web page
  that rebinds its own name to 127.0.0.1 cannot read the library through the visitor's browser.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from urllib.parse import parse_qsl
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from readreceipt.errors import ReadReceiptError, RecordNotFound, UsageError
from readreceipt.store.library import Library
from readreceipt.viewer import audits, pages
from readreceipt.viewer.html import CSS, escape, page, tag

log = logging.getLogger(__name__)

StartResponse = Callable[..., Any]

CSP = ("default-src 'none'; style-src 'self'; img-src 'none'; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")
DOWNLOAD_CSP = "sandbox; default-src 'none'"
SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Cache-Control", "no-store"),
)
_RECORD = re.compile(r"^/record/([A-Za-z0-9][A-Za-z0-9_-]{0,80})(/text|/body)?$")
_AUDIT = re.compile(r"^/audit/([A-Za-z0-9][A-Za-z0-9_-]{0,80})$")


class Viewer:
    """The WSGI application over one library. Requests are served one at a time."""

    def __init__(self, library: Library, allowed_hosts: Iterable[str] = ()) -> None:
        self.library = library
        self.allowed_hosts = {h.lower() for h in allowed_hosts}
        self._lock = threading.Lock()  # one SQLite connection: one request at a time

    def allow_port(self, port: int) -> None:
        self.allowed_hosts |= {f"127.0.0.1:{port}", f"localhost:{port}"}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        method = environ.get("REQUEST_METHOD", "GET")
        host = str(environ.get("HTTP_HOST", "")).lower()
        if host not in self.allowed_hosts:  # none allowed yet: nothing is answered
            return self._reply(start_response, "421 Misdirected Request", _message(
                "Wrong host", "This viewer answers only at 127.0.0.1 or localhost."), method)
        if method not in ("GET", "HEAD"):
            return self._reply(start_response, "405 Method Not Allowed", _message(
                "Read-only", "This viewer only reads the library."), method,
                extra=[("Allow", "GET, HEAD")])
        path = environ.get("PATH_INFO", "/") or "/"
        query = dict(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True))
        with self._lock:
            try:
                return self._route(path, query, method, start_response)
            except RecordNotFound as exc:
                return self._reply(start_response, "404 Not Found",
                                   _message("Not found", str(exc)), method)
            except UsageError as exc:
                return self._reply(start_response, "400 Bad Request",
                                   _message("Bad request", str(exc)), method)
            except ReadReceiptError as exc:
                log.warning("viewer: %s", exc)
                return self._reply(start_response, "500 Internal Server Error",
                                   _message("The library could not be read", str(exc)), method)
            except Exception:  # never a bare 500 from the server: the usual headers still go
                log.exception("viewer: internal error on %s", path)
                return self._reply(start_response, "500 Internal Server Error",
                                   _message("Internal error", "The viewer failed on this "
                                            "request; the library was not changed."), method)

    def _route(self, path: str, query: dict[str, str], method: str,
               start_response: StartResponse) -> list[bytes]:
        lib = self.library
        if path == "/":
            return self._reply(start_response, "200 OK", pages.retrievals(lib, query), method)
        if path == "/flags":
            return self._reply(start_response, "200 OK", pages.flags(lib, query), method)
        if path == "/audits":
            return self._reply(start_response, "200 OK", audits.audits(lib, query), method)
        match = _AUDIT.match(path)
        if match:
            return self._reply(start_response, "200 OK", audits.audit_page(lib, match[1]),
                               method)
        if path == "/history":
            return self._reply(start_response, "200 OK", pages.history(lib, query), method)
        if path == "/static/viewer.css":
            return self._reply(start_response, "200 OK", CSS.encode("utf-8"), method,
                               content_type="text/css; charset=utf-8")
        match = _RECORD.match(path)
        if match:
            record_id, part = match.groups()
            if part is None:
                return self._reply(start_response, "200 OK", pages.record_page(lib, record_id),
                                   method)
            return self._download(record_id, part, method, start_response)
        return self._reply(start_response, "404 Not Found",
                           _message("Not found", f"Nothing at {path}."), method)

    def _download(self, record_id: str, part: str, method: str,
                  start_response: StartResponse) -> list[bytes]:
        """Text or bytes as a file to save, never as a page to render."""
        record = self.library.load(record_id)
        if part == "/text":
            text = self.library.text(record.text_sha256)
            if text is None:
                raise RecordNotFound("no text is held for this capture", reason="no_text")
            data, kind, name = text.encode("utf-8"), "text/plain; charset=utf-8", "txt"
        else:
            body = self.library.body(record)
            if body is None:
                raise RecordNotFound("the bytes of this capture are not kept",
                                     reason="bytes_not_kept")
            data, kind, name = body, "application/octet-stream", "bin"
        disposition = f'attachment; filename="{record.record_id}.{name}"'
        return self._reply(start_response, "200 OK", data, method, content_type=kind,
                           csp=DOWNLOAD_CSP, extra=[("Content-Disposition", disposition)])

    @staticmethod
    def _reply(start_response: StartResponse, status: str, body: bytes, method: str, *,
               content_type: str = "text/html; charset=utf-8", csp: str | None = None,
               extra: list[tuple[str, str]] | None = None) -> list[bytes]:
        headers = [("Content-Type", content_type), ("Content-Length", str(len(body))),
                   ("Content-Security-Policy", csp or CSP), *SECURITY_HEADERS, *(extra or [])]
        start_response(status, headers)
        return [] if method == "HEAD" else [body]


def _message(title: str, text: str) -> bytes:
    return page(title, tag("p", escape(text)))


class _Server(ThreadingMixIn, WSGIServer):
    """Threads, so an idle browser connection never holds the one request slot."""

    daemon_threads = True
    allow_reuse_address = True


class _QuietHandler(WSGIRequestHandler):
    _refusing = False

    def log_message(self, format: str, *args: Any) -> None:
        log.info("viewer: " + format, *args)

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """A request the HTTP server refuses before the app sees it (a URL or headers too
        long) is answered with the same security headers as every page."""
        self._refusing = True
        super().send_error(code, message, explain)

    def end_headers(self) -> None:
        if self._refusing:
            for name, value in (("Content-Security-Policy", CSP), *SECURITY_HEADERS):
                self.send_header(name, value)
        super().end_headers()


def make_viewer_server(library: Library, port: int = 0) -> tuple[WSGIServer, Viewer]:
    """A server for the viewer on 127.0.0.1:``port`` (0: any free port), not yet serving."""
    app = Viewer(library)
    server = make_server("127.0.0.1", port, app, server_class=_Server,
                         handler_class=_QuietHandler)
    app.allow_port(server.server_address[1])
    return server, app
