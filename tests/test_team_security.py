"""A team library's secrets stay secret, and its TLS settings are the user's.

The database password (in the index URL, as the environment may carry it) and the AWS
secret key must never reach a record, a log line, an error message or ``--json`` output: the
test runs every command, the hook and the failure paths with both set, then searches every
byte printed and every byte written (the local folders, the bucket's objects, the index's
rows) for them. A control shows the search finds a secret where one is.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import subprocess
from pathlib import Path

import pytest

from conftest import BIN, CliResult, LocalServer, article_html, clean_env
from listener import LoopbackListener
from readreceipt.errors import LibraryError
from readreceipt.store.team import config
from teamstore import AWS_SECRET, PG_PASSWORD, Team
from test_hook import MISQUOTE, other_tool, webfetch

SECRETS = (PG_PASSWORD.encode(), AWS_SECRET.encode())


def run(*args: str, cwd: Path, env: dict[str, str], input: bytes | None = None,
        script: str = "readreceipt") -> CliResult:
    proc = subprocess.run([str(BIN / script), *args], cwd=cwd, env=clean_env(**env),
                          input=input, capture_output=True, timeout=180, check=False)
    return CliResult(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                     proc.stderr.decode("utf-8", "replace"))


def _everything_written(team: Team, folder: Path) -> list[tuple[str, bytes]]:
    found = [(str(p), p.read_bytes()) for p in folder.rglob("*") if p.is_file()]
    found += [(key, key.encode() + b"\n" + team.get(key)) for key in team.object_keys()]
    tables = [r[0] for r in team.sql("SELECT table_name FROM information_schema.tables WHERE "
                                     "table_schema = %s", team.schema)]
    assert "retrievals" in tables and "log_entries" in tables
    for table in tables:
        rows = team.sql(f"SELECT row_to_json(t)::text FROM {team.schema}.{table} t")  # noqa: S608 - names from the catalogue
        found.append((f"table {table}", "\n".join(r[0] for r in rows).encode()))
    return found


def _leaks(places: list[tuple[str, bytes]]) -> list[str]:
    return [where for where, data in places for secret in SECRETS if secret in data]


def test_no_secret_is_written_or_printed(team: Team, tmp_path: Path,
                                         server: LocalServer) -> None:
    assert PG_PASSWORD in team.index_url  # the environment does carry the password
    env = {**team.env, "READRECEIPT_ALLOW_HOSTS": server.pair}
    page = server.route("/page", article_html())
    printed: list[tuple[str, bytes]] = []

    def keep(name: str, result: CliResult) -> CliResult:
        printed.append((name, (result.stdout + result.stderr).encode()))
        return result

    ok = [
        keep("capture", run("capture", page, "--json", "--answer", "-", cwd=tmp_path, env=env,
                            input=MISQUOTE.encode())),
        keep("status", run("status", "--json", cwd=tmp_path, env=env)),
        keep("status text", run("-vv", "status", cwd=tmp_path, env=env)),
        keep("log", run("log", "--json", cwd=tmp_path, env=env)),
        keep("show", run("show", page, "--json", cwd=tmp_path, env=env)),
        keep("history", run("history", page, "--json", cwd=tmp_path, env=env)),
        keep("verify", run("verify", "--json", cwd=tmp_path, env=env)),
        keep("export", run("export", "--warc", str(tmp_path / "out.warc"), "--json",
                           cwd=tmp_path, env=env)),
        keep("hook capture", run("capture", cwd=tmp_path, script="readreceipt-hook",
                                 env={**env, "READRECEIPT_HOOK_FOREGROUND": "1"},
                                 input=json.dumps(webfetch(page + "?x=1", MISQUOTE,
                                                           cwd=str(tmp_path))).encode())),
        keep("hook report", run("report", cwd=tmp_path, script="readreceipt-hook", env=env,
                                input=json.dumps(other_tool(cwd=str(tmp_path))).encode())),
    ]
    assert [r.code for r in ok] == [10, 0, 0, 0, 0, 0, 0, 0, 0, 0], [r.stderr for r in ok]
    assert "We did not make the bridge stronger" in ok[-1].stdout

    unreachable = team.postgres.url(team.schema).replace(f":{team.postgres.port}/", ":1/")
    failing = [
        # the index does not answer: the URL with its password is named in the error
        keep("no index", run("--verbose", "status", "--json", cwd=tmp_path,
                             env={**env, "READRECEIPT_INDEX_URL": unreachable})),
        keep("no index, option", run("--index-url", unreachable, "--blobs-url",
                                     team.blobs_url, "log", cwd=tmp_path, env=env)),
        # the bucket does not exist: the first write fails
        keep("no bucket", run("capture", server.route("/other", article_html()), "--now",
                              "--json", cwd=tmp_path,
                              env={**env, "READRECEIPT_BLOBS_URL": "s3://no-such-bucket/x"})),
        # a password on its way into config.toml
        keep("init", run("init", "--index-url", team.index_url, "--blobs-url", team.blobs_url,
                         cwd=tmp_path, env=env)),
    ]
    assert [r.code for r in failing] == [1, 1, 1, 1], [r.stderr for r in failing]
    assert "cannot be reached" in failing[0].stdout  # said in --json too
    assert "no-such-bucket" in failing[2].stderr and "Traceback" not in failing[2].stderr
    for result in failing:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr

    leaks = _leaks(printed + _everything_written(team, tmp_path))
    assert not leaks, leaks


def test_the_search_finds_a_secret_where_one_is(team: Team,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The control: without redaction, what `status --json` says of the library holds the
    # password, and the search above would name it.
    made = config.resolve(None, index_url=team.index_url, blobs_url=team.blobs_url)
    assert made is not None
    assert not _leaks([("redacted", made.describe().encode())])
    monkeypatch.setattr(config, "redact_dsn", lambda url: url)
    assert _leaks([("not redacted", made.describe().encode())]) == ["not redacted"]
    assert config.scrub(f"failed: {team.index_url}", made.secrets).count(PG_PASSWORD) == 0


def test_tls_settings_of_the_index_url_are_honoured(team: Team, tmp_path: Path) -> None:
    # The throwaway server speaks no TLS: demanding it must fail, in libpq's own words.
    required = run("status", cwd=tmp_path,
                   env={**team.env, "READRECEIPT_INDEX_URL": team.index_url + "&sslmode=require"})
    assert required.code == 1
    assert "SSL" in required.stderr and "Traceback" not in required.stderr
    assert PG_PASSWORD not in required.stderr
    allowed = run("status", cwd=tmp_path,
                  env={**team.env, "READRECEIPT_INDEX_URL": team.index_url + "&sslmode=disable"})
    assert allowed.code == 0, allowed.stderr


def test_a_connection_string_that_is_not_a_url_is_refused_without_echo(tmp_path: Path) -> None:
    dsn = f"host=127.0.0.1 dbname=x password={PG_PASSWORD}"
    result = run("--index-url", dsn, "--blobs-url", "s3://bucket/x", "status", "--json",
                 cwd=tmp_path, env={})
    assert result.code == 1 and "key=value" in result.stderr
    assert PG_PASSWORD not in result.stdout + result.stderr
    assert not (tmp_path / ".readreceipt").exists()


class CleartextAsker(LoopbackListener):
    """A PostgreSQL server in nothing but its first words: it asks every client for its
    password in the clear (AuthenticationCleartextPassword), or with ``md5`` for its md5 hash
    under a salt of the server's choosing (AuthenticationMD5Password), and keeps what it is
    sent."""

    def __init__(self, md5: bool = False) -> None:
        self.received: list[bytes] = []
        self.md5 = md5
        super().__init__()

    def handle(self, conn: socket.socket) -> None:
        with contextlib.suppress(OSError, struct.error):
            conn.settimeout(10)
            self._serve(conn)

    def _serve(self, conn: socket.socket) -> None:
        while True:  # SSLRequest and GSSENCRequest are declined; then the startup message
            length, code = struct.unpack("!ii", _exactly(conn, 8))
            if code in (80877103, 80877104):
                conn.sendall(b"N")
                continue
            _exactly(conn, length - 8)
            break
        if self.md5:
            conn.sendall(b"R" + struct.pack("!ii", 12, 5) + b"salt")
        else:
            conn.sendall(b"R" + struct.pack("!ii", 8, 3))
        if conn.recv(1) == b"p":
            (length,) = struct.unpack("!i", _exactly(conn, 4))
            self.received.append(_exactly(conn, length - 4))
        fields = b"SFATAL\0C28P01\0Mpassword authentication failed\0\0"
        conn.sendall(b"E" + struct.pack("!i", len(fields) + 4) + fields)


def _exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise OSError("closed")
        data += chunk
    return data


@pytest.mark.parametrize("md5", [False, True], ids=["cleartext", "md5"])
def test_a_config_file_s_index_is_never_sent_the_password(tmp_path: Path, md5: bool) -> None:
    """config.toml is a project's file, and a repository can carry one that names any server:
    libpq handed that server PGPASSWORD in the clear when it asked so, or md5(PGPASSWORD +
    user) under its own salt (a guess at the password can be tested against it offline).
    From a config.toml: SCRAM or nothing."""
    pytest.importorskip("psycopg")
    asker = CleartextAsker(md5=md5)
    url = f"postgresql://reader@127.0.0.1:{asker.port}/evidence?connect_timeout=5"
    project = tmp_path / "cloned"
    (project / ".readreceipt").mkdir(parents=True)
    (project / ".readreceipt" / "config.toml").write_text(
        f'[team]\nindex_url = "{url}"\nblobs_url = "s3://team-bucket/x"\n')
    env = {"PGPASSWORD": PG_PASSWORD, "AWS_ACCESS_KEY_ID": "AKIAEXAMPLEEXAMPLE00",
           "AWS_SECRET_ACCESS_KEY": AWS_SECRET}
    try:
        from_file = run("status", "--json", cwd=project, env=env)
        assert from_file.code == 1 and "Traceback" not in from_file.stderr
        assert asker.received == []
        # the control: a URL the user gave (the environment) is answered as the server asks
        given = run("status", cwd=tmp_path, env={**env, "READRECEIPT_INDEX_URL": url,
                                                 "READRECEIPT_BLOBS_URL": "s3://b-ucket/x"})
        assert given.code == 1
        if md5:
            assert len(asker.received) == 1 and asker.received[0].startswith(b"md5")
        else:
            assert asker.received == [PG_PASSWORD.encode() + b"\0"]
    finally:
        asker.close()
    for result in (from_file, given):
        assert PG_PASSWORD not in result.stdout + result.stderr


@pytest.mark.parametrize(("query", "named"), [
    ("sslkeylogfile={keylog}", "sslkeylogfile"),  # status appended TLS secrets to the file
    ("host=/var/run/postgresql", "host"),          # the user's own database, by its socket
    ("service=mine", "service"),
    ("passfile={keylog}", "passfile"),
    ("sslcert=/home/me/.postgresql/postgresql.crt", "sslcert"),
    ("sslkey=/home/me/.postgresql/postgresql.key", "sslkey"),
    ("hostaddr=127.0.0.1", "hostaddr"),
    ("options=-c%20log_statement%3Dall", "log_statement"),
    ("options=--session_preload_libraries%3Dx", "session_preload_libraries"),
])
def test_a_config_file_may_set_only_the_allowed_parameters(tmp_path: Path, query: str,
                                                           named: str) -> None:
    keylog = tmp_path / "keylog.txt"
    project = tmp_path / "cloned"
    (project / ".readreceipt").mkdir(parents=True)
    url = f"postgresql://reader@db.example:5432/evidence?{query.format(keylog=keylog)}"
    (project / ".readreceipt" / "config.toml").write_text(
        f'[team]\nindex_url = "{url}"\nblobs_url = "s3://team-bucket/x"\n')
    with pytest.raises(LibraryError) as refused:
        config.from_folder(project / ".readreceipt")
    assert named in str(refused.value) and "\n" not in str(refused.value)
    result = run("status", cwd=project, env={"PGPASSWORD": PG_PASSWORD})
    assert result.code == 1 and "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and named in lines[0], result.stderr
    assert not keylog.exists()


@pytest.mark.parametrize("url", [
    "postgresql:///evidence",                                   # no host: a local socket
    "postgresql://%2Fvar%2Frun%2Fpostgresql/evidence",          # a socket folder
    "postgresql://db.example,%2Ftmp/evidence",                  # one of several
])
def test_a_config_file_must_name_a_network_host(tmp_path: Path, url: str) -> None:
    folder = tmp_path / ".readreceipt"
    folder.mkdir()
    (folder / "config.toml").write_text(
        f'[team]\nindex_url = "{url}"\nblobs_url = "s3://team-bucket/x"\n')
    with pytest.raises(LibraryError, match="network host"):
        config.from_folder(folder)


def test_a_config_file_may_set_the_allowed_parameters(tmp_path: Path) -> None:
    folder = tmp_path / ".readreceipt"
    folder.mkdir()
    url = ("postgresql://reader@db.example:5432/evidence?sslmode=verify-full&sslrootcert="
           "/etc/ssl/ca.pem&connect_timeout=5&application_name=rr&options=-csearch_path%3Dt1"
           "&require_auth=scram-sha-256")
    (folder / "config.toml").write_text(
        f'[team]\nindex_url = "{url}"\nblobs_url = "s3://team-bucket/x"\n')
    found = config.from_folder(folder)
    assert found is not None and found.index_url == url


@pytest.mark.parametrize("url", [
    # the file names require_auth itself, allowing the password in the clear
    "postgresql://reader@127.0.0.1:{port}/evidence?connect_timeout=5&require_auth=password",
    "postgresql://reader@127.0.0.1:{port}/evidence?connect_timeout=5&require%5Fauth=!md5",
    # or its md5 hash
    "postgresql://reader@127.0.0.1:{port}/evidence?connect_timeout=5&require_auth=md5",
    "postgresql://reader@127.0.0.1:{port}/evidence?connect_timeout=5&require_auth=!password",
    # the words 'require_auth' where they are no parameter (a role, a database)
    "postgresql://require_auth@127.0.0.1:{port}/evidence?connect_timeout=5",
    "postgresql://reader@127.0.0.1:{port}/require_auth?connect_timeout=5",
])
def test_a_config_file_cannot_lift_the_cleartext_guard(tmp_path: Path, url: str) -> None:
    pytest.importorskip("psycopg")
    asker = CleartextAsker()
    project = tmp_path / "cloned"
    (project / ".readreceipt").mkdir(parents=True)
    (project / ".readreceipt" / "config.toml").write_text(
        f'[team]\nindex_url = "{url.format(port=asker.port)}"\n'
        'blobs_url = "s3://team-bucket/x"\n')
    env = {"PGPASSWORD": PG_PASSWORD, "AWS_ACCESS_KEY_ID": "AKIAEXAMPLEEXAMPLE00",
           "AWS_SECRET_ACCESS_KEY": AWS_SECRET}
    try:
        result = run("status", "--json", cwd=project, env=env)
    finally:
        asker.close()
    assert result.code == 1 and "Traceback" not in result.stderr, result.stderr
    assert asker.received == []
    assert PG_PASSWORD not in result.stdout + result.stderr


def test_a_config_file_may_set_a_require_auth_that_keeps_the_password_back(
        tmp_path: Path) -> None:
    folder = tmp_path / ".readreceipt"
    folder.mkdir()
    for value in ("scram-sha-256", "!password,!md5", "scram-sha-256,none"):
        (folder / "config.toml").write_text(
            f'[team]\nindex_url = "postgresql://reader@db.example/evidence?require_auth='
            f'{value}"\nblobs_url = "s3://team-bucket/x"\n')
        assert config.from_folder(folder) is not None


def test_init_will_not_write_a_require_auth_a_config_file_may_not_hold(tmp_path: Path) -> None:
    url = "postgresql://reader@db.example/evidence?require_auth=md5,password"
    result = run("init", "--no-check", "--index-url", url, "--blobs-url", "s3://team-bucket/x",
                 cwd=tmp_path, env={})
    assert result.code == 1 and "nothing was written" in result.stderr, result.stderr
    assert not (tmp_path / ".readreceipt" / "config.toml").exists()
    # the control: one that keeps the password back is written
    kept = url.replace("md5,password", "scram-sha-256")
    written = run("init", "--no-check", "--index-url", kept, "--blobs-url",
                  "s3://team-bucket/x", cwd=tmp_path, env={})
    assert written.code == 0, written.stderr
    assert kept in (tmp_path / ".readreceipt" / "config.toml").read_text()


def test_a_password_written_oddly_in_the_url_is_scrubbed_as_written(tmp_path: Path) -> None:
    # libpq echoes the part of a URL it cannot parse: here the password as written (a space
    # and a percent escape), which is neither the password nor its quoted form.
    pytest.importorskip("psycopg")
    token = PG_PASSWORD.removeprefix("pg-")
    url = f"postgresql://reader:{token} x%21y@127.0.0.1:1/evidence"
    result = run("status", "--json", cwd=tmp_path,
                 env={"READRECEIPT_INDEX_URL": url, "READRECEIPT_BLOBS_URL": "s3://b-ucket/x"})
    assert result.code == 1 and "Traceback" not in result.stderr, result.stderr
    assert "unexpected spaces" in result.stderr  # libpq's words, with the password scrubbed
    assert token not in result.stdout + result.stderr, result.stderr


def test_a_config_file_s_team_store_is_named_to_the_user_once(
        team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder found on the way up can carry a config.toml naming any servers: the first
    command that uses it says which, from which file, on stderr, once; a process nobody
    watches (the hook's worker) sends nothing to servers the user was never shown."""
    from readreceipt.store.library import Library

    index_url = team.postgres.url(team.schema, password="").replace("postgres:@", "postgres@")
    project = tmp_path / "cloned"
    (project / ".readreceipt").mkdir(parents=True)
    path = project / ".readreceipt" / "config.toml"
    path.write_text(f'[team]\nindex_url = "{index_url}"\nblobs_url = "{team.blobs_url}"\n')
    env = {k: v for k, v in team.env.items() if not k.startswith("READRECEIPT_")}
    for key in ("READRECEIPT_INDEX_URL", "READRECEIPT_BLOBS_URL"):
        monkeypatch.delenv(key)

    with pytest.raises(LibraryError) as unseen:
        Library.locate(cwd=project, watched=False)
    assert unseen.value.reason == "team_not_shown"

    first = run("status", cwd=project, env=env)
    assert first.code == 0, first.stderr
    told = [line for line in first.stderr.splitlines() if "names a team library" in line]
    assert len(told) == 1
    assert str(path) in told[0] and f"127.0.0.1:{team.postgres.port}" in told[0]
    assert team.blobs_url.split("/")[2] in told[0]
    again = run("status", cwd=project, env=env)
    assert again.code == 0 and "names a team library" not in again.stderr
    shown = config.state_folder()
    assert (shown / config.SHOWN_FILE).read_text().count(str(path)) == 1
    with Library.locate(cwd=project, watched=False) as lib:
        assert lib.team is not None
    # the same file naming another server is told again
    other = index_url.replace("/postgres?", "/other?")
    path.write_text(f'[team]\nindex_url = "{other}"\nblobs_url = "{team.blobs_url}"\n')
    with pytest.raises(LibraryError):
        Library.locate(cwd=project, watched=False)
