"""The ``readreceipt`` command: a thin adapter over the library.

Each command parses its arguments, calls one library function and formats the result; the
library never imports click. Errors are mapped to exit codes once, here, in :func:`main`:
a :class:`~readreceipt.errors.ReadReceiptError` becomes one line on stderr (or one JSON
object on stdout under ``--json``) and its ``exit_code``; a usage error exits 1; every code
comes from :class:`~readreceipt.errors.ExitCode` (``docs/cli.md``); nothing prints a
traceback unless ``READRECEIPT_DEBUG`` is set (then every error prints its own, before its
line). A usage error under ``--json`` is one JSON object too.

Commands live in modules of this package, loaded only when called (``_COMMANDS``), so
``readreceipt --help`` stays fast and one command's imports never slow another.

The top adapter: it may import anything below it, and of ``agents`` only the library modules
behind a command (``fetchpage``, ``hooksettings``, ``mcp_server``, ``audit``); nothing
imports it, and it alone imports click (docs/cli.md is its contract).
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import sys
from typing import Any

import click

from readreceipt import logs
from readreceipt._version import __version__
from readreceipt.errors import ExitCode, ReadReceiptError

#: How a diagnostic line reads on stderr.
_LOG_FORMAT = "readreceipt: %(message)s"

#: name -> "module:function" (modules under readreceipt.cli).
_COMMANDS: dict[str, str] = {
    "capture": "capture_cmds:capture",
    "check": "capture_cmds:check",
    "status": "store_cmds:status",
    "log": "store_cmds:log_",
    "show": "store_cmds:show",
    "history": "store_cmds:history",
    "verify": "store_cmds:verify",
    "forget": "store_cmds:forget",
    "demo": "demo_cmd:demo",
    "export": "export_cmd:export",
    "serve": "serve_cmd:serve",
    "fetch": "fetch_cmd:fetch",
    "hook": "hook_cmd:hook",
    "mcp": "mcp_cmd:mcp",
    "init": "team_cmds:init",
    "push": "team_cmds:push",
    "audit": "audit_cmd:audit",
}


#: name -> (the exit codes it ends with, one example), for the end of its --help.
_HELP_ENDS: dict[str, tuple[tuple[int, ...], str]] = {
    "capture": ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 130),
                "readreceipt capture https://example.org/article --answer answer.md"),
    "check": ((0, 1, 8, 10, 11), "readreceipt check https://example.org/article --answer "
              "answer.md --json"),
    "status": ((0, 1), "readreceipt status --json"),
    "log": ((0, 1), "readreceipt log --limit 5 --verdict unknown"),
    "show": ((0, 1), "readreceipt show https://example.org/article --text"),
    "history": ((0, 1), "readreceipt history https://example.org/article"),
    "verify": ((0, 1), "readreceipt verify --repair"),
    "forget": ((0, 1), "readreceipt forget https://example.org/private-note"),
    "demo": ((0, 1), "readreceipt demo"),
    "export": ((0, 1), "readreceipt export --wacz evidence.wacz --since 2026-03-01"),
    "serve": ((0, 1, 130), "readreceipt serve --port 0"),
    "fetch": ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9), "readreceipt fetch https://example.org/docs "
              "-o notes/"),
    "hook": ((0, 1), "readreceipt hook install --local"),
    "mcp": ((0, 1), "claude mcp add readreceipt -- readreceipt mcp"),
    "init": ((0, 1, 2), "readreceipt init --index-url 'postgresql://me@db.internal/evidence' "
             "--blobs-url s3://team-evidence/readreceipt"),
    "push": ((0, 1), "readreceipt push ~/offline/.readreceipt"),
    "audit": ((0, 1, 10, 11), "readreceipt audit ~/.claude/projects/PROJECT/SESSION.jsonl"),
}


def help_end(name: str) -> str:
    """A command's exit codes (from the one table, errors.EXIT_CODE_MEANINGS) and an
    example, as the end of its --help (\\b keeps click from re-wrapping the lines)."""
    from readreceipt.errors import EXIT_CODE_MEANINGS

    codes, example = _HELP_ENDS[name]
    lines = [f"  {code:<4} {EXIT_CODE_MEANINGS[code]}" for code in codes]
    return ("\b\nExit codes (docs/cli.md, \"Exit codes\"):\n" + "\n".join(lines)
            + f"\n\n\b\nExample:\n  {example}")


def _verbose(ctx: click.Context, param: click.Parameter, value: int) -> None:
    """``-v`` after the command, as before it: more diagnostics on stderr."""
    if value:
        logs.configure(logging.WARNING - 10 * min(value, 2), _LOG_FORMAT)
        logging.getLogger().setLevel(logging.WARNING - 10 * min(value, 2))


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _COMMANDS:
            module_name, attr = _COMMANDS[cmd_name].split(":")
            module = importlib.import_module(f"readreceipt.cli.{module_name}")
            command = getattr(module, attr)
            assert isinstance(command, click.Command)
            return _finished(cmd_name, command)
        return super().get_command(ctx, cmd_name)


def _finished(name: str, command: click.Command) -> click.Command:
    """Every command takes the group's ``-v``, and its --help ends with its exit codes and
    an example."""
    if not any(isinstance(p, click.Option) and "-v" in p.opts for p in command.params):
        command.params.append(click.Option(
            ["-v", "--verbose"], count=True, expose_value=False, callback=_verbose,
            help="More diagnostics on stderr (as `readreceipt -v CMD`)."))
    if command.epilog is None:
        command.epilog = help_end(name)
    return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="readreceipt")
@click.option("--library", "library", type=click.Path(file_okay=True, dir_okay=True),
              envvar="READRECEIPT_LIBRARY", help="The evidence library (default: the nearest "
              ".readreceipt/ upwards, else ./.readreceipt/).")
@click.option("--index-url", metavar="URL", help="A team library's index: postgresql://[user@]"
              "host[:port]/dbname (default: $READRECEIPT_INDEX_URL, else the library folder's "
              "config.toml). Give the password through PGPASSWORD or ~/.pgpass.")
@click.option("--blobs-url", metavar="URL", help="A team library's objects: s3://bucket[/prefix] "
              "(default: $READRECEIPT_BLOBS_URL, else the library folder's config.toml).")
@click.option("-v", "--verbose", count=True, help="More diagnostics on stderr.")
@click.pass_context
def cli(ctx: click.Context, library: str | None, index_url: str | None, blobs_url: str | None,
        verbose: int) -> None:
    """A verifiable read receipt for every web page an AI agent relies on."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logs.configure(level, _LOG_FORMAT)
    ctx.ensure_object(dict)
    ctx.obj["library"] = library
    ctx.obj["index_url"] = index_url
    ctx.obj["blobs_url"] = blobs_url


def _wants_json(argv: list[str]) -> bool:
    return "--json" in argv


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the group and map every error to one line and an exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        # Outside standalone mode click returns ctx.exit()'s code instead of exiting.
        code = cli.main(args=args, prog_name="readreceipt", standalone_mode=False)
    except ReadReceiptError as exc:
        fail(exc, as_json=_wants_json(args))
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("readreceipt: aborted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except click.ClickException as exc:
        # click exits 2 on usage errors; docs/cli.md reserves 2 for refusals, so usage is 1.
        _debug_traceback(exc)
        if _wants_json(args):
            emit_json({"error": {"reason": "usage", "message": exc.format_message(),
                                 "url": None, "exit_code": ExitCode.USAGE,
                                 "kind": "UsageError"}})
        hint = ""
        if isinstance(exc, click.UsageError) and exc.ctx is not None:
            hint = f" (see '{exc.ctx.command_path} --help')"
        click.echo(f"readreceipt: {exc.format_message()}{hint}", err=True)  # one line
        sys.exit(ExitCode.USAGE)
    except KeyboardInterrupt:
        click.echo("readreceipt: interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        sys.exit(ExitCode.OK)
    except Exception as exc:  # the last line of defence: one line, never a traceback
        if os.environ.get("READRECEIPT_DEBUG"):
            raise
        if _wants_json(args):
            emit_json({"error": {"reason": "internal", "message": f"{type(exc).__name__}: "
                                 f"{exc}", "url": None, "exit_code": ExitCode.USAGE,
                                 "kind": "InternalError"}})
        click.echo(f"readreceipt: internal error: {type(exc).__name__}: {exc} "
                   "(set READRECEIPT_DEBUG=1 for the traceback)", err=True)
        sys.exit(ExitCode.USAGE)
    sys.exit(code if isinstance(code, int) else ExitCode.OK)


def _debug_traceback(exc: BaseException) -> None:
    """With READRECEIPT_DEBUG set, the traceback behind an error, on stderr, before its line."""
    if os.environ.get("READRECEIPT_DEBUG"):
        import traceback

        traceback.print_exception(exc, file=sys.stderr)


def fail(exc: ReadReceiptError, *, as_json: bool) -> None:
    _debug_traceback(exc)
    if as_json:
        emit_json({"error": error_json(exc)})
    click.echo(f"readreceipt: {exc}{refusal_hint(exc)}", err=True)
    sys.exit(exc.exit_code)


def refusal_hint(exc: ReadReceiptError) -> str:
    """For a person at a terminal whose test server was refused: how to let it through.

    Only at a terminal: an agent reading a refusal (an attacker's redirect to 127.0.0.1 among
    them) is not told how to lift the guard. Never for a cloud metadata address, which no
    exemption covers."""
    reason = exc.reason
    local_name = reason == "local_host_name"
    if not (local_name or (reason.endswith("_address")
                           and reason not in ("metadata_address", "bad_address"))):
        return ""
    if not sys.stderr.isatty():
        return ""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(exc.url or "")
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return ""
    if not host:
        return ""
    if local_name:
        host = "127.0.0.1"
    shown = f"[{host}]" if ":" in host else host
    pair = f"{shown}:{port}" if port else shown
    use = f" (use http://{pair}/ instead of the name)" if local_name else ""
    return (f"; to fetch from a test server of your own{use}, set "
            f"READRECEIPT_ALLOW_HOSTS={pair} (a host alone allows every port of it)")


def error_json(exc: ReadReceiptError) -> dict[str, Any]:
    return {"reason": exc.reason, "message": str(exc), "url": exc.url,
            "exit_code": exc.exit_code, "kind": type(exc).__name__}


def emit_json(obj: dict[str, Any]) -> None:
    from readreceipt.store.escaping import storable  # a lone surrogate printed escaped

    click.echo(json.dumps(storable(obj), ensure_ascii=False, indent=None, default=str))
