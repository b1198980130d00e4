"""``readreceipt demo``: capture sample pages from a local server into a fresh library."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click
from rich.table import Table

from readreceipt.cli import emit_json
from readreceipt.cli._common import VERDICT_STYLE, console, json_option
from readreceipt.store.library import Library


@click.command()
@click.option("--library", "library_dir", type=click.Path(file_okay=False),
              help="Where to keep the demo's library (default: a new temporary folder).")
@json_option
def demo(library_dir: str | None, as_json: bool) -> None:
    """Capture five sample pages served on 127.0.0.1 and check a sample answer. Offline."""
    from readreceipt.demo import SAMPLE_ANSWER, run_demo

    root = Path(library_dir) if library_dir else Path(tempfile.mkdtemp(prefix="readreceipt-demo-"))
    with Library.open(root) as lib:
        base, steps, checked = run_demo(lib)
    if as_json:
        emit_json({
            "library": str(root), "server": base,
            "captures": [s.result.to_json() if s.result else {"url": s.url,
                         "error": str(s.error)} for s in steps],
            "answer_check": checked.answer.check if checked and checked.answer else None,
        })
        return
    out = console()
    out.print(f"Serving five sample pages on {base} (only this address is exempted from the "
              "private-address rule; each record says so).\n", markup=False)
    table = Table("URL", "verdict", "reason", "bytes", "text chars", "record", box=None)
    for step in steps:
        path = step.url.removeprefix(base)
        if step.result is None:
            table.add_row(path, "[red]error[/]", str(step.error), "", "", "")
            continue
        r = step.result.record
        style = VERDICT_STYLE.get(r.verdict, "")
        table.add_row(path, f"[{style}]{r.verdict}[/]", r.reason, str(r.bytes),
                      str(r.text_chars), str(step.result.record_path.relative_to(root)))
    out.print(table)
    if checked is not None and checked.answer is not None:
        out.print("\nA sample answer about the article was checked against the page:")
        out.print(f"  answer: {SAMPLE_ANSWER}", markup=False)
        for p in checked.answer.check.get("passages", []):
            if p.get("found"):
                out.print(f"  [green]found[/]: \u201c{p['text']}\u201d", highlight=False)
            else:
                out.print(f"  [red]not on the page[/]: \u201c{p['text']}\u201d", highlight=False)
                out.print(f"    the page says: \u201c{p.get('nearest')}\u201d", highlight=False)
        for c in checked.answer.check.get("claims") or []:
            if c.get("outcome") == "found":
                out.print(f"  [green]found[/]: {c.get('kind')} \u201c{c['text']}\u201d",
                          highlight=False)
            elif c.get("outcome") == "not_found":
                out.print(f"  [red]not on the page[/]: {c.get('kind')} \u201c{c['text']}\u201d",
                          highlight=False)
                if c.get("nearest"):
                    out.print(f"    nearest figure beside the same words: "
                              f"\u201c{c['nearest']}\u201d", highlight=False)
    out.print(f"\nThe evidence is in {root}:", markup=False)
    out.print("  store/     the bytes as received, by SHA-256\n"
              "  text/      the extracted texts, by SHA-256\n"
              "  records/   one YAML record per retrieval\n"
              "  index.db   the SQLite index; flags.jsonl holds quotations and figures not on "
              "the page")
    out.print("\nTry next:")
    out.print(f"  readreceipt --library {root} log", markup=False)
    out.print(f"  readreceipt --library {root} show {base}/harbour-bridge --text", markup=False)
    out.print(f"  readreceipt --library {root} verify", markup=False)
    out.print("  readreceipt capture https://example.org/   (a real page, when you are online)",
              markup=False)
