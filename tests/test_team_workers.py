"""Many machines, one team store: separate processes with separate local folders.

Each worker here is its own ``readreceipt`` process with its own library folder, as a
laptop or a CI runner would be; all of them name one PostgreSQL index and one bucket.
- four workers x 200 URLs lose and duplicate nothing;
- two workers after one host keep its pace (the slots the index hands out one gap apart,
  no request at the server before its slot);
- a worker killed mid-capture leaves objects without a row, never a row without its objects,
  and ``verify`` names the orphans.
"""

from __future__ import annotations

import http.client
import json
import random
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

import pacelog
from conftest import BIN, LocalServer, clean_env, reply
from readreceipt.fetching.politeness import MIN_GAP_SECONDS
from readreceipt.store.discovery import INDEX_FILENAME
from readreceipt.store.library import Library
from teamstore import Team

SMALL_PAGE = ("<html><head><title>Item {n}</title></head><body><article><h1>Item {n}</h1>"
              "<p>This is the text of item {n}, written out in whole sentences so that the "
              "extractor finds a main text worth keeping. It says what item {n} is, where it "
              "came from and why anyone would want to read about it.</p><p>A second paragraph "
              "adds a little more about item {n}, so that the page is not judged thin.</p>"
              "</article></body></html>")


def _timed_routes(server: LocalServer, prefix: str, count: int) -> tuple[list[str],
                                                                         list[float]]:
    """``count`` pages under ``prefix``, and the list the server adds each arrival time to."""
    arrivals: list[float] = []
    body = SMALL_PAGE.format(n=prefix).encode()

    def timed(handler: BaseHTTPRequestHandler) -> None:
        arrivals.append(time.time())
        reply(handler, body)

    return [server.route(f"/{prefix}/{n}", handler=timed) for n in range(count)], arrivals


def _start(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([str(BIN / "readreceipt"), *args], cwd=cwd, env=clean_env(**env),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.slow
def test_four_workers_by_200_urls_lose_and_duplicate_nothing(team: Team, tmp_path: Path,
                                                            server: LocalServer) -> None:
    urls = [server.route(f"/w{w}/{n}", SMALL_PAGE.format(n=f"{w}-{n}"))
            for w in range(4) for n in range(200)]
    env = {**team.env, "READRECEIPT_ALLOW_HOSTS": server.pair}
    procs = []
    for w in range(4):
        machine = tmp_path / f"machine{w}"
        machine.mkdir()
        (machine / "urls.txt").write_text("\n".join(urls[w * 200:(w + 1) * 200]) + "\n")
        env_w = {**env, "READRECEIPT_LIBRARY": str(machine / ".readreceipt")}
        procs.append(_start(["capture", "--from", "urls.txt", "--now", "--jobs", "2",
                             "--no-render", "--json"], machine, env_w))
    outputs = [p.communicate(timeout=600) for p in procs]
    for proc, (_, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err.decode()[-2000:]
    captures = [c for out, _ in outputs for c in json.loads(out)["captures"]]
    assert len(captures) == 800 and all(c["verdict"] == "RETRIEVED" for c in captures)
    # every URL asked of the server once, one row and one record each, none twice
    asked = [r["path"] for r in server.requests if r["path"] != "/robots.txt"]
    assert sorted(asked) == sorted(u.removeprefix(server.base) for u in urls)
    rows = team.sql("SELECT count(*), count(DISTINCT record_id), count(DISTINCT url) "
                    "FROM retrievals")
    assert rows == [(800, 800, 800)]
    assert sorted(team.object_keys("records/")) == sorted(
        f"records/{c['record_id']}.yaml" for c in captures)
    blobs = {f"store/{c['bytes_sha256'][:2]}/{c['bytes_sha256']}" for c in captures}
    assert set(team.object_keys("store/")) == blobs
    # and no machine kept any of it locally
    assert not any((tmp_path / f"machine{w}" / ".readreceipt" / "index.db").exists()
                   for w in range(4))


def test_two_workers_on_one_host_keep_its_pace(team: Team, tmp_path: Path,
                                              server: LocalServer) -> None:
    urls, arrivals = _timed_routes(server, "paced", 6)
    pacelog.log_postgres(team, tmp_path / "setup")
    env = {**team.env, "READRECEIPT_ALLOW_HOSTS": server.pair}
    procs = []
    for w in range(2):
        machine = tmp_path / f"machine{w}"
        machine.mkdir()
        (machine / "urls.txt").write_text("\n".join(urls[w::2]) + "\n")
        procs.append(_start(["capture", "--from", "urls.txt", "--wait", "30", "--json"],
                            machine, {**env, "READRECEIPT_LIBRARY": str(machine / "lib")}))
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e.decode()[-1000:] for _, e in outputs]
    assert len(arrivals) == 6
    # The schedule the index kept: one slot a request though two machines asked, one gap
    # apart, and no request at the server before its slot (tests/pacelog.py: the requests'
    # own gaps also measure how late a loaded machine wakes a worker).
    pacelog.assert_paced(pacelog.postgres_changes(team), pacelog.paced_requests(server),
                         MIN_GAP_SECONDS)
    assert [r["path"] for r in server.requests].count("/robots.txt") == 1
    # the schedule is one row, shared
    assert team.sql("SELECT count(*) FROM pacing") == [(1,)]


class Gate:
    """A loopback HTTP proxy in front of the S3 server that can hold writes: a slow network,
    or one that stops answering, between a worker and its bucket."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.hold_records = threading.Event()  # set: PUTs of records/ wait for release
        self.release = threading.Event()
        self.held = threading.Event()  # a PUT of a record is being held now
        self.put_delay = 0.0
        gate = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(length) if length else b""
                if self.command == "PUT":
                    time.sleep(gate.put_delay)
                    if gate.hold_records.is_set() and "/records/" in self.path:
                        gate.held.set()
                        gate.release.wait(60)
                        self.close_connection = True  # its writer is gone: never sent on
                        return
                conn = http.client.HTTPConnection("127.0.0.1", gate.upstream_port, timeout=60)
                headers = {k: v for k, v in self.headers.items()}
                conn.request(self.command, self.path, body=data, headers=headers)
                answer = conn.getresponse()
                payload = answer.read()
                self.send_response(answer.status)
                for key, value in answer.getheaders():
                    if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                conn.close()

            do_GET = do_PUT = do_HEAD = do_DELETE = do_POST = _forward

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: object, client_address: object) -> None:
                pass  # a killed worker's connection breaks mid-answer: expected here

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def gate(team: Team) -> Iterator[Gate]:
    made = Gate(team.moto.port)
    yield made
    made.close()


def _rows_without_objects(team: Team) -> list[str]:
    """Rows of the index whose record, kept bytes or kept texts are missing from the bucket."""
    keys = set(team.object_keys())
    missing = []
    for record_id, kept, sha, text, page in team.sql(
            "SELECT record_id, bytes_kept, bytes_sha256, text_sha256, page_text_sha256 "
            "FROM retrievals"):
        needed = [f"records/{record_id}.yaml"]
        if kept:
            needed.append(f"store/{sha[:2]}/{sha}")
            needed += [f"text/{d[:2]}/{d}" for d in (text, page) if d]
        missing += [f"{record_id}: {k}" for k in needed if k not in keys]
    return missing


def test_a_worker_killed_mid_capture_leaves_no_row_without_its_objects(
        team: Team, tmp_path: Path, server: LocalServer, gate: Gate) -> None:
    env = {**team.env, "READRECEIPT_ALLOW_HOSTS": server.pair,
           "AWS_ENDPOINT_URL": f"http://127.0.0.1:{gate.port}"}
    # 1. held while writing its record: killed there, its bytes and texts are in the bucket
    #    and nothing names them.
    url = server.route("/killed", SMALL_PAGE.format(n="killed"))
    gate.hold_records.set()
    proc = _start(["capture", url, "--now", "--json"], tmp_path, env)
    assert gate.held.wait(60), "the worker never reached its record"
    proc.kill()
    proc.wait(timeout=30)
    gate.hold_records.clear()
    gate.release.set()
    assert team.sql("SELECT count(*) FROM retrievals") == [(0,)]
    assert team.object_keys("records/") == []
    texts = team.object_keys("text/")  # main and whole text: one object when they are the same
    assert len(team.object_keys("store/")) == 1 and len(texts) in (1, 2)
    verified = subprocess.run([str(BIN / "readreceipt"), "verify", "--json"], cwd=tmp_path,
                              env=clean_env(**team.env), capture_output=True, timeout=120,
                              check=False)
    assert verified.returncode == 1
    kinds = sorted(p["kind"] for p in json.loads(verified.stdout)["problems"])
    assert kinds == ["orphan_blob"] + ["orphan_text"] * len(texts)
    # 2. killed at random moments while every write is slow: whatever was cut short, no row
    #    ever names an object that is not there.
    gate.put_delay = 0.15
    pages = [server.route(f"/slow/{n}", SMALL_PAGE.format(n=f"slow {n}")) for n in range(8)]
    for n, page in enumerate(pages):
        proc = _start(["capture", page, "--now", "--json"], tmp_path, env)
        time.sleep(random.uniform(0.3, 1.6) if n < 7 else 0)  # noqa: S311 - a kill's moment, no secret
        if n == 7:  # one left to finish, the control: it has its row and its objects
            assert proc.wait(timeout=120) == 0
        else:
            proc.kill()
            proc.wait(timeout=30)
        assert _rows_without_objects(team) == []
    assert team.sql("SELECT count(*) FROM retrievals WHERE url = %s", pages[7]) == [(1,)]
    record_id = team.sql("SELECT record_id FROM retrievals WHERE url = %s", pages[7])[0][0]
    assert yaml.safe_load(team.get(f"records/{record_id}.yaml"))["url"] == pages[7]


def test_jobs_keep_one_hosts_pace_on_the_local_library(tmp_path: Path,
                                                      server: LocalServer) -> None:
    # capture --jobs N on the local library: N workers, each with its own connection to
    # index.db, queue after one host exactly as separate processes do.
    urls, arrivals = _timed_routes(server, "jobs", 4)
    (tmp_path / "urls.txt").write_text("\n".join(urls) + "\n")
    Library.open(tmp_path / "lib").close()
    pacelog.log_sqlite(tmp_path / "lib" / INDEX_FILENAME)
    env = {"READRECEIPT_ALLOW_HOSTS": server.pair, "READRECEIPT_LIBRARY": str(tmp_path / "lib")}
    proc = _start(["capture", "--from", "urls.txt", "--jobs", "3", "--json"], tmp_path, env)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()[-2000:]
    captures = json.loads(out)["captures"]
    assert [c["url"] for c in captures] == urls  # in the order given, whoever finished first
    assert len(arrivals) == 4
    pacelog.assert_paced(pacelog.sqlite_changes(tmp_path / "lib" / INDEX_FILENAME),
                         pacelog.paced_requests(server), MIN_GAP_SECONDS)
