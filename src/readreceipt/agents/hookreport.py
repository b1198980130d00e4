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

_UNTRUSTED = ("the quoted passages come from an answer (a fetch tool's or yours), the nearest "
              "passages from the pages readreceipt fetched, and the URLs from the tool calls")


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
    seen: set[tuple[str, str]] = set()
    unique = []
    for row in rows:
        if (row.url, row.passage) not in seen:
            seen.add((row.url, row.passage))
            unique.append(row)
    return unique


def flag_lines(rows: list[Flag], agent_id: str | None) -> list[str]:
    """One sanitized line per flag: where, what was quoted, what the page holds nearest."""
    lines = []
    for row in rows:
        passage = fence.one_line(row.passage, PASSAGE_CHARS)
        if row.nearest:
            similar = f" ({row.similarity:.0f}% similar)" if row.similarity is not None else ""
            nearest = (f"the nearest passage on the page says "
                       f"\"{fence.one_line(row.nearest, PASSAGE_CHARS)}\"{similar}")
        else:
            nearest = "the page holds nothing close to it"
        origin = ""
        if agent_id is None and row.agent_id:
            origin = f" (from subagent {fence.one_line(row.agent_id, 80)}'s fetch)"
        lines.append(f"- {fence.one_line(row.url, 2048)}: the quoted passage \"{passage}\" is "
                     f"not on the page; {nearest}{origin}")
    return lines


def _count(rows: list[Flag]) -> str:
    if len(rows) == 1:
        return "1 quoted passage in an answer is not on the page it was attributed to"
    return (f"{len(rows)} quoted passages in answers are not on the pages they were "
            "attributed to")


_INDEPENDENT = ("readreceipt fetched each page again independently, so its copy can differ "
                "from what the fetch tool read")
_HOW = "`readreceipt fetch URL` writes a page's exact words to a file"


def report_text(rows: list[Flag], agent_id: str | None) -> str:
    """The context put before the agent after a tool call: facts, no orders."""
    return "\n".join([
        f"readreceipt: {_count(rows)}; {_INDEPENDENT}.",
        fence.enclose(flag_lines(rows, agent_id), _UNTRUSTED),
        f"These passages are not the pages' words as readreceipt read them. {_HOW}.",
    ])


def stop_text(rows: list[Flag], agent_id: str | None) -> str:
    """The reason a stop is blocked: the agent's next instruction."""
    return "\n".join([
        f"readreceipt, before you finish: {_count(rows)}; {_INDEPENDENT}.",
        fence.enclose(flag_lines(rows, agent_id), _UNTRUSTED),
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
