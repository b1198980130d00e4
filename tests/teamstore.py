"""A real team store for the tests: a throwaway PostgreSQL cluster and a moto S3 server.

Both are started once per test session, on 127.0.0.1, the first time a test asks for them,
and stopped when the session ends. Each test gets its own schema (through the URL's
``options=-csearch_path=...``, a libpq parameter the index passes through untouched) and its
own prefix in one bucket, so tests never see each other's evidence.

PostgreSQL: Debian's binaries (``.ci/run`` installs the ``postgresql`` package). ``initdb``
and ``postgres`` refuse to run as root, so as root the cluster belongs to the ``postgres``
user (``runuser``). Without the binaries the tests that need them skip, saying why; under
CI (``CI`` set) they fail instead, so a CI run never passes by skipping them.

moto runs as its own process (``python -m moto.server``), the same S3 API over HTTP that a
team's MinIO or AWS speaks, conditional writes (``If-None-Match: *``) included.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from readreceipt.store.library import Library

BUCKET = "readreceipt-test"
#: Fake secrets: a test searches everything written and printed for them.
PG_PASSWORD = "pg-" + secrets.token_hex(12)
AWS_SECRET = "aws-" + secrets.token_hex(16)
AWS_KEY_ID = "AKIATESTREADRECEIPT"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _missing(what: str) -> None:
    message = f"{what}; `.ci/run` installs it (apt-get install postgresql)"
    if os.environ.get("CI"):
        pytest.fail(f"CI must not skip the team store tests: {message}")
    pytest.skip(message)


@dataclass
class Postgres:
    port: int
    folder: Path
    bindir: Path
    as_user: list[str]

    def url(self, schema: str | None = None, password: str = PG_PASSWORD) -> str:
        options = f"?options=-csearch_path%3D{schema}" if schema else ""
        return f"postgresql://postgres:{password}@127.0.0.1:{self.port}/postgres{options}"

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.bindir / "pg_ctl"), "-D",
                        str(self.folder / "data"), "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=60, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


#: A role of the SCRAM cluster whose password is kept as an md5 hash and whom the server
#: asks for that hash (``md5`` in pg_hba.conf): what an old or hostile server asks.
MD5_ROLE = "md5reader"


def start_postgres(auth: str = "trust") -> Postgres:
    """A throwaway cluster on 127.0.0.1 (the caller stops it); RuntimeError naming what is
    missing when it cannot start.

    ``auth="scram-sha-256"``: every connection must prove :data:`PG_PASSWORD` by SCRAM, but
    :data:`MD5_ROLE`'s, which the server asks for as an md5 hash (the role made here)."""
    bindir = _postgres_bin()
    if bindir is None or not (bindir / "pg_ctl").exists():
        raise LookupError("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
    folder = Path(tempfile.mkdtemp(prefix="readreceipt-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            raise LookupError("running as root, and runuser is missing to start PostgreSQL "
                              "as postgres")
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    server = Postgres(port, folder, bindir, as_user)
    try:
        pwfile: list[str] = []
        if auth != "trust":
            (folder / "pw").write_text(PG_PASSWORD + "\n")
            if as_user:
                shutil.chown(folder / "pw", "postgres")
            pwfile = [f"--pwfile={folder / 'pw'}"]
        subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(folder / "data"), "-A",
                        auth, "-U", "postgres", "--no-sync", *pwfile], capture_output=True,
                       timeout=120, check=True)
        if auth != "trust":  # the md5 role's line first: the first line that fits decides
            hba = folder / "data" / "pg_hba.conf"
            hba.write_text(f"host all {MD5_ROLE} 127.0.0.1/32 md5\n" + hba.read_text())
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(folder / "data"), "-o",
                        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                        "-c max_connections=200", "-l", str(folder / "log"), "-w", "start"],
                       capture_output=True, timeout=120, check=True)
    except subprocess.CalledProcessError as exc:
        log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
        server.stop()
        raise RuntimeError(f"PostgreSQL did not start: {exc.stderr!r} {log[-2000:]}") from exc
    if auth != "trust":
        import psycopg

        with psycopg.connect(server.url(), autocommit=True) as conn:
            conn.execute("SET password_encryption = 'md5'")
            conn.execute(f"CREATE ROLE {MD5_ROLE} LOGIN SUPERUSER PASSWORD "
                         f"'{PG_PASSWORD}'".encode())
    return server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    try:
        server = start_postgres()
    except LookupError as exc:
        _missing(str(exc))
        raise
    yield server
    server.stop()


@pytest.fixture(scope="session")
def scram_postgres_server() -> Iterator[Postgres]:
    """A second cluster, which asks every client for the password (by SCRAM; the md5 role
    by md5), where the first trusts every connection from this machine."""
    try:
        server = start_postgres("scram-sha-256")
    except LookupError as exc:
        _missing(str(exc))
        raise
    yield server
    server.stop()


@dataclass
class Moto:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        if self.process.poll() is None:
            self.process.kill()


def start_moto() -> Moto:
    """moto's S3 server on 127.0.0.1 with the bucket made (the caller stops it)."""
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p",
                                str(port)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    server = Moto(port, process)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("moto's S3 server did not start") from None
                time.sleep(0.1)
        _s3_client(server.endpoint).create_bucket(Bucket=BUCKET)
    except BaseException:
        server.stop()
        raise
    return server


@pytest.fixture(scope="session")
def s3_server() -> Iterator[Moto]:
    try:
        import moto.server  # noqa: F401 - only to know it is there
    except ImportError:
        _missing("moto[server] is not installed (the dev extra)")
    server = start_moto()
    yield server
    server.stop()


def _s3_client(endpoint: str) -> Any:
    import boto3

    return boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=AWS_KEY_ID,
                        aws_secret_access_key=AWS_SECRET, region_name="us-east-1")


_NAMES = itertools.count(1)


@dataclass
class Team:
    """One test's team store: its URLs, the environment naming them, and ways to look in."""

    postgres: Postgres
    moto: Moto
    schema: str
    prefix: str
    env: dict[str, str] = field(default_factory=dict)

    @property
    def index_url(self) -> str:
        return self.postgres.url(self.schema)

    @property
    def blobs_url(self) -> str:
        return f"s3://{BUCKET}/{self.prefix}"

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows read by hand (what a test checks the index's answers against)."""
        import psycopg

        with psycopg.connect(self.index_url, autocommit=True) as conn:
            cursor = conn.execute(query.encode(), params)  # type: ignore[arg-type]
            return cursor.fetchall() if cursor.description else []

    def object_keys(self, folder: str = "") -> list[str]:
        """Every object key under the test's prefix (and ``folder``), relative to it."""
        client = _s3_client(self.moto.endpoint)
        keys: list[str] = []
        for page in client.get_paginator("list_objects_v2").paginate(
                Bucket=BUCKET, Prefix=f"{self.prefix}/{folder}"):
            keys += [item["Key"].removeprefix(self.prefix + "/")
                     for item in page.get("Contents", [])]
        return keys

    def get(self, key: str) -> bytes:
        body = _s3_client(self.moto.endpoint).get_object(Bucket=BUCKET,
                                                         Key=f"{self.prefix}/{key}")["Body"]
        return bytes(body.read())

    def put(self, key: str, data: bytes) -> None:
        _s3_client(self.moto.endpoint).put_object(Bucket=BUCKET, Key=f"{self.prefix}/{key}",
                                                  Body=data)

    def delete(self, key: str) -> None:
        _s3_client(self.moto.endpoint).delete_object(Bucket=BUCKET, Key=f"{self.prefix}/{key}")


@pytest.fixture
def team(postgres_server: Postgres, s3_server: Moto,
         monkeypatch: pytest.MonkeyPatch) -> Team:
    """A fresh team store, named by this process's environment (and ``team.env`` for a
    subprocess): READRECEIPT_INDEX_URL, READRECEIPT_BLOBS_URL and the AWS settings."""
    return team_on(postgres_server, s3_server, monkeypatch)


def team_on(postgres_server: Postgres, s3_server: Moto,
            monkeypatch: pytest.MonkeyPatch) -> Team:
    """:func:`team` on the cluster ``postgres_server``."""
    name = f"t{os.getpid()}_{next(_NAMES)}"
    made = Team(postgres_server, s3_server, name, name)
    made.sql(f"CREATE SCHEMA {name}")
    made.env = {
        "READRECEIPT_INDEX_URL": made.index_url,
        "READRECEIPT_BLOBS_URL": made.blobs_url,
        "AWS_ENDPOINT_URL": s3_server.endpoint,
        "AWS_ACCESS_KEY_ID": AWS_KEY_ID,
        "AWS_SECRET_ACCESS_KEY": AWS_SECRET,
        "AWS_REGION": "us-east-1",
    }
    for key in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3", "PGPASSWORD"):
        monkeypatch.delenv(key, raising=False)
    for key, value in made.env.items():
        monkeypatch.setenv(key, value)
    return made


@pytest.fixture(params=["local", "team"])
def either_library(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Library]:
    """An empty library of each kind in turn: a local folder, then a team store (PostgreSQL
    and S3), for a test that holds for both back ends."""
    if request.param == "local":
        opened = Library.open(tmp_path / "lib")
    else:
        made: Team = request.getfixturevalue("team")
        opened = Library.locate(tmp_path / "here", index_url=made.index_url,
                                blobs_url=made.blobs_url)
        assert opened.team is not None
    with opened:
        yield opened


def library_env(lib: Library, allow: str) -> dict[str, str]:
    """The environment that points a command at ``lib`` (either kind), with ``allow`` (a
    server's host:port) let through the private-address rule."""
    env = {"READRECEIPT_ALLOW_HOSTS": allow}
    if lib.team is not None:
        env |= {"READRECEIPT_INDEX_URL": lib.team.index_url,
                "READRECEIPT_BLOBS_URL": lib.team.blobs_url}
    else:
        env["READRECEIPT_LIBRARY"] = str(lib.root)
    return env
