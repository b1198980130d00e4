"""Every command on a team library, through the real console script: init points a project
folder at the team store, and capture, check, status, log, show, history, verify, forget,
export, serve and push then work on PostgreSQL and S3 as they do on the local folder."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from conftest import BIN, CliResult, LocalServer, article_html, clean_env
from teamstore import PG_PASSWORD, Team

ANSWER = 'The page says "this sentence is not on the page at all, not anywhere".\n'


def run(*args: str, cwd: Path, env: dict[str, str] | None = None,
        input: str | None = None, timeout: float = 120) -> CliResult:
    """The real console script in ``cwd``, with no READRECEIPT_* setting but ``env``'s."""
    full = clean_env(**(env or {}))
    proc = subprocess.run([str(BIN / "readreceipt"), *args], cwd=cwd, env=full,
                          input=input.encode() if input else None, capture_output=True,
                          timeout=timeout, check=False)
    return CliResult(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                     proc.stderr.decode("utf-8", "replace"))


def aws_only(team: Team) -> dict[str, str]:
    """The bucket's settings without the READRECEIPT_* URLs (the folder's config names them)."""
    return {k: v for k, v in team.env.items() if not k.startswith("READRECEIPT_")}


def test_init_refuses_a_password_and_writes_nothing(team: Team, tmp_path: Path) -> None:
    result = run("init", "--index-url", team.index_url, "--blobs-url", team.blobs_url,
                 cwd=tmp_path, env=aws_only(team))
    assert result.code == 1
    assert "PGPASSWORD" in result.stderr and "nothing was written" in result.stderr
    assert PG_PASSWORD not in result.stderr + result.stdout
    assert not (tmp_path / ".readreceipt").exists()


def test_a_project_folder_points_at_the_team_store(team: Team, tmp_path: Path,
                                                   server: LocalServer) -> None:
    index_url = team.postgres.url(team.schema, password="").replace("postgres:@", "postgres@")
    project = tmp_path / "project"
    project.mkdir()
    env = {**aws_only(team), "PGPASSWORD": PG_PASSWORD, "READRECEIPT_ALLOW_HOSTS": server.pair}
    made = run("init", "--index-url", index_url, "--blobs-url", team.blobs_url, "--json",
               cwd=project, env=env)
    assert made.code == 0, made.stderr
    config = (project / ".readreceipt" / "config.toml").read_text()
    assert index_url in config and team.blobs_url in config and PG_PASSWORD not in config
    assert sorted(p.name for p in (project / ".readreceipt").iterdir()) == ["config.toml"]

    page = server.route("/article", article_html())
    captured = run("capture", page, "--json", "--session", "s1", "--answer", "-",
                   cwd=project, env=env, input=ANSWER)
    assert captured.code == 10, captured.stderr  # the quotation is not on the page
    data = captured.json()
    record_id = data["record_id"]
    assert data["record_path"] == f"{team.blobs_url}/records/{record_id}.yaml"
    # the evidence is in the team store, and nothing but the hook's mark in the folder
    assert team.sql("SELECT url, verdict FROM retrievals") == [(page, "RETRIEVED")]
    assert f"records/{record_id}.yaml" in team.object_keys("records/")
    assert f"store/{data['bytes_sha256'][:2]}/{data['bytes_sha256']}" in team.object_keys("store/")
    stored = yaml.safe_load(team.get(f"records/{record_id}.yaml"))
    assert stored["bytes_sha256"] == data["bytes_sha256"]
    assert team.sql("SELECT count(*) FROM flags") == [(1,)]
    assert not (project / ".readreceipt" / "index.db").exists()

    status = run("status", "--json", cwd=project, env=env).json()
    assert (status["retrievals"], status["flags"]) == (1, 1)
    assert status["library"] == f"{index_url} + {team.blobs_url}"
    logged = run("log", "--json", cwd=project, env=env).json()["retrievals"]
    assert [r["record_id"] for r in logged] == [record_id]
    shown = run("show", record_id[:12], "--json", "--text", cwd=project, env=env).json()
    assert shown["record_id"] == record_id and "original prose" not in shown["text"][:0]
    assert len(shown["text"]) > 500
    history = run("history", page, "--json", cwd=project, env=env).json()
    assert history["distinct_texts"] == 1
    checked = run("check", page, "--answer", "-", "--json", cwd=project, env=env,
                  input="Nothing quoted here.\n")
    assert checked.code == 11, checked.stderr  # nothing in it to check: not a pass
    assert checked.json()["record_id"] == record_id
    assert run("verify", "--json", cwd=project, env=env).json()["ok"] is True

    out = tmp_path / "team.warc.gz"
    exported = run("export", "--warc", str(out), "--json", cwd=project, env=env)
    assert exported.code == 0, exported.stderr
    assert exported.json()["retrievals"] == 1 and out.stat().st_size > 1000

    forgot = run("forget", record_id, "--json", cwd=project, env=env)
    assert forgot.json()["forgotten"] == [record_id]
    assert team.object_keys("store/") == [] and team.object_keys("text/") == []
    assert team.sql("SELECT bytes_kept FROM retrievals") == [(False,)]  # the row stays
    assert yaml.safe_load(team.get(f"records/{record_id}.yaml"))["bytes_kept"] is False
    assert run("verify", "--json", cwd=project, env=env).json()["ok"] is True


def test_serve_reads_the_team_library_on_loopback(team: Team, tmp_path: Path,
                                                  server: LocalServer) -> None:
    page = server.route("/served", article_html())
    env = {**team.env, "READRECEIPT_ALLOW_HOSTS": server.pair}
    assert run("capture", page, "--json", cwd=tmp_path, env=env).code == 0
    proc = subprocess.Popen([str(BIN / "readreceipt"), "serve", "--port", "0", "--json"],
                            cwd=tmp_path, env=clean_env(**env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        started = json.loads(proc.stdout.readline())
        assert started["url"].startswith("http://127.0.0.1:")
        with urllib.request.urlopen(started["url"] + "/", timeout=10) as answer:
            listing = answer.read().decode()
        assert page in listing
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


def _local_library(folder: Path, server: LocalServer, count: int) -> list[str]:
    """A local library of ``count`` captures, one more with a flag, and a skipped line."""
    urls = [server.route(f"/offline/{n}", article_html().replace("original", f"page {n}"))
            for n in range(count)]
    env = {"READRECEIPT_ALLOW_HOSTS": server.pair, "READRECEIPT_LIBRARY": str(folder)}
    folder.parent.mkdir(parents=True, exist_ok=True)
    listed = folder.parent / "urls.txt"
    listed.write_text("\n".join(urls) + "\n")
    made = run("capture", "--from", str(listed), "--now", "--jobs", "2", "--json",
               cwd=folder.parent, env=env, timeout=300)
    assert made.code == 0, made.stderr
    flagged = run("capture", urls[0], "--now", "--answer", "-", "--json", cwd=folder.parent,
                  env=env, input=ANSWER)
    assert flagged.code == 10
    refused = run("capture", "http://localhost:1/", cwd=folder.parent, env=env)
    assert refused.code == 2
    return urls


def _rows(team: Team) -> int:
    """Rows in the team index so far (0 before the first process made its tables)."""
    made = team.sql("SELECT count(*) FROM information_schema.tables WHERE table_schema = %s "
                    "AND table_name = 'retrievals'", team.schema)[0][0]
    return int(team.sql("SELECT count(*) FROM retrievals")[0][0]) if made else 0


def test_push_is_idempotent_and_resumable(team: Team, tmp_path: Path,
                                          server: LocalServer) -> None:
    offline = tmp_path / "laptop" / ".readreceipt"
    _local_library(offline, server, 40)
    total = 41  # 40 pages, and one of them captured again with an answer
    # killed part way through: the team index holds some rows, not all
    proc = subprocess.Popen([str(BIN / "readreceipt"), "push", str(offline)], cwd=tmp_path,
                            env=clean_env(**team.env), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while _rows(team) < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.kill()
    proc.wait(timeout=30)
    part = team.sql("SELECT count(*) FROM retrievals")[0][0]
    assert 5 <= part < total
    first = run("push", str(offline), "--json", cwd=tmp_path, env=team.env)
    assert first.code == 0, first.stderr
    report = first.json()
    assert report["retrievals"] == total and report["already_there"] == part
    assert report["copied"] == total - part
    again = run("push", str(offline), "--json", cwd=tmp_path, env=team.env).json()
    assert (again["copied"], again["already_there"]) == (0, total)
    # A push run again copies nothing, and says so: it used to repeat the first one's counts
    # of flags and log lines "handed over".
    assert (again["flags"], again["answer_checks"], again["log_lines"]) == (0, 0, 0)
    said = run("push", str(offline), cwd=tmp_path, env=team.env)
    assert said.code == 0 and said.stdout.strip().endswith(
        "no flag, answer check, audit or log line was new"), said.stdout
    assert said.stdout.startswith(f"0 retrievals copied from {offline} to ")
    # nothing duplicated: one row, one record per retrieval; flags, checks and log lines once
    counted = team.sql("SELECT count(*), count(DISTINCT record_id) FROM retrievals")
    assert counted == [(total, total)]
    assert len(team.object_keys("records/")) == total
    assert team.sql("SELECT count(*) FROM flags") == [(1,)]
    lines = team.sql("SELECT log, count(*) FROM log_entries GROUP BY log ORDER BY log")
    assert lines == [("flags.jsonl", 1), ("skipped.jsonl", 1)]
    verified = run("verify", "--json", cwd=tmp_path, env=team.env)
    assert verified.json()["ok"] is True, verified.stdout
    local = run("status", "--json", cwd=tmp_path, env={"READRECEIPT_LIBRARY": str(offline)})
    assert local.json()["retrievals"] == total  # the source is only read


def test_push_leaves_an_unreadable_record_behind_and_copies_the_rest(
        team: Team, tmp_path: Path, server: LocalServer) -> None:
    """One damaged record and one the index names but whose file is gone: the other
    retrievals are copied, those two are named and left behind, and the push exits 1."""
    offline = tmp_path / "laptop" / ".readreceipt"
    _local_library(offline, server, 3)
    ids = sorted(p.stem for p in (offline / "records").glob("*.yaml"))
    (offline / "records" / f"{ids[0]}.yaml").write_text("record_id: [unclosed\n")
    (offline / "records" / f"{ids[1]}.yaml").unlink()
    result = run("push", str(offline), "--json", cwd=tmp_path, env=team.env)
    assert result.code == 1, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    report = result.json()  # one object on stdout, the report
    assert sorted(report["unreadable"]) == ids[:2]
    assert report["copied"] == len(ids) - 2
    assert "2 retrievals left behind" in result.stderr
    rows = {r[0] for r in team.sql("SELECT record_id FROM retrievals")}
    assert rows == set(ids[2:])  # nothing half copied: no row without its record
    assert len(team.object_keys("records/")) == len(ids) - 2


def test_push_never_takes_another_capture_under_the_same_id_for_this_one(
        team: Team, tmp_path: Path, server: LocalServer) -> None:
    """Two captures that drew one record id (a second's timestamp and 32 random bits): the
    team's row for it was counted "already there", and the laptop's capture was silently
    never handed in. It is left behind, named, and the team's capture kept as it was."""
    import sqlite3

    first = tmp_path / "desk" / ".readreceipt"
    _local_library(first, server, 1)
    assert run("push", str(first), cwd=tmp_path, env=team.env).code == 0
    laptop = tmp_path / "laptop" / ".readreceipt"
    _local_library(laptop, server, 2)
    taken = sorted(p.stem for p in (first / "records").glob("*.yaml"))[0]
    own = sorted(p.stem for p in (laptop / "records").glob("*.yaml"))
    renamed = own[-1]  # the laptop's newest capture drew the id the team already holds
    record = laptop / "records" / f"{renamed}.yaml"
    record.with_name(f"{taken}.yaml").write_bytes(
        record.read_bytes().replace(renamed.encode(), taken.encode()))
    record.unlink()
    db = sqlite3.connect(laptop / "index.db")
    with db:
        db.execute("UPDATE retrievals SET record_id = ? WHERE record_id = ?", (taken, renamed))
    db.close()
    [(team_url, team_time)] = team.sql(
        "SELECT url, fetched_at FROM retrievals WHERE record_id = %s", taken)

    result = run("push", str(laptop), "--json", cwd=tmp_path, env=team.env)
    assert result.code == 1, result.stderr
    report = result.json()
    assert report["conflicts"] == [taken] and report["unreadable"] == []
    assert report["copied"] == len(own) - 1 and report["already_there"] == 0
    assert "left behind: the team library holds other captures" in result.stderr
    assert team.sql("SELECT url, fetched_at FROM retrievals WHERE record_id = %s",
                    taken) == [(team_url, team_time)]


def test_push_needs_a_team_library(tmp_path: Path, server: LocalServer) -> None:
    offline = tmp_path / "laptop" / ".readreceipt"
    _local_library(offline, server, 1)
    result = run("push", str(offline), cwd=tmp_path,
                 env={"READRECEIPT_LIBRARY": str(tmp_path / "other")})
    assert result.code == 1 and "team library" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "other").exists()  # nothing was made where it looked


def test_without_the_team_extra_one_line_names_it(tmp_path: Path) -> None:
    # psycopg made unimportable, as on a machine without the team extra
    code = ("import sys\nsys.modules['psycopg'] = None\nfrom readreceipt.cli import main\n"
            "main(['status'])\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          timeout=60, check=False, env=clean_env(
                              READRECEIPT_INDEX_URL="postgresql://u@127.0.0.1:1/db",
                              READRECEIPT_BLOBS_URL="s3://bucket/x"))
    assert proc.returncode == 1
    # The advice is this installation's own (an editable one in the checkout's venv here).
    root = Path(__file__).resolve().parents[1]
    line = proc.stderr.decode().strip()
    assert line.startswith("readreceipt: a team library needs the team extra (psycopg is "
                           "missing); add it as this copy was installed: "
                           f"{sys.executable} -m pip install -c {root}/constraints.txt -e "
                           f"'{root}["), line
    assert "team]'" in line and "\n" not in line
    assert not (tmp_path / ".readreceipt").exists()


@pytest.mark.parametrize("crafted", ["climbs", "disagrees"])
def test_push_takes_no_record_the_source_s_index_misnames(team: Team, tmp_path: Path,
                                                          server: LocalServer,
                                                          crafted: str) -> None:
    # A local library is a folder anyone can hand over, and push took its index's ids as
    # they were: a row whose id climbs out of records/ had push read a file from elsewhere
    # on the disk (the bucket's client refused the key only by luck), and a record file
    # naming another id than its row left the team index a row without its object.
    import sqlite3

    offline = tmp_path / "laptop" / ".readreceipt"
    _local_library(offline, server, 1)
    db = sqlite3.connect(offline / "index.db")
    [(honest,)] = db.execute("SELECT record_id FROM retrievals ORDER BY record_id LIMIT 1")
    record_file = offline / "records" / f"{honest}.yaml"
    if crafted == "climbs":
        named = "../../../outside/private"
        (tmp_path / "outside").mkdir()
        (tmp_path / "outside" / "private.yaml").write_bytes(
            record_file.read_bytes().replace(honest.encode(), named.encode()))
        with db:
            db.execute("UPDATE retrievals SET record_id = ? WHERE record_id = ?",
                       (named, honest))
    else:
        named = "20991231T235959Z-0badc0de"
        record_file.write_bytes(record_file.read_bytes().replace(honest.encode(),
                                                                 named.encode()))
    db.close()
    pushed = run("push", str(offline), "--json", cwd=tmp_path, env=team.env)
    assert pushed.code == 1, pushed.stdout + pushed.stderr
    assert "record id" in pushed.stderr and "internal error" not in pushed.stderr
    assert [k for k in team.object_keys() if named.rsplit("/", 1)[-1] in k] == []
    assert team.sql("SELECT count(*) FROM retrievals WHERE record_id = %s", named) == [(0,)]


def test_a_bucket_that_is_not_there_is_named_not_taken_for_lost_evidence(
        team: Team, tmp_path: Path, server: LocalServer) -> None:
    # A missing bucket answers 404 as a missing object does: `show` said the record's file
    # was gone, and `init` took the 404 as the bucket answering and wrote its config.
    env = {**team.env, "READRECEIPT_ALLOW_HOSTS": server.pair}
    page = server.route("/kept", article_html())
    assert run("capture", page, cwd=tmp_path, env=env).code == 0
    missing = {**env, "READRECEIPT_BLOBS_URL": "s3://no-such-bucket/x"}
    shown = run("show", page, cwd=tmp_path, env=missing)
    assert shown.code == 1 and "NoSuchBucket" in shown.stderr, shown.stderr
    assert "gone" not in shown.stderr and "no record" not in shown.stderr
    assert run("show", page, cwd=tmp_path, env=env).code == 0  # the control
    index_url = team.postgres.url(team.schema, password="").replace("postgres:@", "postgres@")
    project = tmp_path / "project"
    project.mkdir()
    made = run("init", "--index-url", index_url, "--blobs-url", "s3://no-such-bucket/x",
               cwd=project, env={**aws_only(team), "PGPASSWORD": PG_PASSWORD})
    assert made.code == 1 and "NoSuchBucket" in made.stderr, made.stderr
    assert not (project / ".readreceipt" / "config.toml").exists()
