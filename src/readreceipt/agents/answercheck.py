"""An agent's final answer checked against the pages its session read, from a hook.

Codex CLI's Stop (``last_assistant_message``), Gemini CLI's AfterAgent
(``prompt_response``), Cursor's afterAgentResponse (``text``) and Cline's TaskComplete
(``result``) hand the agent's answer to the hook; Claude Code's WebFetch and Gemini CLI's
web_fetch hand a fetch tool's answer about the pages it read. Each is checked by the one
answer check (:func:`readreceipt.quotes.answers.check`) against every page the session read:
the pages whose capture the session's worker marked
(:func:`readreceipt.store.sessionmarks.pages`: captures reused from the dedup window
included) and the retrievals the index holds for the session, at most :data:`MAX_PAGES`, the
newest. A passage on none of them is a flag (:func:`readreceipt.quotes.answerlog.record`),
told as every flag is (:mod:`.hookreport`).

Invariants: never raises to the hook (a failure is one logged line); reads the library, and
writes only flags and one ``answer_checks.jsonl`` line; nothing here fetches.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from readreceipt.quotes.answerlog import held_copy, record
from readreceipt.quotes.answers import CheckedAnswer, check
from readreceipt.store import sessionmarks
from readreceipt.store.library import Library
from readreceipt.store.protocols import RetrievalFilter
from readreceipt.store.records import Record

log = logging.getLogger(__name__)

#: Pages one answer is checked against at most (the newest the session read).
MAX_PAGES = 50


def session_records(lib: Library, session_id: str) -> list[Record]:
    """The pages the session read, newest first, at most :data:`MAX_PAGES`."""
    ids = list(reversed(sessionmarks.pages(session_id)))
    ids += [row.record_id for row in
            lib.index.retrievals(RetrievalFilter(session_id=session_id), limit=MAX_PAGES)]
    records: list[Record] = []
    for record_id in dict.fromkeys(ids):
        if len(records) >= MAX_PAGES:
            break
        try:
            records.append(lib.load(record_id))
        except Exception:  # a record forgotten or unreadable: not a page to check against
            log.debug("no record %s", record_id, exc_info=True)
    return records


def check_answer(lib: Library, session_id: str, agent_id: str | None, answer: str,
                 prompt: str | None) -> CheckedAnswer | None:
    """Check ``answer`` against the session's pages and write it down (None: the session
    read no page)."""
    pages = session_records(lib, session_id)
    if not pages:
        return None
    # attributed: a final answer mixes what pages said with the agent's own work, so only
    # its sentences that name a source state figures and names to check (as audit reads one)
    checked = check(answer, prompt or "", [held_copy(lib, page) for page in pages],
                    attributed=True)
    record(lib, checked, session_id, agent_id)
    return checked


def check_final(cwd: str | None, session_id: str, agent_id: str | None, answer: str,
                prompt: str | None) -> CheckedAnswer | None:
    """The stop hook's check of the agent's final answer, in the library found from
    ``cwd``; None when it could not run."""
    start = Path(cwd) if isinstance(cwd, str) and os.path.isdir(cwd) else None
    try:
        # a hook: nobody reads its stderr, so a team store never shown is not used
        with Library.locate(cwd=start, create=False, watched=False) as lib:
            return check_answer(lib, session_id, agent_id, answer, prompt)
    except Exception:  # a hook never fails its session; the check is written down or not
        log.debug("the final answer was not checked", exc_info=True)
        return None
