"""Rows of a listing (``log``, ``history``) printed so that no value is ever cut.

A value that tells rows apart (a record id, a URL) is worth nothing once shortened: two rows
whose URLs differ only at their end become one. So nothing is shortened or wrapped here:

- when stdout is not a terminal, or every row fits the terminal's width, each row is one
  line, its columns padded to line up;
- otherwise the last column (the long one: a URL) goes on a line of its own under the rest,
  indented; a terminal narrower still wraps that line itself, which loses nothing either.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

_GAP = "  "
_INDENT = "    "


def print_rows(out: Console, headers: Sequence[str], rows: Sequence[Sequence[str]],
               styles: Sequence[str | None] = ()) -> None:
    """Print ``rows`` under ``headers``; ``styles`` give each row's style (a rich colour)
    for its second column, the verdict."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    one_line = sum(widths) + len(_GAP) * (len(widths) - 1)
    split = out.is_terminal and one_line > out.width
    shown = widths[:-1] if split else widths
    head = _GAP.join(h.ljust(w) for h, w in zip(headers, shown, strict=False))
    out.print(escape(head.rstrip() if not split else f"{head.rstrip()}\n{_INDENT}{headers[-1]}"),
              style="bold", highlight=False)
    for n, row in enumerate(rows):
        style = styles[n] if n < len(styles) else None
        cells = [escape(cell.ljust(w)) for cell, w in zip(row, shown, strict=False)]
        if style and len(cells) > 1:
            cells[1] = f"[{style}]{cells[1]}[/]"
        line = _GAP.join(cells).rstrip()
        if split:
            line += f"\n{_INDENT}{escape(row[-1])}"
        out.print(line, highlight=False)
