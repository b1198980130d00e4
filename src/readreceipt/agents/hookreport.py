"""What the hook tells the agent: flags claimed from the index, worded, fenced.

``readreceipt-hook report`` (after a tool call) and ``readreceipt-hook stop`` (before the
agent finishes) call this only once a quick look found something to tell
(:mod:`readreceipt.agents.hook`). Claiming is the index's (one transaction: two concurrent
reports never tell one flag twice); this module words what was claimed.

Invariants: every passage, nearest passage and URL shown came from an answer, a page or the
agent's own tool call, so each is one sanitized line (:func:`readreceipt.agents.fence.one_line`)
and all of them stand between two fence lines with a random value, under a sentence saying
they are data; readreceipt's own words stay outside the fence and state facts. The session's
flag mark (:mod:`readreceipt.store.sessionmarks`) is cleared before a claim and set again
when flags remain, so a flag written meanwhile is never left unmarked.
"""

from __future__ import annotations

import os
from pathlib import Path

from readreceipt.agents import fence
from readreceipt.store import sessionmarks
from readreceipt.store.library import Library
from readreceipt.store.protocols import Flag

#: Flags told in one message; the rest wait for the next one, so a message stays short.
REPORT_LIMIT = 5
#: Characters of a passage (or of the page's nearest passage) repeated in a message.
PASSAGE_CHARS = 300

_UNTRUSTED = ("the quoted passages, figures and names come from an answer (a fetch tool's or "
              "yours), the nearest passages and figures from the pages readreceipt fetched, "
              "and the URLs from the tool calls")


def claim_flags(lib: Library, session_id: str, agent_id: str | None,
                limit: int = REPORT_LIMIT) -> list[Flag]:
    """The flags this agent is to be told about now, marked reported as they are claimed.

    A subagent (``agent_id``) is told about its own flags; the main agent about every flag of
    the session not yet told, its subagents' included. Whichever asks first claims a flag. A
    passage of one page flagged more than once (two captures, a capture and a check) is told
    once.
    """
    sessionmarks.clear_flags(session_id)
    try:
        return _one_per_passage(
            lib.index.claim_unreported_flags(session_id, agent_id, limit=limit))
    finally:
        if lib.index.has_unreported_flags(session_id, None):
            sessionmarks.mark_flags(session_id)


def _one_per_passage(rows: list[Flag]) -> list[Flag]:
    seen: set[tuple[str, str, str]] = set()
    unique = []
    for row in rows:
        if (row.url, row.kind, row.passage) not in seen:
            seen.add((row.url, row.kind, row.passage))
            unique.append(row)
    return unique


def flag_lines(rows: list[Flag], agent_id: str | None) -> list[str]:
    """One sanitized line per flag: where, what the answer said, what the page holds nearest.
    A figure or a name is said to be not on the page as fetched (never that anyone lied)."""
    lines = []
    for row in rows:
        url = fence.one_line(row.url, 2048)
        said = fence.one_line(row.passage, PASSAGE_CHARS)
        origin = ""
        if agent_id is None and row.agent_id:
            origin = f" (from subagent {fence.one_line(row.agent_id, 80)}'s fetch)"
        if row.kind == "figure":
            if row.nearest:
                where = f" ({_TEXTS.get(row.place or '', 'its text')})" if row.place else ""
                nearest = (f"the nearest figure the page gives beside the same words is "
                           f"\"{fence.one_line(row.nearest, PASSAGE_CHARS)}\"{where}")
            else:
                nearest = "the page gives no figure beside the same words"
            lines.append(f"- {url}: the figure \"{said}\" is not on the page as fetched; "
                         f"{nearest}{origin}")
            continue
        if row.kind == "name":
            lines.append(f"- {url}: the name \"{said}\" is not on the page as fetched: the "
                         f"page names no such person, organisation or place{origin}")
            continue
        if row.nearest:
            similar = f" ({row.similarity:.0f}% similar)" if row.similarity is not None else ""
            nearest = (f"the nearest passage on the page says "
                       f"\"{fence.one_line(row.nearest, PASSAGE_CHARS)}\"{similar}")
        else:
            nearest = "the page holds nothing close to it"
        lines.append(f"- {url}: the quoted passage \"{said}\" is not on the page; "
                     f"{nearest}{origin}")
    return lines


#: Where on the page a nearest figure stands, in words.
_TEXTS = {"main": "in its main content", "page": "in its visible text",
          "table": "in one of its tables", "metadata": "in the publisher's metadata"}
_KIND_WORDS = {"quotation": ("quoted passage", "quoted passages"),
               "figure": ("figure", "figures"), "name": ("name", "names")}


def _count(rows: list[Flag]) -> str:
    kinds = [k for k in ("quotation", "figure", "name") if any(r.kind == k for r in rows)]
    parts = []
    for kind in kinds:
        n = sum(1 for r in rows if r.kind == kind)
        parts.append(f"{n} {_KIND_WORDS[kind][n != 1]}")
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if len(rows) == 1:
        return f"{said} in an answer is not on the page it was attributed to"
    return f"{said} in answers are not on the pages they were attributed to"


def _what(rows: list[Flag]) -> str:
    """What the flags are, in the words of the closing sentence."""
    if all(r.kind == "quotation" for r in rows):
        return "These passages are not the pages' words as readreceipt read them."
    return ("These are not on the pages as readreceipt fetched them (a figure counts where "
            "the page gives that value beside the same words).")


_INDEPENDENT = ("readreceipt fetched each page again independently, so its copy can differ "
                "from what the fetch tool read")
_HOW = "`readreceipt fetch URL` writes a page's exact words to a file"


def report_text(rows: list[Flag], agent_id: str | None) -> str:
    """The context put before the agent after a tool call: facts, no orders."""
    return "\n".join([
        f"readreceipt: {_count(rows)}; {_INDEPENDENT}.",
        fence.enclose(flag_lines(rows, agent_id), _UNTRUSTED),
        f"{_what(rows)} {_HOW}.",
    ])


def stop_text(rows: list[Flag], agent_id: str | None) -> str:
    """The reason a stop is blocked: the agent's next instruction."""
    return "\n".join([
        f"readreceipt, before you finish: {_count(rows)}; {_INDEPENDENT}.",
        fence.enclose(flag_lines(rows, agent_id), _UNTRUSTED),
        "If your answer quotes these passages or states these figures or names, or relies on "
        "them, correct it now: say they could not be confirmed on the page, or give the "
        f"page's own words and figures ({_HOW}). If it does not, finish as you were."
        if any(r.kind != "quotation" for r in rows) else
        "If your answer quotes these passages or relies on them, correct it now: say they "
        f"could not be confirmed on the page, or quote the page's own words ({_HOW}). If it "
        "does not, finish as you were.",
    ])


def _open(library_root: str | os.PathLike[str] | None) -> Library:
    """The library the hook found (a team library when the environment or the folder's
    config.toml names one, as the capture worker chose it)."""
    return Library.locate(Path(library_root) if library_root is not None else None)


def report(library_root: str | os.PathLike[str] | None, session_id: str,
           agent_id: str | None) -> str:
    """Claim and word this agent's untold flags for a report; '' when there are none."""
    with _open(library_root) as lib:
        rows = claim_flags(lib, session_id, agent_id)
        return report_text(rows, agent_id) if rows else ""


def stop_reason(library_root: str | os.PathLike[str] | None, session_id: str,
                agent_id: str | None) -> str:
    """Claim and word this agent's untold flags as a reason to block its stop; '' if none."""
    with _open(library_root) as lib:
        rows = claim_flags(lib, session_id, agent_id)
        return stop_text(rows, agent_id) if rows else ""
