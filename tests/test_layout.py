"""The plan of the house: imports point down, and only the store speaks SQL.

Every module of the package is parsed (function-level imports included) and each import is
checked against the directions docs/design.md draws: adapters -> pipeline -> stages ->
store. A module that breaks a rule fails here by name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "readreceipt"

#: unit -> the units it may import besides itself (a unit is a top-level module or package).
ALLOWED: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "_version": frozenset(),
    "progress": frozenset(),
    # Where diagnostics go (the CLI's and the batch workers' stderr).
    "logs": frozenset(),
    "localserver": frozenset(),
    # How this copy was installed: store/ and cli/ advise how to add an extra from it.
    "installed": frozenset(),
    "store": frozenset({"errors", "progress", "installed"}),
    "fetching": frozenset({"errors", "_version", "store"}),
    "reading": frozenset({"errors", "fetching", "store"}),
    "browser": frozenset({"errors", "fetching", "reading"}),
    "quotes": frozenset({"errors", "fetching", "reading", "store"}),
    "pipeline": frozenset({"errors", "fetching", "reading", "browser", "quotes", "store"}),
    "export": frozenset({"errors", "_version", "progress", "store", "fetching"}),
    # A URL over time (its text versions, the pair to compare, the word diff): the viewer's
    # history page and the CLI's history command read it alike.
    "history": frozenset({"store"}),
    "viewer": frozenset({"errors", "reading", "store", "history"}),
    "agents": frozenset({"errors", "_version", "pipeline", "fetching", "reading", "quotes",
                         "store"}),
    "api": frozenset({"errors", "pipeline", "quotes", "store", "agents"}),
    "batch": frozenset({"errors", "logs", "pipeline", "store"}),
    "demo": frozenset({"errors", "localserver", "pipeline", "store", "demo_pages"}),
    "cli": frozenset({"errors", "_version", "progress", "logs", "pipeline", "fetching",
                      "reading", "quotes", "store", "export", "viewer", "agents", "demo",
                      "batch", "installed", "history"}),
    "__init__": frozenset({"errors", "_version", "pipeline", "store", "api"}),
}
#: Third-party or standard modules only some units may import.
ONLY: dict[str, frozenset[str]] = {
    "sqlite3": frozenset({"store"}),
    # The team library's drivers: only store/ speaks to a database or an object store.
    "psycopg": frozenset({"store"}),
    "psycopg_pool": frozenset({"store"}),
    "obstore": frozenset({"store"}),
    "boto3": frozenset({"store"}),
    "botocore": frozenset({"store"}),
    "click": frozenset({"cli"}),
    "mcp": frozenset({"agents"}),
    "playwright": frozenset({"browser"}),
    "httpx": frozenset({"fetching"}),
    "httpcore": frozenset({"fetching"}),
}
#: Modules of agents/ the CLI may reach (the library behind a command), never the hook's.
CLI_MAY_USE_FROM_AGENTS = frozenset({"readreceipt.agents.fetchpage",
                                     "readreceipt.agents.hooksettings",
                                     # the agents and their files, for --agent's choices
                                     "readreceipt.agents.hookconfigs",
                                     "readreceipt.agents.mcp_server",
                                     "readreceipt.agents.audit",
                                     # the marking of web text: the console prints a
                                     # server's words and an answer's marked as agents see them
                                     "readreceipt.agents.fence"})


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(rel.parts).removesuffix(".__init__")


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _exists(module: str) -> bool:
    """A module or package (data packages included) of this tree, not just a dotted word."""
    path = PACKAGE.parent / module.replace(".", "/")
    return path.with_suffix(".py").is_file() or path.is_dir()


def imports() -> Iterator[tuple[str, str, int]]:
    """(importing module, imported module, line) for every import in the package, including
    the module names handed to importlib as string constants."""
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield module, alias.name, node.lineno
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{module}:{node.lineno}: a relative import"
                assert node.module is not None
                yield module, node.module, node.lineno
                for alias in node.names:  # from readreceipt.agents import hookworker
                    if node.module.startswith("readreceipt"):
                        candidate = f"{node.module}.{alias.name}"
                        if (PACKAGE.parent / (candidate.replace(".", "/") + ".py")).exists():
                            yield module, candidate, node.lineno
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and re.fullmatch(r"readreceipt(\.\w+)+", node.value)
                  and _exists(node.value)):
                yield module, node.value, node.lineno


ALL_IMPORTS = list(imports())


def test_every_unit_has_a_rule() -> None:
    units = {_unit(_module_name(p)) for p in PACKAGE.rglob("*.py")}
    assert units <= set(ALLOWED), sorted(units - set(ALLOWED))


def test_imports_point_down() -> None:
    wrong = [f"{src}:{line} imports {dst}" for src, dst, line in ALL_IMPORTS
             if dst.startswith("readreceipt.") and _unit(dst) != _unit(src)
             and _unit(dst) not in ALLOWED[_unit(src)]]
    assert not wrong, "\n".join(wrong)


def test_the_cli_reaches_agents_only_through_their_library_modules() -> None:
    wrong = [f"{src}:{line} imports {dst}" for src, dst, line in ALL_IMPORTS
             if _unit(src) == "cli" and _unit(dst) == "agents"
             and dst not in CLI_MAY_USE_FROM_AGENTS and dst != "readreceipt.agents"]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", sorted(ONLY))
def test_only_some_units_import(name: str) -> None:
    wrong = [f"{src}:{line} imports {dst}" for src, dst, line in ALL_IMPORTS
             if dst.split(".")[0] == name and _unit(src) not in ONLY[name]]
    assert not wrong, "\n".join(wrong)


def test_only_the_embedded_index_speaks_sql() -> None:
    # The issue's own check: grep -rn "sqlite3\|\.conn\b" src/readreceipt finds only store/.
    pattern = re.compile(r"sqlite3|\.conn\b")
    found = [f"{p.relative_to(PACKAGE)}:{n}" for p in sorted(PACKAGE.rglob("*.py"))
             for n, line in enumerate(p.read_text("utf-8").splitlines(), 1)
             if pattern.search(line) and p.relative_to(PACKAGE).parts[0] != "store"]
    assert not found, found
    speakers = {p.relative_to(PACKAGE / "store").as_posix()
                for p in (PACKAGE / "store").rglob("*.py")
                if "import sqlite3" in p.read_text("utf-8")}
    # local/scratch.py: the throwaway SQLite file an export keeps its maps in (no index).
    assert speakers == {"local/sqlite.py", "local/scratch.py"}


def test_the_two_back_ends_stand_apart() -> None:
    # store/local/ (one folder) and store/team/ (PostgreSQL + S3) meet only in the modules
    # of store/ itself; the one crossing is push, which reads a local library to hand it in.
    local, team = "readreceipt.store.local", "readreceipt.store.team"
    wrong = [f"{src}:{line} imports {dst}" for src, dst, line in ALL_IMPORTS
             if (src.startswith(local) and dst.startswith(team))
             or (src.startswith(team) and dst.startswith(local)
                 and src != f"{team}.push")]
    assert not wrong, "\n".join(wrong)


def test_only_the_team_backends_import_their_drivers() -> None:
    # psycopg only in the PostgreSQL index, obstore only in the object store, and neither
    # at module level (a local library, and the hook's fast path, never pay for them).
    drivers = {"psycopg": "postgres", "psycopg_pool": "postgres", "obstore": "objects"}
    for src, dst, _ in ALL_IMPORTS:
        top = dst.split(".")[0]
        if top in drivers:
            assert src == f"readreceipt.store.team.{drivers[top]}", f"{src} imports {dst}"
    for name in ("postgres", "objects"):
        tree = ast.parse((PACKAGE / "store" / "team" / f"{name}.py").read_text("utf-8"))
        at_top = {alias.name.split(".")[0] for node in tree.body
                  if isinstance(node, ast.Import) for alias in node.names}
        at_top |= {node.module.split(".")[0] for node in tree.body
                   if isinstance(node, ast.ImportFrom) and node.module}
        assert not at_top & set(drivers), (name, at_top & set(drivers))


def test_the_rules_can_fail() -> None:
    # A control: the checker sees a forbidden import when there is one.
    src, dst = "readreceipt.reading.verdict", "readreceipt.pipeline"
    assert _unit(dst) not in ALLOWED[_unit(src)]
    assert any(_unit(s) == "cli" and d == "click" for s, d, _ in ALL_IMPORTS)
    assert any(d == "readreceipt.agents.mcp_server" for _, d, _ in ALL_IMPORTS)


def test_a_dialect_imports_nothing_at_its_top_but_its_package() -> None:
    # The hook's quick modes import one dialect: what it needs beyond str operations it
    # imports inside the worker's functions (json, shlex, the FetchCall type).
    folder = PACKAGE / "agents" / "dialects"
    names = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    assert names == ["claude", "cline", "codex", "copilot", "cursor", "gemini"]
    for name in ["__init__", *names]:
        tree = ast.parse((folder / f"{name}.py").read_text("utf-8"))
        at_top = {alias.name for node in tree.body if isinstance(node, ast.Import)
                  for alias in node.names}
        at_top |= {node.module for node in tree.body
                   if isinstance(node, ast.ImportFrom) and node.module}
        assert at_top <= {"__future__", "readreceipt.agents.dialects"}, (name, at_top)
