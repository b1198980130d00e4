"""The soft-404 probe against real local servers: a host that answers every path with the
same page, one that answers a missing path with 404, and a probe the address guard refuses.

The page is one a person would call a not-found page but no phrase of the table names
outright ("Oops", an apology, the site's navigation), so only the host's own answer for a
path that cannot exist decides it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from conftest import run_cli
from readreceipt.fetching.addresses import AllowHosts
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.fetching.probe import probe_origin
from readreceipt.fetching.urlpolicy import check_url
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library

NAV = "".join(f"<li><a href='/section/{i}'>Section number {i} of the site</a></li>"
              for i in range(40))
OOPS = (f"<html><head><title>Oops! | Example Shop</title></head><body><nav><ul>{NAV}</ul>"
        "</nav><main><h1>Oops!</h1><p>We looked everywhere for this one.</p></main>"
        "<footer><a href='/about'>About us</a> <a href='/help'>Help centre</a></footer>"
        "</body></html>").encode()


@dataclass
class Host:
    """A real HTTP server on 127.0.0.1 whose answer for each path a function decides."""

    answer: Callable[[str], tuple[int, bytes]]
    paths: list[str] = field(default_factory=list)
    port: int = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def host_factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Host]]:
    servers: list[ThreadingHTTPServer] = []

    def start(answer: Callable[[str], tuple[int, bytes]]) -> Host:
        host = Host(answer)

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                host.paths.append(self.path)
                status, body = (404, b"") if self.path == "/robots.txt" else \
                    host.answer(self.path)
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", body.decode())  # a redirect's body: where to
                    body = b""
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                return

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        servers.append(httpd)
        host.port = httpd.server_address[1]
        monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", f"127.0.0.1:{host.port}")
        return host

    yield start
    for httpd in servers:
        httpd.shutdown()
        httpd.server_close()


def _probes(host: Host) -> list[str]:
    return [p for p in host.paths if p.startswith("/readreceipt-probe-")]


def test_a_host_answering_every_path_with_the_same_page_serves_a_soft_404(
        host_factory: Callable[..., Host], tmp_path: Path) -> None:
    host = host_factory(lambda path: (200, OOPS))
    lib = Library.open(tmp_path / "lib")
    result = capture(f"{host.base}/products/blue-kettle", CaptureOptions(render=False, wait=10),
                     lib)
    record = result.record
    assert (record.verdict, record.reason) == ("UNKNOWN", "soft_404")
    assert record.rule is not None and record.rule.startswith("comparison:")
    probe = record.probe
    assert probe is not None and probe["status"] == 200 and probe["outcome"] == "soft_404"
    assert probe["url"].startswith(f"{host.base}/readreceipt-probe-")
    assert probe["text_sha256"] and probe["cached"] is False
    assert len(_probes(host)) == 1  # one extra request, and the record says it was made
    # A second suspect page of the same host within the day: the answer kept is used.
    again = capture(f"{host.base}/products/red-kettle", CaptureOptions(render=False, wait=10),
                    lib).record
    assert again.reason == "soft_404" and again.probe is not None and again.probe["cached"]
    assert len(_probes(host)) == 1


def test_under_now_no_probe_is_made_and_the_page_only_rules_stand(
        host_factory: Callable[..., Host], tmp_path: Path) -> None:
    host = host_factory(lambda path: (200, OOPS))
    record = capture(f"{host.base}/products/blue-kettle",
                     CaptureOptions(now=True, render=False), Library.open(tmp_path / "lib")).record
    assert record.verdict == "RETRIEVED" and record.probe is None
    assert _probes(host) == []


def test_a_host_answering_a_missing_path_with_404_clears_the_suspicion(
        host_factory: Callable[..., Host], tmp_path: Path) -> None:
    host = host_factory(lambda path: (200, OOPS) if path == "/products/blue-kettle"
                        else (404, b"<html><body>Nothing here</body></html>"))
    record = capture(f"{host.base}/products/blue-kettle", CaptureOptions(render=False, wait=10),
                     Library.open(tmp_path / "lib")).record
    assert record.verdict == "RETRIEVED"
    assert record.probe is not None and record.probe["status"] == 404
    assert record.probe["outcome"] == "cleared"
    assert len(_probes(host)) == 1


def test_a_page_unlike_the_answer_for_a_missing_path_stays_read(
        host_factory: Callable[..., Host], tmp_path: Path) -> None:
    home = OOPS.replace(b"We looked everywhere for this one.",
                        b"Welcome to the shop: kettles, teapots, cups and saucers for every "
                        b"kitchen, with free delivery on orders over twenty pounds.")
    host = host_factory(lambda path: (200, OOPS) if path == "/products/blue-kettle"
                        else (200, home))
    record = capture(f"{host.base}/products/blue-kettle", CaptureOptions(render=False, wait=10),
                     Library.open(tmp_path / "lib")).record
    assert record.verdict == "RETRIEVED"
    assert record.probe is not None and record.probe["outcome"] == "different"


HOME = (f"<html><head><title>Example Shop</title></head><body><nav><ul>{NAV}</ul></nav><main>"
        "<h1>Welcome to Example Shop</h1><p>Kettles, teapots, cups and saucers for every kitchen, "
        "with free delivery on orders over twenty pounds and returns within sixty days.</p>"
        "<p>This week: enamel kettles in six colours, and a new range of stoneware mugs made "
        "in Stoke, glazed by hand in three colours. Our tea of the month is a smoky lapsang "
        "from a small estate in the Wuyi mountains, sold loose in tins of one hundred grams, "
        "and every order this month comes with a free infuser while stocks last.</p></main>"
        "<footer><a href='/about'>About us</a></footer></body></html>"
        ).encode()


def _home_for_every_missing_path(path: str) -> tuple[int, bytes]:
    return (200, HOME) if path == "/" else (302, b"/")


def test_a_deep_address_sent_to_the_home_page_is_compared_and_called_a_soft_404(
        host_factory: Callable[..., Host], tmp_path: Path) -> None:
    """A site that answers every missing path with a redirect to its home page: the page
    read is the home page, whose text says nothing of an error, so only the redirect makes
    it a suspect; the probe is sent home too, which settles it."""
    host = host_factory(_home_for_every_missing_path)
    record = capture(f"{host.base}/news/2019/05/bridge-reopens", CaptureOptions(
        render=False, wait=10), Library.open(tmp_path / "lib")).record
    assert (record.verdict, record.reason) == ("UNKNOWN", "soft_404")
    assert record.probe is not None and record.probe["outcome"] == "soft_404"
    assert "home page" in record.probe["suspicion"]
    assert len(_probes(host)) == 1


def test_the_home_page_asked_for_is_not_a_suspect(
        host_factory: Callable[..., Host], tmp_path: Path) -> None:
    """The control: the same host's home page, asked for by its own address (or an alias of
    it), is read with no probe."""
    host = host_factory(lambda path: (200, HOME) if path == "/" else
                        (302, b"/") if path == "/index.html" else (404, b""))
    lib = Library.open(tmp_path / "lib")
    for address in ("/", "/index.html"):
        record = capture(f"{host.base}{address}", CaptureOptions(render=False, wait=10),
                         lib).record
        assert record.verdict == "RETRIEVED" and record.probe is None, address
    assert _probes(host) == []


class _Fixed:
    def __init__(self, address: str) -> None:
        self.address = address

    def resolve(self, host: str, port: int) -> list[str]:
        return [self.address]


@pytest.mark.parametrize("exempt", [False, True], ids=["guarded", "control-exempted"])
def test_a_probe_to_a_blocked_address_is_refused(
        exempt: bool, host_factory: Callable[..., Host], tmp_path: Path) -> None:
    host = host_factory(lambda path: (200, OOPS))
    name = f"shop.example:{host.port}"
    allow = AllowHosts(frozenset({name}) if exempt else frozenset())
    guard = AddressGuard(allow=allow, resolver=_Fixed("127.0.0.1"))
    target = check_url(f"http://{name}/products/blue-kettle")
    with Library.open(tmp_path / "lib") as lib:
        row, cached = probe_origin(lib, target, guard, Deadline.after(10.0),
                                   lambda answer: answer.body.decode("utf-8", "replace"))
    if exempt:
        # The control: with the loopback address exempted, the same probe reaches the host,
        # so it is the guard that refuses it otherwise.
        assert row.status == 200 and len(_probes(host)) == 1
    else:
        assert row.status is None and row.failure is not None
        assert row.failure.startswith("refused:")
        assert host.paths == []  # not even robots.txt was asked
    assert cached is False


def test_the_hooks_worker_makes_the_probe_within_its_deadline(
        host_factory: Callable[..., Host], tmp_path: Path) -> None:
    """The hook's worker captures without --now (nobody waits on it), so a suspected page
    gets its probe there too, inside the capture's one deadline."""
    host = host_factory(lambda path: (200, OOPS))
    url = f"{host.base}/products/blue-kettle"
    payload = {"session_id": "s-1", "cwd": str(tmp_path), "hook_event_name": "PostToolUse",
               "tool_name": "WebFetch", "tool_input": {"url": url, "prompt": "What is it?"},
               "tool_response": {"code": 200, "result": "A kettle.", "url": url},
               "tool_use_id": "toolu_1"}
    out = run_cli("capture", script="readreceipt-hook", input=json.dumps(payload),
                  library=tmp_path / "lib", allow=f"127.0.0.1:{host.port}",
                  env={"READRECEIPT_HOOK_FOREGROUND": "1", "READRECEIPT_HOOK_TIMEOUT": "20"})
    assert out.code == 0, out.stderr
    [path] = (tmp_path / "lib" / "records").glob("*.yaml")
    record = yaml.safe_load(path.read_text("utf-8"))
    assert (record["verdict"], record["reason"]) == ("UNKNOWN", "soft_404")
    assert record["probe"]["outcome"] == "soft_404" and len(_probes(host)) == 1


# --- a wall the host serves for every address, named by what the comparison matched -------

NOTICE = ("<p>Our members' area holds the complete archive of the club's newsletters, the "
          "minutes of every meeting since the club was founded, and the booking calendar for "
          "the workshop and its machines. Members renew each January at the annual meeting.</p>"
          "<p>Questions about membership go to the secretary, who answers within a week; the "
          "workshop itself is open on Saturdays from nine until four.</p>")
#: A sign-in box in a dialog beside more text than a bare page holds: the page-only rules
#: read it (a shown dialog beside content is a banner), the comparison does not.
SIGN_IN_EVERYWHERE = (
    f"<html><head><title>Woodworkers' Club</title></head><body><nav><ul>{NAV}</ul></nav>"
    f"<main><h1>Woodworkers' Club</h1>{NOTICE}</main><div class='modal'><form method='post' "
    "action='/session'><input type='text' name='member'><input type='password' name='pw'>"
    "<button>OK</button></form></div></body></html>").encode()
#: A captcha widget beside more text than its gate allows, in words no table has.
CAPTCHA_EVERYWHERE = (
    f"<html><head><title>Woodworkers' Club</title></head><body><nav><ul>{NAV}</ul></nav>"
    f"<main><h1>Woodworkers' Club</h1>{NOTICE}<form action='/verify'><div class='g-recaptcha' "
    "data-sitekey='x'></div><button>OK</button></form></main></body></html>").encode()


#: A maintenance notice inside the site's own chrome, in words no phrase of the tables has:
#: the page-only rules read a page of the site (its navigation, more text than a bare notice
#: holds); served for every address, its heading's word names it.
MAINTENANCE_EVERYWHERE = (
    f"<html><head><title>Houtbewerkersclub</title></head><body><nav><ul>{NAV}</ul></nav>"
    f"<main><h1>Onderhoud aan de website</h1>{NOTICE}</main></body></html>").encode()


@pytest.mark.parametrize(("body", "reason", "named"), [
    (SIGN_IN_EVERYWHERE, "wall:login", "a sign-in form"),
    (CAPTCHA_EVERYWHERE, "wall:challenge", "reCAPTCHA"),
    (MAINTENANCE_EVERYWHERE, "wall:interstitial", "'onderhoud' (maintenance)"),
])
def test_a_wall_served_for_every_address_is_named_by_what_matched(
        host_factory: Callable[..., Host], tmp_path: Path, body: bytes, reason: str,
        named: str) -> None:
    host = host_factory(lambda path: (200, body))
    lib = Library.open(tmp_path / "lib")
    url = f"{host.base}/minutes/2024-03"
    # The page alone reads as the page (under --now no probe is made) ...
    alone = capture(url, CaptureOptions(render=False, now=True), lib).record
    assert alone.verdict == "RETRIEVED"
    # ... the host's answer for a missing path shows it is what every address gets.
    record = capture(url, CaptureOptions(render=False, wait=10),
                     Library.open(tmp_path / "other")).record
    assert (record.verdict, record.reason) == ("UNKNOWN", reason)
    assert record.rule is not None and record.rule.startswith("comparison:")
    assert named in record.rule
    assert record.probe is not None and record.probe["suspicion"].startswith(
        "its main text is short")


def test_a_short_page_sharing_only_its_chrome_with_the_missing_path_answer_stays_read(
        host_factory: Callable[..., Host], tmp_path: Path) -> None:
    short = (f"<html><head><title>Woodworkers' Club</title></head><body><nav><ul>{NAV}</ul>"
             "</nav><main><h1>Bench vice</h1><p>A cast-iron bench vice, donated by a member; "
             "jaws of seven inches, quick release.</p></main></body></html>").encode()
    missing = short.replace(b"<h1>Bench vice</h1><p>A cast-iron bench vice, donated by a "
                            b"member; jaws of seven inches, quick release.</p>",
                            b"<h1>Hmm.</h1><p>Nothing here.</p>")
    host = host_factory(lambda path: (200, short) if path == "/tools/vice" else (200, missing))
    record = capture(f"{host.base}/tools/vice", CaptureOptions(render=False, wait=10),
                     Library.open(tmp_path / "lib")).record
    assert record.verdict == "RETRIEVED", record.rule
    assert record.probe is not None and record.probe["outcome"] == "different"
