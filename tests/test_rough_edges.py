"""The wording and small contracts a new user meets (issue 19, item 15), through the real
console script: plurals, a second forget, the viewer's reason column, a slow server's
timeout, --help that describes every option and ends with exit codes and an example, -v after
the command, a JSON page's length, and what changed between a URL's texts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from conftest import CliResult, LocalServer, article_html, run_cli
from hostile import SlowServer, body_trickle
from library_builder import article, at, put_capture
from readreceipt.cli import _COMMANDS, cli
from readreceipt.store.library import Library

Cli = Callable[..., CliResult]


def test_counts_of_one_are_singular(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    assert cli("capture", url, "--now").code == 0
    status = cli("status").stdout
    assert "1 retrieval of 1 URL;" in status and "0 flags" in status
    history = cli("history", url).stdout
    assert f"{url}: 1 capture, 1 distinct text" in history
    assert "records checked; 0 problems" in cli("verify").stdout


def test_a_second_forget_says_nothing_changed(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    record_id = cli("capture", url, "--now", "--json").json()["record_id"]
    first = cli("forget", url)
    assert first.stdout.startswith(f"forgot the bytes of {record_id}")
    again = cli("forget", url)
    assert again.code == 0
    assert again.stdout.strip() == (f"the bytes of {record_id} ({url}) were not held already; "
                                    "nothing changed")
    data = cli("forget", record_id, "--json").json()
    assert data == {"forgotten": [], "already_forgotten": [record_id]}


def test_the_viewer_names_a_wall_once(tmp_path: Path) -> None:
    from readreceipt.viewer.pages import retrievals

    with Library.open(tmp_path / "lib") as lib:
        put_capture(lib, "https://members.example/", article("Sign in", "Sign in to read."),
                    at(0), verdict="UNKNOWN", reason="wall:login", wall="login")
        put_capture(lib, "https://forbidden.example/", article("Sign in", "Sign in."), at(1),
                    status=403, verdict="FAILED", reason="http_403", wall="login")
        html = retrievals(lib, {}).decode()
    assert "<td>wall:login</td>" in html and "wall:login (login)" not in html
    assert "<td>http_403 (login wall)</td>" in html


def test_a_server_sending_slowly_is_not_said_to_give_no_answer(tmp_path: Path) -> None:
    slow = SlowServer(body_trickle)
    try:
        out = run_cli("capture", slow.url("/page"), "--now", "--timeout", "1",
                      library=tmp_path / "lib", allow=slow.pair)
    finally:
        slow.close()
    assert out.code == 6
    assert "FAILED: no complete answer within 1 s;" in out.stdout
    assert "no answer within" not in out.stdout


def test_log_help_describes_every_option() -> None:
    helped = CliRunner().invoke(cli, ["log", "--help"])
    assert helped.exit_code == 0
    assert "Only retrievals with this verdict" in helped.output
    assert "Only this agent session's retrievals" in helped.output


@pytest.mark.parametrize("name", sorted(_COMMANDS))
def test_every_command_s_help_ends_with_its_exit_codes_and_an_example(name: str) -> None:
    helped = CliRunner().invoke(cli, [name, "--help"])
    assert helped.exit_code == 0, helped.output
    assert 'Exit codes (docs/cli.md, "Exit codes"):' in helped.output
    assert "    0    ok" in helped.output
    assert "Example:\n    " in helped.output and "-v, --verbose" in helped.output


def test_the_console_script_s_help_too() -> None:
    out = run_cli("capture", "--help")
    assert out.code == 0 and "    10   a quotation is not on the page" in out.stdout
    assert "readreceipt capture https://example.org/article --answer answer.md" in out.stdout


def test_v_after_the_command_is_the_group_s(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    out = cli("capture", url, "--now", "-v")
    assert out.code == 0, out.stderr
    assert "No such option" not in out.stderr
    assert cli("status", "-vv", "--json").code == 0


def test_a_json_page_counts_its_numbers_and_booleans(cli: Cli, server: LocalServer) -> None:
    url = server.route("/api", '{"station": "Oslo", "temperature": 21.50, "raining": false, '
                       '"readings": [3, 5, 8], "note": null}',
                       headers={"Content-Type": "application/json"})
    data = cli("capture", url, "--now", "--json").json()
    # Oslo, 21.50, false, 3, 5, 8: one a line (it counted "Oslo" alone, 4 characters).
    assert data["verdict"] == "RETRIEVED"
    shown = cli("show", data["record_id"], "--text").stdout
    assert shown.endswith("--- main text ---\nOslo\n21.50\nfalse\n3\n5\n8\n")
    assert "text_chars: 22\n" in shown


def test_history_says_what_changed_between_versions(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    assert cli("capture", url, "--now").code == 0
    server.route("/a", article_html().replace("four years", "five years"))
    assert cli("capture", url, "--now").code == 0
    out = cli("history", url)
    assert out.code == 0
    lines = out.stdout.splitlines()
    change = next(i for i, line in enumerate(lines) if line.startswith("v1 \u2192 v2 ("))
    assert lines[change].endswith("): 1 word removed, 1 word added")
    assert "[-four-] {+five+} years" in lines[change + 1]
    data = cli("history", url, "--json").json()
    [step] = data["changes"]
    assert (step["from_version"], step["to_version"], step["words_removed"],
            step["words_added"]) == (1, 2, 1, 1)


def test_no_command_lacks_a_help_end() -> None:
    """A command added to the CLI without its exit codes and example fails here."""
    from readreceipt.cli import _HELP_ENDS

    assert set(_HELP_ENDS) == set(_COMMANDS)
    assert all(isinstance(cli.get_command(click.Context(cli), name), click.Command)
               for name in _COMMANDS)
