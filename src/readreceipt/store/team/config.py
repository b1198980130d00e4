"""Where a library's evidence lives: the local folder, or a team store named by two URLs.

A team library keeps its index in PostgreSQL and its blobs, texts and records in an
S3-compatible bucket. It is named by two URLs, looked for in this order:

1. ``--index-url`` / ``--blobs-url`` (given to :meth:`Library.locate`);
2. ``$READRECEIPT_INDEX_URL`` / ``$READRECEIPT_BLOBS_URL``;
3. the library folder's ``config.toml`` (written by ``readreceipt init``), so that a
   project folder points at the team store.

With none of them the library is the local folder, exactly as before. Both URLs are needed
together; one without the other is refused, never half-used.

The index URL is a libpq URL, ``postgresql://[user@]host[:port]/dbname[?param=value...]``;
its parameters (``sslmode``, ``sslrootcert``, ``connect_timeout``...) pass through to libpq
untouched. The blobs URL is ``s3://bucket[/prefix]``; the endpoint, region and credentials
come from the standard AWS settings (:func:`s3_settings`).

Secrets: a password may reach the index URL only through the environment or an option,
never through ``config.toml`` (``init`` refuses one, and a file holding one is refused).
:func:`redact_dsn` is the only form of an index URL that is ever printed, and
:func:`scrub` removes every known secret (the DSN's password, ``PGPASSWORD``, the AWS
secret key and session token) from a driver's message before it becomes an error.

A project's ``config.toml`` is not the user's word (a repository can carry one naming any
server): an index URL read from one may set only the libpq parameters of
:data:`FILE_PARAMETERS` (``sslkeylogfile=`` would have ``status`` append TLS secrets to a
file of the attacker's choosing; ``host=/path``, ``service=``, ``passfile=``, ``sslcert``,
``sslkey`` point libpq at the user's own files and databases), with a network host, and no
``require_auth`` that lets the server ask for the password or its md5 hash; the index adds
``require_auth=scram-sha-256,none`` where the file sets none (a password goes only through
SCRAM). The first time such a file
names a team store, the user is told on stderr (which servers, from which file), and that it
was said is kept in the user's own state folder (:func:`shown`, :func:`show`): a process
nobody watches (the hook's worker) sends nothing to a team store the user was never shown.

Standard library only.
"""

from __future__ import annotations

import configparser
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from readreceipt.errors import LibraryError, UsageError
from readreceipt.store.discovery import CONFIG_FILENAME

INDEX_URL_ENV = "READRECEIPT_INDEX_URL"
BLOBS_URL_ENV = "READRECEIPT_BLOBS_URL"
_SECTION = "team"

_INDEX_SCHEMES = ("postgresql", "postgres")
#: Query parameters of a libpq URL that carry a secret.
_SECRET_PARAMS = frozenset({"password", "sslpassword"})
#: S3's rules for a bucket name (3 to 63 characters, lower case, digits, dots, hyphens).
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
_REDACTED = "***"
#: The libpq parameters an index URL read from a config.toml may set: TLS checks of the
#: server, timeouts and the application's name, which authentication methods are accepted
#: (judged apart: never the password or its md5), and ``options`` of the settings below.
FILE_PARAMETERS = frozenset({
    "sslmode", "sslrootcert", "sslcrl", "sslcrldir", "ssl_min_protocol_version",
    "ssl_max_protocol_version", "sslnegotiation", "sslsni", "channel_binding",
    "application_name", "fallback_application_name", "connect_timeout", "tcp_user_timeout",
    "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
    "target_session_attrs", "load_balance_hosts", "require_auth", "options",
})
#: The server settings ``options=-c name=value`` may set from a config.toml.
FILE_OPTIONS = frozenset({"search_path", "statement_timeout", "lock_timeout",
                          "idle_in_transaction_session_timeout", "application_name"})
#: The file, in the user's state folder, that says which team stores the user was shown.
SHOWN_FILE = "team-stores-shown.jsonl"


@dataclass(frozen=True)
class TeamConfig:
    """The two URLs of a team library, and where they were found."""

    index_url: str
    blobs_url: str
    source: str  # "options", "environment" or the config file's path
    secrets: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @property
    def from_file(self) -> bool:
        """Whether the URLs came from a folder's ``config.toml`` (a project's file, which a
        repository can carry), not from the user's options or environment."""
        return self.source not in ("options", "environment")

    @property
    def bucket(self) -> str:
        return _blobs_parts(self.blobs_url)[0]

    @property
    def prefix(self) -> str:
        return _blobs_parts(self.blobs_url)[1]

    def describe(self) -> str:
        """The team library in words, without a secret: for messages and ``--json``."""
        return f"{redact_dsn(self.index_url)} + {self.blobs_url}"

    def scrub(self, text: str) -> str:
        return scrub(text, self.secrets)


def redact_dsn(url: str) -> str:
    """``url`` without its password (in the authority or as a parameter)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://(an index URL that does not parse)"
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:{_REDACTED}@{host}" if ":" in userinfo else f"{user}@{host}"
    query = urlencode([(k, _REDACTED if k in _SECRET_PARAMS else v)
                       for k, v in parse_qsl(parts.query, keep_blank_values=True)], safe="*/")
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def dsn_password(url: str) -> str | None:
    """The password written in ``url``, if any."""
    parts = urlsplit(url)
    if parts.password:
        return unquote(parts.password)
    for key, value in parse_qsl(parts.query):
        if key == "password" and value:
            return value
    return None


def require_auth(url: str) -> tuple[str, ...] | None:
    """The values of the URL's ``require_auth`` parameter (libpq's list of the ways a server
    may ask to be told who the user is), as libpq would decode them; None when it sets none.
    Parsed, not looked for as words: a role or a database may be named require_auth."""
    found = tuple(v for k, v in parse_qsl(urlsplit(url).query, keep_blank_values=True)
                  if k == "require_auth")
    return found or None


def allows_password_hash(value: str) -> bool:
    """Whether the ``require_auth`` value ``value`` lets a server ask for the password in the
    clear or for its md5 hash (salted by the server: a guess at it can be tested offline)."""
    methods = [m.strip().lower() for m in value.split(",")]
    if not any(methods):
        return True
    if any(m.startswith("!") for m in methods):
        return not {"!password", "!md5"} <= set(methods)
    return bool({"password", "md5"} & set(methods))


def file_url_problem(url: str) -> str | None:
    """Why an index URL read from a config.toml may not be used, in one phrase; None when it
    may. Parameters are parsed as libpq reads them, not looked for as words."""
    parts = urlsplit(url)
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key not in FILE_PARAMETERS:
            return (f"index_url sets {key}=, which a config file may not (it can make "
                    "readreceipt read or write a file of yours, or reach another database)")
        if key == "require_auth" and allows_password_hash(value):
            return ("index_url's require_auth lets the server ask for the password or its "
                    "md5 hash, which a config file may not; name scram-sha-256 (or leave "
                    "require_auth out)")
        if key == "options" and (bad := _unallowed_option(value)) is not None:
            return (f"index_url's options set {bad}, which a config file may not (only "
                    f"-c {', '.join(sorted(FILE_OPTIONS))})")
    hosts = unquote(parts.netloc.rpartition("@")[2])
    if not parts.hostname or any(h.strip().startswith("/") or not h.strip()
                                 for h in hosts.split(",")):
        return ("index_url names no network host (a socket folder, or none: libpq would "
                "reach a database on this machine), which a config file may not")
    return None


def _unallowed_option(value: str) -> str | None:
    words = value.split()
    i = 0
    while i < len(words):
        word = words[i]
        if word == "-c" and i + 1 < len(words):
            setting, i = words[i + 1], i + 2
        elif word.startswith(("-c", "--")) and len(word) > 2:
            setting, i = word[2:], i + 1
        else:
            return word
        name = setting.partition("=")[0].replace("-", "_").lower()
        if name not in FILE_OPTIONS:
            return name
    return None


def _written_passwords(url: str) -> list[str]:
    """The URL's password as written in it, escapes and all: libpq echoes a part of the URL
    it cannot parse as it is written, which may be neither the password nor its quoted
    form (``pa ss%21`` for ``pa ss!``)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    written = [parts.netloc.rsplit("@", 1)[0].partition(":")[2]] if "@" in parts.netloc else []
    written += [pair.partition("=")[2] for pair in parts.query.split("&")
                if pair.partition("=")[0] in ("password", "sslpassword")]
    return [w for w in written if w]


def scrub(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with every secret (and its URL-quoted form) replaced by ``***``."""
    for secret in sorted(secrets, key=len, reverse=True):
        if len(secret) >= 3:
            text = text.replace(secret, _REDACTED)
            quoted = _quoted(secret)
            if quoted != secret:
                text = text.replace(quoted, _REDACTED)
    return text


def _quoted(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")


def check_index_url(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        raise UsageError("the index URL does not parse; give postgresql://[user@]host[:port]"
                         "/dbname", reason="bad_index_url") from None
    if parts.scheme not in _INDEX_SCHEMES:
        # Not echoed: a libpq key=value string would carry its password= in the clear.
        raise UsageError("the index URL must be a URL, postgresql://[user@]host[:port]/dbname "
                         "(a key=value connection string is not taken)",
                         reason="bad_index_url")
    if not (parts.hostname or parts.path.strip("/")):
        raise UsageError(f"the index URL must be postgresql://[user@]host[:port]/dbname, not "
                         f"{redact_dsn(url)}", reason="bad_index_url")
    return url


def check_blobs_url(url: str) -> str:
    _blobs_parts(url)
    return url


def _blobs_parts(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    bucket = parts.netloc
    if parts.scheme != "s3" or not _BUCKET.match(bucket) or parts.query or parts.fragment:
        raise UsageError(f"the blobs URL must be s3://bucket[/prefix] (a bucket name of 3 to "
                         f"63 lower-case letters, digits, dots or hyphens), not {url!r}",
                         reason="bad_blobs_url")
    prefix = parts.path.strip("/")
    if any(part in ("", ".", "..") for part in prefix.split("/")) and prefix:
        raise UsageError(f"the blobs URL's prefix {prefix!r} has an empty, '.' or '..' part",
                         reason="bad_blobs_url")
    return bucket, prefix


def _config_file(folder: Path | None) -> Path | None:
    if folder is None:
        return None
    path = folder / CONFIG_FILENAME
    return path if path.is_file() else None


def read_file(path: Path) -> tuple[str | None, str | None]:
    """(index URL, blobs URL) from a library folder's ``config.toml``."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LibraryError(f"{path} cannot be read: {exc}", reason="bad_config") from None
    team = data.get(_SECTION, {})
    if not isinstance(team, dict):
        raise LibraryError(f"{path}: [{_SECTION}] is not a table", reason="bad_config")
    index, blobs = team.get("index_url"), team.get("blobs_url")
    for name, value in (("index_url", index), ("blobs_url", blobs)):
        if value is not None and not isinstance(value, str):
            raise LibraryError(f"{path}: {name} is not a string", reason="bad_config")
    if isinstance(index, str) and dsn_password(index):
        raise LibraryError(f"{path} holds a password in index_url; a config file is no place "
                           "for a secret: remove it and give the password through PGPASSWORD, "
                           "~/.pgpass or a libpq service file", reason="bad_config")
    if isinstance(index, str) and index.startswith(_INDEX_SCHEMES) and (
            problem := file_url_problem(index)) is not None:
        # A repository can carry this file: what it names must not turn libpq against the
        # user (module docstring).
        raise LibraryError(f"{path}: {problem}", reason="bad_config")
    return index, blobs


def from_folder(folder: Path) -> TeamConfig | None:
    """The team library ``folder``'s ``config.toml`` names, if it names one."""
    path = _config_file(folder)
    if path is None:
        return None
    index_url, blobs_url = read_file(path)
    return _complete(index_url, blobs_url, str(path))


def resolve(folder: Path | None, *, index_url: str | None = None,
            blobs_url: str | None = None) -> TeamConfig | None:
    """The team library to use, or None for the local folder ``folder``."""
    source = "options"
    if not (index_url or blobs_url):
        index_url = os.environ.get(INDEX_URL_ENV) or None
        blobs_url = os.environ.get(BLOBS_URL_ENV) or None
        source = "environment"
    if not (index_url or blobs_url):
        path = _config_file(folder)
        if path is None:
            return None
        index_url, blobs_url = read_file(path)
        source = str(path)
    return _complete(index_url, blobs_url, source)


def _complete(index_url: str | None, blobs_url: str | None, source: str) -> TeamConfig | None:
    if not (index_url or blobs_url):
        return None
    if not index_url or not blobs_url:
        missing = "an index URL" if not index_url else "a blobs URL"
        raise UsageError(f"a team library needs both URLs, and {missing} is missing (from "
                         f"{source}); give --index-url and --blobs-url, or "
                         f"{INDEX_URL_ENV} and {BLOBS_URL_ENV}", reason="team_config")
    check_index_url(index_url)
    check_blobs_url(blobs_url)
    return TeamConfig(index_url, blobs_url, source, secrets=known_secrets(index_url))


def known_secrets(index_url: str | None = None) -> tuple[str, ...]:
    """Every secret this process holds for a team library, to be scrubbed from messages."""
    found = [os.environ.get(name) for name in ("PGPASSWORD", "AWS_SECRET_ACCESS_KEY",
                                               "AWS_SESSION_TOKEN")]
    if index_url:
        found.append(dsn_password(index_url))
        found += _written_passwords(index_url)
    profile = aws_profile()
    found += [profile.get("aws_secret_access_key"), profile.get("aws_session_token")]
    return tuple(s for s in found if s)


def write_file(folder: Path, index_url: str, blobs_url: str) -> Path:
    """Write ``config.toml`` naming the team store; refuse an index URL with a password."""
    from readreceipt.store.atomic import write_replace

    check_index_url(index_url)
    check_blobs_url(blobs_url)
    refuse_password(index_url)
    problem = file_url_problem(index_url)
    if problem is not None:
        raise UsageError(f"{problem.replace('a config file', 'config.toml')}; it would be "
                         "refused when read (nothing was written)", reason="bad_index_url")
    text = ("# Written by `readreceipt init`: this library's evidence lives in a team store.\n"
            "# No secrets here: the database password comes from PGPASSWORD, ~/.pgpass or a\n"
            "# libpq service file; the bucket's credentials from the standard AWS settings.\n"
            f"[{_SECTION}]\n"
            f"index_url = {_toml_string(index_url)}\n"
            f"blobs_url = {_toml_string(blobs_url)}\n")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / CONFIG_FILENAME
    write_replace(path, text.encode("utf-8"))
    return path


def refuse_password(index_url: str) -> None:
    """UsageError when ``index_url`` holds a password (it is about to be written down)."""
    if dsn_password(index_url):
        raise UsageError("the index URL holds a password, and config.toml is no place for a "
                         "secret: give the URL without it, and the password through "
                         "PGPASSWORD, ~/.pgpass or a libpq service file (nothing was written)",
                         reason="secret_in_config")


# ------------------------------------------------------------ team stores shown to the user


def state_folder() -> Path:
    """The user's own folder for what readreceipt remembers about them (not a project's):
    ``$XDG_STATE_HOME/readreceipt``, else ``~/.local/state/readreceipt``."""
    base = os.environ.get("XDG_STATE_HOME") or str(
        Path(os.environ.get("HOME") or "~").expanduser() / ".local" / "state")
    return Path(base) / "readreceipt"


def _servers(team: TeamConfig) -> str:
    parts = urlsplit(team.index_url)
    host = parts.netloc.rpartition("@")[2] or "(no host)"
    endpoint = s3_settings().endpoint or "AWS S3"
    return (f"index {host}{parts.path or '/'} (PostgreSQL), bucket {team.bucket} at "
            f"{endpoint}")


def _shown_key(team: TeamConfig) -> dict[str, str]:
    return {"file": team.source, "index": redact_dsn(team.index_url),
            "blobs": team.blobs_url, "endpoint": s3_settings().endpoint or ""}


def shown(team: TeamConfig) -> bool:
    """Whether the user was already told that ``team``'s config.toml names these servers."""
    path = state_folder() / SHOWN_FILE
    key = _shown_key(team)
    try:
        lines = path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    for line in lines:
        try:
            seen = json.loads(line)
        except ValueError:
            continue
        if isinstance(seen, dict) and all(seen.get(k) == v for k, v in key.items()):
            return True
    return False


def show(team: TeamConfig, say: Any) -> None:
    """Tell the user (``say``: one line to stderr) that ``team``'s config.toml sends this
    library's captures to these servers, the first time, and keep that it was said."""
    if not team.from_file or shown(team):
        return
    say(f"readreceipt: {team.source} names a team library: {_servers(team)}; captures made "
        "here are sent there (said once)")
    try:
        note_shown(team)
    except OSError as exc:
        say(f"readreceipt: could not note that it was said ({exc.strerror}); it will be said "
            "again")


def note_shown(team: TeamConfig) -> None:
    """Keep that the user knows ``team``'s file names these servers (OSError if it cannot)."""
    from readreceipt.store.clock import utc_now

    folder = state_folder()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    with (folder / SHOWN_FILE).open("a", encoding="utf-8") as out:
        out.write(json.dumps({**_shown_key(team), "shown_at": utc_now()}) + "\n")


def _toml_string(value: str) -> str:
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        raise UsageError("a URL with control characters cannot be written", reason="bad_url")
    # A JSON string of printable text is a valid TOML basic string.
    return json.dumps(value, ensure_ascii=False)


# -------------------------------------------------------------------------- S3 settings


def aws_profile() -> dict[str, str]:
    """The static settings of ``$AWS_PROFILE`` (else ``default``) from the shared files
    (``~/.aws/credentials`` and ``~/.aws/config``, or ``$AWS_SHARED_CREDENTIALS_FILE`` and
    ``$AWS_CONFIG_FILE``); empty when there is none."""
    name = os.environ.get("AWS_PROFILE") or os.environ.get("AWS_DEFAULT_PROFILE") or "default"
    home = Path(os.environ.get("HOME") or "~").expanduser()
    files = [
        (Path(os.environ.get("AWS_SHARED_CREDENTIALS_FILE") or home / ".aws" / "credentials"),
         name),
        (Path(os.environ.get("AWS_CONFIG_FILE") or home / ".aws" / "config"),
         name if name == "default" else f"profile {name}"),
    ]
    found: dict[str, str] = {}
    for path, section in files:
        parser = configparser.RawConfigParser()
        try:
            parser.read(path, encoding="utf-8")
        except (configparser.Error, OSError, UnicodeDecodeError):
            continue
        if parser.has_section(section):
            for key, value in parser.items(section):
                found.setdefault(key, value.strip())
    return found


@dataclass(frozen=True)
class S3Settings:
    """What an S3 client needs beyond the bucket: from the environment, else the profile."""

    endpoint: str | None
    region: str
    access_key_id: str | None = field(default=None, repr=False)
    secret_access_key: str | None = field(default=None, repr=False)
    session_token: str | None = field(default=None, repr=False)

    @property
    def allow_http(self) -> bool:
        return bool(self.endpoint and self.endpoint.startswith("http://"))


def s3_settings() -> S3Settings:
    env = os.environ
    profile = {} if env.get("AWS_ACCESS_KEY_ID") else aws_profile()
    endpoint = (env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
                or profile.get("endpoint_url") or None)
    region = (env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or profile.get("region")
              or "us-east-1")
    if env.get("AWS_ACCESS_KEY_ID"):
        return S3Settings(endpoint, region, env.get("AWS_ACCESS_KEY_ID"),
                          env.get("AWS_SECRET_ACCESS_KEY"), env.get("AWS_SESSION_TOKEN"))
    return S3Settings(endpoint, region, profile.get("aws_access_key_id"),
                      profile.get("aws_secret_access_key"), profile.get("aws_session_token"))
