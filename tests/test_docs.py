"""The contract in docs/ stays true to the code: record fields, exit codes, commands, settings.

Each test reads a table of a docs/ page and the code it describes, and fails naming what one
has and the other lacks.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from readreceipt.cli import _COMMANDS
from readreceipt.errors import EXIT_CODE_MEANINGS
from readreceipt.store.records import ADAPTER_FIELDS, Record

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _first_cells(text: str) -> list[str]:
    """The first cell of every table row (header and rule rows left out)."""
    cells = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"^\|\s*-", line):
            cells.append(line.split("|")[1].strip())
    return cells


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end != -1 else None]


def test_record_md_lists_every_record_field_and_no_other() -> None:
    text = (DOCS / "record.md").read_text("utf-8")
    fields_section = _section(text, "## Fields")
    documented = {m for cell in _first_cells(fields_section)
                  for m in re.findall(r"^`(\w+)`$", cell)}
    in_code = {f.name for f in fields(Record)} - {"extra"} | set(ADAPTER_FIELDS)
    assert documented == in_code, (f"undocumented: {sorted(in_code - documented)}; "
                                   f"documented but not in the code: "
                                   f"{sorted(documented - in_code)}")


def test_cli_md_exit_codes_are_errors_exit_code_table() -> None:
    text = _section((DOCS / "cli.md").read_text("utf-8"), "## Exit codes")
    rows = {}
    for line in text.splitlines():
        match = re.match(r"^\| (\d+) \| (.+) \|$", line)
        if match:
            rows[int(match[1])] = match[2]
    assert rows == EXIT_CODE_MEANINGS


def test_cli_md_names_every_command() -> None:
    text = _section((DOCS / "cli.md").read_text("utf-8"), "## Commands")
    documented = {cell.strip("`").split()[0] for cell in _first_cells(text)
                  if cell.startswith("`")}
    assert documented == set(_COMMANDS)


#: Variables readreceipt does not read itself but that change what it does, and the library
#: that reads each (its row in docs/cli.md must name it).
READ_BY_LIBRARIES = {"TMPDIR": "tempfile", "PLAYWRIGHT_BROWSERS_PATH": "playwright",
                     "NO_COLOR": "rich"}


def test_cli_md_names_every_environment_variable() -> None:
    used = {name for path in (ROOT / "src" / "readreceipt").rglob("*.py")
            for name in re.findall(r"READRECEIPT_[A-Z_]+", path.read_text("utf-8"))}
    text = _section((DOCS / "cli.md").read_text("utf-8"), "## Environment")
    rows = {line.split("|")[1].strip().strip("`"): line for line in text.splitlines()
            if line.startswith("| `")}
    assert {name for name in rows if name.startswith("READRECEIPT_")} == used
    others = {name: row for name, row in rows.items() if not name.startswith("READRECEIPT_")}
    assert set(others) == set(READ_BY_LIBRARIES)
    for name, row in others.items():
        assert f"`{READ_BY_LIBRARIES[name]}`" in row, f"{name}: name the library reading it"


def test_nothing_cites_a_design_file_outside_the_repository() -> None:
    places = [ROOT / "README.md", *DOCS.glob("*.md"), *(ROOT / "src").rglob("*.py"),
              *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
    citing = [str(p.relative_to(ROOT)) for p in places
              if p != Path(__file__) and "DESIGN.md" in p.read_text("utf-8")]
    assert not citing, citing


def test_every_docs_page_named_exists() -> None:
    texts = [p.read_text("utf-8") for p in [ROOT / "README.md", *DOCS.glob("*.md"),
                                            *(ROOT / "src").rglob("*.py")]]
    named = {m for t in texts for m in re.findall(r"\bdocs/(\w+\.md)\b", t)}
    named |= {m for p in DOCS.glob("*.md")
              for m in re.findall(r"`(\w+\.md)`", p.read_text("utf-8"))}
    assert named, "no docs page is named anywhere"
    missing = sorted(n for n in named if not (DOCS / n).exists())
    assert not missing, missing


def test_cli_md_names_every_field_capture_json_prints(tmp_path: Path) -> None:
    """The `capture URL --json` object of docs/cli.md (fields marked `?` appear only
    sometimes) against what a capture prints: a field added to one and not the other fails."""
    from conftest import LocalServer, article_html, run_cli

    text = (DOCS / "cli.md").read_text("utf-8")
    listed = re.search(r"`capture URL --json` → `\{([^}]*)\}`", text)
    assert listed, "cli.md no longer shows capture's --json object"
    names = [n.strip() for n in listed[1].split(",")]
    always = {n for n in names if not n.endswith("?")}
    sometimes = {n.rstrip("?") for n in names if n.endswith("?")}
    with LocalServer() as server:
        url = server.route("/a", article_html())
        out = run_cli("capture", url, "--now", "--json", "--answer", "-", allow=server.pair,
                      library=tmp_path / "lib", input='"not on the page, not anywhere on it"')
    printed = set(out.json())
    assert always <= printed, f"documented, not printed: {sorted(always - printed)}"
    assert printed <= always | sometimes, f"undocumented: {sorted(printed - always - sometimes)}"
