"""robots.txt (RFC 9309): matching rules, outcomes by status, the cache, the guard."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from conftest import LocalServer, article_html, reply, run_cli
from readreceipt.errors import DeclinedError
from readreceipt.fetching.addresses import AllowHosts
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.fetching.robots import (
    ALLOW,
    CACHE_TTL,
    MAX_BYTES,
    RULES,
    UNREACHABLE,
    RobotsEntry,
    admit,
    decide,
    robots_for,
)
from readreceipt.fetching.transport import USER_AGENT
from readreceipt.fetching.urlpolicy import check_url
from readreceipt.store.library import Library


def _allowed(body: str, path: str) -> bool:
    entry = RobotsEntry("https://example.com", time.time(), 200, body, RULES)
    try:
        decide(entry, check_url("https://example.com" + path))
    except DeclinedError as exc:
        assert exc.reason == "robots"
        return False
    return True


@pytest.mark.parametrize(("body", "path", "allowed"), [
    # longest match wins (RFC 9309 2.2.2)
    ("User-agent: *\nDisallow: /a\nAllow: /a/b\n", "/a/b/c", True),
    ("User-agent: *\nDisallow: /a\nAllow: /a/b\n", "/a/c", False),
    ("User-agent: *\nAllow: /a\nDisallow: /a/b\n", "/a/b", False),
    # wildcards and the end anchor (2.2.3)
    ("User-agent: *\nDisallow: /*.pdf\n", "/docs/report.pdf", False),
    ("User-agent: *\nDisallow: /*.pdf\n", "/docs/report.html", True),
    ("User-agent: *\nDisallow: /*.pdf$\n", "/report.pdf", False),
    ("User-agent: *\nDisallow: /*.pdf$\n", "/report.pdf?page=2", True),
    ("User-agent: *\nDisallow: /$\n", "/", False),
    ("User-agent: *\nDisallow: /$\n", "/about", True),
    ("User-agent: *\nDisallow: /*?sort=\n", "/list?sort=asc", False),
    # a tie between Allow and Disallow goes to Allow, in either order (2.2.2)
    ("User-agent: *\nDisallow: /page\nAllow: /page\n", "/page", True),
    ("User-agent: *\nAllow: /page\nDisallow: /page\n", "/page", True),
    # groups naming readreceipt are merged (2.2.1), and beat the * group
    ("User-agent: readreceipt\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\n"
     "User-agent: readreceipt\nDisallow: /b\n", "/a", False),
    ("User-agent: readreceipt\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\n"
     "User-agent: readreceipt\nDisallow: /b\n", "/b", False),
    ("User-agent: readreceipt\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\n"
     "User-agent: readreceipt\nDisallow: /b\n", "/c", True),
    ("User-agent: *\nDisallow: /\n\nUser-agent: readreceipt\nDisallow: /private\n", "/pub", True),
    ("User-agent: *\nDisallow: /\n\nUser-agent: readreceipt\nDisallow: /private\n",
     "/private/x", False),
    ("User-agent: *\nDisallow: /\n", "/anything", False),
    # the product token matches case-insensitively; a group may list several agents
    ("User-agent: ReadReceipt\nDisallow: /\n", "/x", False),
    ("User-agent: somebot\nUser-agent: readreceipt\nDisallow: /z\n", "/z", False),
    ("User-agent: somebot\nDisallow: /\n", "/x", True),
    # an empty Disallow allows everything; percent-encoding is compared decoded
    ("User-agent: *\nDisallow:\n", "/x", True),
    ("User-agent: *\nDisallow: /%7Ejoe\n", "/~joe/index.html", False),
    ("User-agent: *\nDisallow: /~joe\n", "/%7Ejoe/index.html", False),
])
def test_rfc9309_matching(body: str, path: str, allowed: bool) -> None:
    assert _allowed(body, path) is allowed


def test_crawl_delay_is_returned() -> None:
    entry = RobotsEntry("https://example.com", time.time(), 200,
                        "User-agent: readreceipt\nCrawl-delay: 7\nAllow: /\n", RULES)
    assert decide(entry, check_url("https://example.com/x")) == 7.0
    plain = RobotsEntry("https://example.com", time.time(), 200, "User-agent: *\nAllow: /\n",
                        RULES)
    assert decide(plain, check_url("https://example.com/x")) is None


def test_freshness() -> None:
    now = time.time()
    assert RobotsEntry("o", now - CACHE_TTL + 60, 200, "", RULES).fresh(now)
    assert not RobotsEntry("o", now - CACHE_TTL - 1, 200, "", RULES).fresh(now)
    assert not RobotsEntry("o", now - 200, 503, "", UNREACHABLE).fresh(now)
    assert RobotsEntry("o", now - 10, 503, "", UNREACHABLE).fresh(now)


# -- fetched from a real server -----------------------------------------------------------


@pytest.fixture
def lib(library_dir: Path) -> Library:
    return Library.open(library_dir)


def _guard(server: LocalServer) -> AddressGuard:
    return AddressGuard(allow=AllowHosts(frozenset({server.pair})))


def _robots_requests(server: LocalServer) -> list[dict[str, object]]:
    return [r for r in server.requests if r["path"] == "/robots.txt"]


def test_robots_is_fetched_once_with_our_user_agent_and_cached(
        server: LocalServer, lib: Library) -> None:
    server.route("/robots.txt", "User-agent: *\nDisallow: /private\n",
                 headers={"Content-Type": "text/plain"})
    guard = _guard(server)
    assert admit(lib, check_url(server.url("/public")), guard) is None
    with pytest.raises(DeclinedError) as info:
        admit(lib, check_url(server.url("/private/x")), guard)
    assert info.value.reason == "robots"
    assert info.value.exit_code == 3
    requests = _robots_requests(server)
    assert len(requests) == 1
    headers = requests[0]["headers"]
    assert isinstance(headers, dict)
    assert {k.lower(): v for k, v in headers.items()}["user-agent"] == USER_AGENT
    assert server.connections == 1
    # A day later the cache is stale and robots.txt is asked again.
    with sqlite3.connect(lib.root / "index.db") as conn:  # the embedded index, by hand
        conn.execute("UPDATE robots SET fetched_at = fetched_at - ?", (CACHE_TTL + 1,))
    conn.close()
    admit(lib, check_url(server.url("/public")), guard)
    assert len(_robots_requests(server)) == 2


@pytest.mark.parametrize(("status", "outcome"), [
    (404, ALLOW), (403, ALLOW), (401, ALLOW), (410, ALLOW),
    (429, UNREACHABLE), (500, UNREACHABLE), (503, UNREACHABLE),
])
def test_outcome_by_status(server: LocalServer, lib: Library, status: int,
                           outcome: str) -> None:
    server.route("/robots.txt", "User-agent: *\nDisallow: /\n", status=status)
    target = check_url(server.url("/page"))
    entry = robots_for(lib, target, _guard(server))
    assert (entry.status, entry.outcome) == (status, outcome)
    if outcome == ALLOW:
        assert admit(lib, target, _guard(server)) is None
    else:
        with pytest.raises(DeclinedError) as info:
            admit(lib, target, _guard(server))
        assert info.value.reason == "robots_unreachable"
    assert len(_robots_requests(server)) == 1  # the second call answered from the cache


def test_network_error_means_disallow_for_now(server: LocalServer, lib: Library) -> None:
    pair, url = server.pair, server.url("/page")
    server.close()
    guard = AddressGuard(allow=AllowHosts(frozenset({pair})))
    with pytest.raises(DeclinedError) as info:
        admit(lib, check_url(url), guard, Deadline.after(3))
    assert info.value.reason == "robots_unreachable"


def test_only_the_first_500_kib_are_read(server: LocalServer, lib: Library) -> None:
    filler = "# " + "x" * 98 + "\n"
    body = "User-agent: *\nDisallow: /early\n" + filler * (MAX_BYTES // len(filler) + 100)
    body += "Disallow: /late\n"
    server.route("/robots.txt", body, headers={"Content-Type": "text/plain"})
    guard = _guard(server)
    entry = robots_for(lib, check_url(server.url("/")), guard)
    assert len(entry.body.encode()) == MAX_BYTES
    with pytest.raises(DeclinedError):
        admit(lib, check_url(server.url("/early")), guard)
    admit(lib, check_url(server.url("/late")), guard)  # past the cap: not a rule


def test_robots_redirect_to_a_blocked_address_is_never_followed(
        server: LocalServer, lib: Library) -> None:
    canary = LocalServer()
    try:
        server.route("/robots.txt", status=302, headers={"Location": canary.url("/robots.txt")})
        with pytest.raises(DeclinedError) as info:
            admit(lib, check_url(server.url("/page")), _guard(server))
        assert info.value.reason == "robots_unreachable"
        assert canary.connections == 0
    finally:
        canary.close()


def test_concurrent_workers_ask_for_robots_once(server: LocalServer, library_dir: Path) -> None:
    def slow(handler: BaseHTTPRequestHandler) -> None:
        time.sleep(0.5)
        reply(handler, b"User-agent: *\nAllow: /\n", content_type="text/plain")

    server.route("/robots.txt", handler=slow)
    Library.open(library_dir).close()
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        lib = Library.open(library_dir)
        try:
            admit(lib, check_url(server.url(f"/p{n}")), _guard(server))
        except BaseException as exc:  # collected and re-raised in the test thread
            errors.append(exc)
        finally:
            lib.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors
    assert len(_robots_requests(server)) == 1


# -- through the CLI -------------------------------------------------------------------------


def test_disallowed_url_is_declined_and_never_requested(server: LocalServer,
                                                        library_dir: Path) -> None:
    server.route("/robots.txt", "User-agent: readreceipt\nDisallow: /secret-area/\n",
                 headers={"Content-Type": "text/plain"})
    url = server.route("/secret-area/page", article_html())
    result = run_cli("capture", url, "--json", "--session", "s1", library=library_dir,
                     allow=server.pair)
    assert result.code == 3
    assert result.json()["error"]["reason"] == "robots"
    assert [r["path"] for r in server.requests] == ["/robots.txt"]
    line = json.loads((library_dir / "skipped.jsonl").read_text().splitlines()[-1])
    assert (line["rule"], line["url"], line["session_id"]) == ("robots", url, "s1")
    # --now skips robots.txt (never the security rules)
    again = run_cli("capture", url, "--now", "--json", library=library_dir, allow=server.pair)
    assert again.code == 0, again.stderr
    assert [r["path"] for r in server.requests] == ["/robots.txt", "/secret-area/page"]
