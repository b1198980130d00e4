"""A project's config.toml and a real PostgreSQL that asks for the password.

The session's main cluster trusts every connection from this machine, so no password is ever
asked there; this file's cluster asks for it (``teamstore.start_postgres("scram-sha-256")``):
by SCRAM, which proves the password without revealing it, and for one role
(``teamstore.MD5_ROLE``) as an md5 hash, which a guess can be tested against offline. A
team index named by a file the user did not write (a discovered library's config.toml) is
reached by SCRAM or with no password at all, never by md5 (``require_auth``, added by the
index: store/team/postgres.py); the user's own URL (the environment) is not so limited.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CliResult
from teamstore import MD5_ROLE, PG_PASSWORD, Moto, Postgres, Team, team_on
from test_team_security import run


@pytest.fixture
def scram_team(scram_postgres_server: Postgres, s3_server: Moto,
               monkeypatch: pytest.MonkeyPatch) -> Team:
    return team_on(scram_postgres_server, s3_server, monkeypatch)


def _project(team: Team, tmp_path: Path, user: str) -> tuple[Path, dict[str, str]]:
    """A cloned project whose config.toml names the team store as ``user`` (no password in
    it), and the environment a command runs in there: the AWS settings, no team URLs."""
    index_url = (f"postgresql://{user}@127.0.0.1:{team.postgres.port}/postgres"
                 f"?options=-csearch_path%3D{team.schema}")
    project = tmp_path / "cloned"
    (project / ".readreceipt").mkdir(parents=True)
    (project / ".readreceipt" / "config.toml").write_text(
        f'[team]\nindex_url = "{index_url}"\nblobs_url = "{team.blobs_url}"\n')
    env = {k: v for k, v in team.env.items() if not k.startswith("READRECEIPT_")}
    return project, env


def _refused_in_one_line(result: CliResult, said: str) -> None:
    """Exit 1, and one line saying ``said`` beside the one naming the config's servers."""
    assert result.code == 1 and "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines()
             if line.strip() and "names a team library" not in line]
    assert len(lines) == 1 and said in lines[0], result.stderr


@pytest.fixture
def unset_team_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("READRECEIPT_INDEX_URL", "READRECEIPT_BLOBS_URL"):
        monkeypatch.delenv(key, raising=False)


@pytest.mark.usefixtures("unset_team_urls")
def test_a_config_file_s_index_that_asks_scram_is_reached_with_the_password(
        scram_team: Team, tmp_path: Path) -> None:
    project, env = _project(scram_team, tmp_path, "postgres")
    reached = run("status", "--json", cwd=project, env={**env, "PGPASSWORD": PG_PASSWORD})
    assert reached.code == 0, reached.stderr
    assert scram_team.sql("SELECT count(*) FROM retrievals") == [(0,)]  # the index was made
    # the server does check it: a wrong password is one line, and is not echoed
    wrong = "wrong-" + PG_PASSWORD[::-1]
    refused = run("status", cwd=project, env={**env, "PGPASSWORD": wrong})
    _refused_in_one_line(refused, "password authentication failed")
    assert wrong not in refused.stdout + refused.stderr
    assert PG_PASSWORD not in refused.stdout + refused.stderr


@pytest.mark.usefixtures("unset_team_urls")
def test_a_config_file_s_index_that_asks_for_an_md5_hash_is_sent_nothing(
        scram_team: Team, tmp_path: Path) -> None:
    project, env = _project(scram_team, tmp_path, MD5_ROLE)
    refused = run("status", cwd=project, env={**env, "PGPASSWORD": PG_PASSWORD})
    _refused_in_one_line(refused, "hashed password")
    assert PG_PASSWORD not in refused.stdout + refused.stderr
    assert scram_team.sql("SELECT to_regclass('retrievals')") == [(None,)]  # never reached
    # The control: the same server, role and password in the user's own environment: the
    # server really asks for md5, and the user may choose to answer it.
    index_url = (f"postgresql://{MD5_ROLE}@127.0.0.1:{scram_team.postgres.port}/postgres"
                 f"?options=-csearch_path%3D{scram_team.schema}")
    own = run("status", "--json", cwd=tmp_path,
              env={**env, "PGPASSWORD": PG_PASSWORD, "READRECEIPT_INDEX_URL": index_url,
                   "READRECEIPT_BLOBS_URL": scram_team.blobs_url})
    assert own.code == 0, own.stderr
    assert scram_team.sql("SELECT count(*) FROM retrievals") == [(0,)]
