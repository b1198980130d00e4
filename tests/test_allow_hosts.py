"""READRECEIPT_ALLOW_HOSTS: a host alone allows every port, an entry that can never match is
warned of, and a refused test server is told (at a terminal only) how to allow it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import LocalServer, article_html, run_cli, run_on_terminal
from readreceipt.fetching.addresses import AllowHosts


@pytest.mark.parametrize("raw", ["127.0.0.1", "127.0.0.1:*", " 127.0.0.1 ,other.test:80"])
def test_a_host_alone_allows_every_port(raw: str) -> None:
    allow, unusable = AllowHosts.parse(raw)
    assert unusable == []
    assert allow.exempts("127.0.0.1", 8000) and allow.exempts("127.0.0.1", 65535)
    assert not allow.exempts("127.0.0.2", 8000)


def test_pairs_and_ipv6() -> None:
    allow, unusable = AllowHosts.parse("127.0.0.1:8000,[::1]:9000,::2")
    assert unusable == []
    assert allow.exempts("127.0.0.1", 8000) and not allow.exempts("127.0.0.1", 8001)
    assert allow.exempts("::1", 9000) and allow.exempts("[::1]", 9000)
    assert not allow.exempts("::1", 9001) and allow.exempts("::2", 1)


@pytest.mark.parametrize(("entry", "why"), [
    ("localhost:8000", "refuses the name localhost"),
    ("http://127.0.0.1:8000/", "it is a URL"),
    ("127.0.0.1:http", "is not a port"),
    ("127.0.0.1:70000", "is not a port"),
    ("127.0.0.1:", "no port"),
    ("169.254.169.254", "metadata address is never exempted"),
    ("[::1", "[address]:port"),
])
def test_an_entry_that_can_never_match_is_named(entry: str, why: str) -> None:
    allow, unusable = AllowHosts.parse(entry)
    assert not allow
    [(named, reason)] = unusable
    assert named == entry and why in reason


def test_the_cli_accepts_a_host_alone(server: LocalServer, tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    out = run_cli("capture", url, "--now", "--json", library=tmp_path / "lib",
                  allow="127.0.0.1")
    assert out.code == 0, out.stderr
    assert server.pair in out.json()["policy_exemption"]


def test_the_cli_warns_of_an_entry_that_cannot_match(server: LocalServer,
                                                     tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    out = run_cli("capture", url, "--now", library=tmp_path / "lib",
                  allow=f"localhost:{server.port}")
    assert out.code == 2  # still refused: the entry names nothing
    assert f"READRECEIPT_ALLOW_HOSTS: 'localhost:{server.port}' can never match" in out.stderr


def test_a_refused_test_server_is_told_how_to_allow_it_at_a_terminal(
        server: LocalServer, tmp_path: Path) -> None:
    url = server.route("/a", article_html())
    env = {"READRECEIPT_LIBRARY": str(tmp_path / "lib")}
    code, _, err = run_on_terminal(["capture", url, "--now"], env)
    assert code == 2
    assert f"set READRECEIPT_ALLOW_HOSTS={server.pair}" in err, err
    # Not on a pipe: an agent that met a redirect to 127.0.0.1 is not told how to lift the
    # guard; and never for a cloud metadata address.
    piped = run_cli("capture", url, "--now", library=tmp_path / "lib")
    assert piped.code == 2 and "READRECEIPT_ALLOW_HOSTS" not in piped.stderr
    code, _, err = run_on_terminal(["capture", "http://169.254.169.254/latest/", "--now"], env)
    assert code == 2 and "READRECEIPT_ALLOW_HOSTS" not in err


def test_a_value_parsed_again_gives_the_same_exemptions_and_its_own_list() -> None:
    # parse is remembered a value (every capture reads the variable): the same answer, and
    # a caller changing the list it got back changes nothing for the next.
    raw = "127.0.0.1:8000,http://bad/,[::1]:9000,other.test"
    allow, unusable = AllowHosts.parse(raw)
    unusable.append(("x", "y"))
    again, unusable_again = AllowHosts.parse(raw)
    assert again == allow and unusable_again == [("http://bad/", "it is a URL; give its "
                                                                 "host:port")]
    assert AllowHosts._parse(raw) == (allow, tuple(unusable_again))


def test_a_changed_variable_is_read_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", "127.0.0.1:8000")
    assert AllowHosts.from_env().exempts("127.0.0.1", 8000)
    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", "127.0.0.1:8001")
    allow = AllowHosts.from_env()
    assert allow.exempts("127.0.0.1", 8001) and not allow.exempts("127.0.0.1", 8000)
