"""A redirect to a step that carries the address asked for back (reading/redirects.py):
captured from real servers on 127.0.0.1, with the hard negatives that must stay read, and
the address comparison itself on hostile and ordinary URLs.

The sign-in page served here has no sign-in word in its title or heading and thousands of
letters around its form (the shape the sealed set's missed sign-in pages had), so served at
its own address it is read; only where the request was sent says what it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from conftest import run_cli
from readreceipt.browser import render
from readreceipt.errors import ExitCode
from readreceipt.localserver import LocalServer
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.reading.redirects import (
    MAX_FIELDS,
    MAX_URL_CHARS,
    carried_back,
    moved_to_sign_in,
    route_kind,
)
from readreceipt.store.library import Library
from readreceipt.store.records import Record

PITCH = ("Mit Ihrem Kundenkonto verwalten Sie Ihre Abonnements, lesen alle Beiträge der "
         "Zeitung auf jedem Gerät und erhalten jeden Morgen die wichtigsten Nachrichten aus "
         "Ihrer Region per E-Mail. ") * 3
SIGN_IN = (f"<html lang=de><head><title>Tagesblatt</title></head><body><header><a href='/'>"
           f"Tagesblatt</a></header><main><h1>Willkommen zurück</h1><p>{PITCH}</p>"
           f"<p>{PITCH}</p><form method=post action='/konto/anmelden'><label>E-Mail <input "
           "type=email name=email></label><label>Passwort <input type=password name=pw>"
           f"</label><button>Weiter</button></form><p>{PITCH}</p><p>{PITCH}</p><p>{PITCH}</p>"
           "</main><footer><a href='/impressum'>Impressum</a></footer></body></html>")
ARTICLE = ("<html><head><title>Bridge reopens after repairs</title></head><body><article>"
           "<h1>Bridge reopens after repairs</h1>" + "".join(
               f"<p>Paragraph {i}: the old bridge over the river reopened on Monday after two "
               "years of repairs, the council said, with a new footpath and cycle lane.</p>"
               for i in range(12)) + "</article></body></html>")
CHOOSER = ("<html><head><title>Tagesblatt</title></head><body><main><h2>Bitte wählen</h2>"
           "<p><a href='/set?c=de'>Deutschland</a> <a href='/set?c=at'>Österreich</a> "
           "<a href='/set?c=ch'>Schweiz</a></p></main></body></html>")
HTML = {"content-type": "text/html; charset=utf-8"}


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalServer]:
    with LocalServer() as srv:
        monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", srv.pair)
        yield srv


def _capture(site: LocalServer, path: str, tmp_path: Path) -> Record:
    return capture(site.url(path), CaptureOptions(now=True, render=False),
                   Library.open(tmp_path / "lib")).record


def _redirect(site: LocalServer, path: str, to: str) -> None:
    site.route(path, status=302, headers={"location": to})


def test_a_sign_in_page_reached_by_a_redirect_that_carries_the_address_back_is_named(
        site: LocalServer, tmp_path: Path) -> None:
    site.route("/konto/anmelden", SIGN_IN, headers=HTML)
    site.route("/direkt", SIGN_IN, headers=HTML)
    _redirect(site, "/politik/artikel-42", "/konto/anmelden?next=%2Fpolitik%2Fartikel-42")
    # The control: the same page at its own address is read (the rule below is what names
    # it, not its words or its form's share of the page).
    assert _capture(site, "/direkt", tmp_path).verdict == "RETRIEVED"
    record = _capture(site, "/politik/artikel-42", tmp_path)
    assert (record.verdict, record.reason, record.wall) == ("UNKNOWN", "wall:login", "login")
    assert record.rule is not None and record.rule.startswith("comparison:")
    assert "(next)" in record.rule and "named by a sign-in form" in record.rule


def test_a_step_nothing_names_is_an_interstitial_and_its_address_can_name_it(
        site: LocalServer, tmp_path: Path) -> None:
    site.route("/land-waehlen", CHOOSER, headers=HTML)
    site.route("/fehler/404.aspx", CHOOSER, headers=HTML)
    _redirect(site, "/sport/1", f"{site.base}/land-waehlen?returnUrl={site.base}/sport/1")
    _redirect(site, "/sport/2", "/fehler/404.aspx?aspxerrorpath=/sport/2")
    first = _capture(site, "/sport/1", tmp_path)
    assert (first.reason, first.wall) == ("wall:interstitial", "interstitial")
    assert first.rule is not None and "named by nothing else" in first.rule
    second = _capture(site, "/sport/2", tmp_path)
    assert second.reason == "soft_404" and second.wall is None
    assert second.rule is not None and "aspxerrorpath" in second.rule


def test_a_redirect_to_a_bare_sign_in_route_showing_its_form_is_a_sign_in(
        site: LocalServer, tmp_path: Path) -> None:
    """Devise and Laravel keep the address to return to in the session: the redirect goes
    to the bare route. Its words name the step only with its form in the content; a page
    at another route with a sign-in box in its header is read."""
    site.route("/users/sign_in", SIGN_IN, headers=HTML)
    boxed = ARTICLE.replace("<article>", "<header><form action='/session'><input name=user>"
                            "<input type=password name=pw><button>Go</button></form></header>"
                            "<article>")
    site.route("/users/profile", boxed, headers=HTML)
    site.route("/login-help", ARTICLE, headers=HTML)
    _redirect(site, "/reports/q3", "/users/sign_in")
    _redirect(site, "/reports/q4", "/users/profile")
    _redirect(site, "/reports/q5", "/login-help")
    record = _capture(site, "/reports/q3", tmp_path)
    assert (record.reason, record.wall) == ("wall:login", "login")
    assert record.rule is not None and "sign-in route" in record.rule
    for path in ("/reports/q4", "/reports/q5"):
        other = _capture(site, path, tmp_path)
        assert (other.verdict, other.reason) == ("RETRIEVED", "ok"), (path, other.rule)


def test_an_oauth_authorization_request_on_the_way_is_a_sign_in(
        site: LocalServer, tmp_path: Path) -> None:
    site.route("/authorize", CHOOSER, headers=HTML)
    _redirect(site, "/docs/guide", "/authorize?response_type=code&client_id=wiki"
              "&redirect_uri=%2Fcallback")
    record = _capture(site, "/docs/guide", tmp_path)
    assert (record.reason, record.wall) == ("wall:login", "login")
    assert record.rule is not None and "OAuth 2.0 authorization request" in record.rule


def test_redirects_that_lead_to_the_page_itself_stay_read(
        site: LocalServer, tmp_path: Path) -> None:
    """A moved page with a tracking parameter naming where it came from; the same page under
    a language folder carrying its old path; a step passed (the sign-in answers with the
    page once its cookie is set) and the page served after it."""
    site.route("/neu/bruecke", ARTICLE, headers=HTML)
    site.route("/en/news/bridge", ARTICLE, headers=HTML)
    _redirect(site, "/alt/bruecke", "/neu/bruecke?from=%2Falt%2Fbruecke&utm_source=feed")
    _redirect(site, "/news/bridge", "/en/news/bridge?redirect=%2Fnews%2Fbridge")
    served = {"n": 0}

    def once_then_page(handler: BaseHTTPRequestHandler) -> None:
        served["n"] += 1
        if served["n"] == 1:
            handler.send_response(302)
            handler.send_header("Location", "/sso?next=%2Fstory")
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        body = ARTICLE.encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html; charset=utf-8")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    site.route("/story", handler=once_then_page)
    _redirect(site, "/sso", "/story")
    for path in ("/alt/bruecke", "/news/bridge", "/story"):
        record = _capture(site, path, tmp_path)
        assert (record.verdict, record.reason) == ("RETRIEVED", "ok"), (path, record.rule)
    assert served["n"] == 2  # the step was on the way: asked, sent on, served


@pytest.mark.parametrize(("asked", "reached", "parameter"), [
    ("https://ex.org/a/b", ["https://ex.org/login?next=/a/b"], "next"),
    ("https://ex.org/a/b", ["https://ex.org/login?next=%252Fa%252Fb"], "next"),  # twice
    ("https://ex.org/a/b/", ["https://www.ex.org/users/sign_in?ReturnUrl=%2Fa%2Fb"],
     "ReturnUrl"),
    ("https://ex.org/a", ["https://id.other.net/cas/login?service=https%3A%2F%2Fex.org%2Fa"],
     "service"),
    ("https://ex.org/a", ["https://ex.org/#/login?redirect=%2Fa"], "redirect"),
    ("https://ex.org/a", ["https://ex.org/step?x=1", "https://ex.org/gate?continue=/a"],
     "continue"),
    ("https://ex.org/", ["https://ex.org/wp-login.php?redirect_to=%2F"], "redirect_to"),
    ("https://ex.org/in/someone", ["https://ex.org/authwall?trk=x&sessionRedirect="
                                   "https%3A%2F%2Fwww.ex.org%2Fin%2Fsomeone"], "sessionRedirect"),
    # Joomla's log-in view: the address base64-encoded, in either alphabet, padded or not.
    ("https://ex.org/news/42", ["https://ex.org/index.php?option=com_users&view=login"
                                "&return=aHR0cHM6Ly9leC5vcmcvbmV3cy80Mg=="], "return"),
    ("https://ex.org/news/42", ["https://ex.org/index.php?view=login&return=L25ld3MvNDI"],
     "return"),
])
def test_an_address_carried_back(asked: str, reached: list[str], parameter: str) -> None:
    found = carried_back(asked, reached)
    assert found is not None and found.parameter == parameter


@pytest.mark.parametrize(("asked", "reached"), [
    ("https://ex.org/a", ["https://ex.org/b?from=/a"]),  # where it came from
    ("https://ex.org/a", ["https://ex.org/b?next=/c"]),  # another page's address
    ("https://ex.org/a", ["https://ex.org/en/a?next=/a"]),  # the page under a folder
    ("https://ex.org/a", ["https://ex.org/login?next=/a", "https://ex.org/a"]),  # passed
    ("https://ex.org/a", ["https://other.net/login?next=/a"]),  # a path of another host
    ("https://ex.org/a", ["https://ex.org/b?next=https://evil.test/a"]),
    ("https://ex.org/a", ["http://[::1/b?next=/a"]),  # not a URL
    ("https://ex.org/a", []),
    ("https://ex.org/news/42", ["https://ex.org/b?next=aHR0cHM6Ly9leC5vcmcvbmV3cy80Mg=="]),
    ("https://ex.org/news/42", ["https://ex.org/b?return=bm90IGEgdXJs"]),  # base64, no URL
])
def test_an_address_not_carried_back(asked: str, reached: list[str]) -> None:
    assert carried_back(asked, reached) is None


def test_a_hostile_location_is_read_to_its_caps() -> None:
    """Parameters past the first MAX_FIELDS, and characters past the URL's cap, are never
    parsed: a continuation hidden behind a flood of them is not seen, and the flood costs
    a bounded parse (the same answer as its first fields alone)."""
    past = "&".join("f=v" for _ in range(MAX_FIELDS))  # well inside the URL's cap
    assert carried_back("https://ex.org/a", [f"https://ex.org/b?{past}&next=/a"]) is None
    near = "&".join("f=v" for _ in range(MAX_FIELDS - 1))
    assert carried_back("https://ex.org/a", [f"https://ex.org/b?{near}&next=/a"]) is not None
    beyond = "https://ex.org/b?pad=" + "v" * MAX_URL_CHARS + "&next=/a"
    assert carried_back("https://ex.org/a", [beyond]) is None
    flood = "&".join(f"f{i}=v" for i in range(200_000))
    assert carried_back("https://ex.org/a", [f"https://ex.org/b?{flood}&next=/a"]) is None
    long_path = "https://ex.org/" + "x/" * 1_000_000
    assert carried_back("https://ex.org/a", [long_path + "?next=/a"]) is None
    assert route_kind(long_path + "login") is None


@pytest.mark.parametrize(("asked", "final", "moved"), [
    ("https://ex.org/a", "https://ex.org/users/sign_in", True),
    ("https://ex.org/a", "https://ex.org/wp-login.php", True),
    ("https://ex.org/a", "https://ex.org/Account/LogOn", True),
    ("https://ex.org/login", "https://ex.org/login/", False),  # the page asked for
    ("https://ex.org/a", "https://ex.org/account/settings", False),  # not a sign-in route
    ("https://ex.org/a", "https://ex.org/blog/login-tips-for-admins", False),
])
def test_a_move_to_a_sign_in_route(asked: str, final: str, moved: bool) -> None:
    assert moved_to_sign_in(asked, final) is moved


@pytest.mark.parametrize(("url", "kind"), [
    ("https://ex.org/accounts/login/?next=/a", "login"),
    ("https://login.microsoftonline.com/common/oauth2/authorize", "login"),
    ("https://passport.yandex.ru/auth?retpath=x", "login"),
    ("https://consent.yahoo.com/v2/collectConsent?sessionId=1", "consent"),
    ("https://ex.org/Error.aspx?aspxerrorpath=/a", "interstitial"),
    ("https://ex.org/errors/404.html", "soft_404"),
    ("https://ex.org/land-waehlen", None),
])
def test_a_step_named_by_its_address(url: str, kind: str | None) -> None:
    assert route_kind(url) == kind



def test_a_sign_in_request_refused_for_its_state_says_it_is_a_sign_in_step(
        site: LocalServer, tmp_path: Path) -> None:
    """An OAuth sign-in request carries ``state``, which the URL policy refuses to follow or
    keep; the one line the reader gets says the hop was, by its address, a sign-in step, and
    neither it nor the skip log holds the refused query's values."""
    _redirect(site, "/docs/guide", "/oauth2/authorize?response_type=code&client_id=wiki"
              "&state=s3cr3tstate&redirect_uri=%2Fcb")
    _redirect(site, "/docs/other", "/files/get?state=s3cr3tstate")
    lib = tmp_path / "cli-lib"
    named = run_cli("capture", "--now", site.url("/docs/guide"), library=lib,
                    allow=site.pair)
    assert named.code == ExitCode.REFUSED
    assert "by its address a sign-in step" in named.stderr and "/oauth2/authorize" in named.stderr
    assert "Traceback" not in named.stderr and len(named.stderr.strip().splitlines()) == 1
    plain = run_cli("capture", "--now", site.url("/docs/other"), library=lib, allow=site.pair)
    assert plain.code == ExitCode.REFUSED and "sign-in step" not in plain.stderr
    skipped = (lib / "skipped.jsonl").read_text()
    assert "sign-in step" in skipped and "s3cr3tstate" not in skipped + named.stderr


@pytest.mark.browser
@pytest.mark.skipif(render.system_browser() is None,
                    reason="no Chromium executable here (.ci/run installs Debian's chromium)")
def test_a_script_that_sends_a_shell_to_its_sign_in_route_is_named_after_rendering(
        site: LocalServer, tmp_path: Path) -> None:
    """A single-page app's shell whose script, finding no session, replaces the address
    with its sign-in route and the page to return to: the static copy is a shell, the
    rendered one a sign-in page at another address that carries the asked one back."""
    site.route("/konto/anmelden", SIGN_IN, headers=HTML)
    site.route("/app/bericht", "<!doctype html><html><head><title>Tagesblatt</title></head>"
               "<body><div id='root'></div><script>location.replace('/konto/anmelden"
               "?redirect=' + encodeURIComponent(location.pathname))</script></body></html>",
               headers=HTML)
    record = capture(site.url("/app/bericht"), CaptureOptions(now=True, timeout=30),
                     Library.open(tmp_path / "lib")).record
    assert record.javascript_executed is True
    assert (record.verdict, record.reason) == ("UNKNOWN", "wall:login"), record.rule
    assert record.rule is not None and record.rule.startswith("comparison:")
    assert "(redirect)" in record.rule
