"""Dialects: each coding agent's hook payloads and replies, normalised to readreceipt's events.

One small module per agent (``claude``, ``gemini``, ``codex``, ``cursor``, ``cline``,
``copilot``), each with the same functions, so that :mod:`readreceipt.agents.hook` runs one
path for every agent and only the shapes differ:

``session(payload)``, ``agent(payload)``, ``cwd(payload)``
    The session the payload belongs to, the subagent that made the call (or None), and the
    folder to look for the library from.
``is_fetch(payload)``
    Is this after-a-tool payload a call that fetched a web page readreceipt should capture?
``stop_active(payload)``
    Is the agent already going on because a stop hook told it to? (Never block twice.)
``final_message(payload)``
    ``(message, prompt)``: the agent's last answer in a stop (or answer) payload, when the
    agent hands it over, and the prompt it answered; ``(None, None)`` otherwise.
``after_reply(text)``, ``stop_reply(reason)``, ``QUIET``
    What to print to put ``text`` before the agent after a tool call, to keep it from
    stopping with ``reason`` as its next instruction (None: the agent cannot be stopped),
    and what to print when there is nothing to say (None: nothing).
``fetches(payload)``
    The worker's side: the :class:`~readreceipt.agents.fetchcalls.FetchCall` values the
    payload names (importing what it needs when called), or
    :class:`~readreceipt.agents.fetchcalls.Skip`.

Each module names the documentation its shapes come from (``DOCS``), and
``tests/fixtures/agents/`` holds payloads written from those pages.

Invariants: importing a dialect costs the standard library's ``os`` at most (the hook's quick
modes import one): no :mod:`json`, :mod:`re`, :mod:`typing`, :mod:`pathlib` or
:mod:`dataclasses` at module level; every accessor takes any JSON value and never raises.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs the hook's quick modes
if TYPE_CHECKING:
    from types import ModuleType

#: The agents readreceipt's hooks speak to, in the order the documentation lists them.
NAMES = ("claude", "gemini", "codex", "cursor", "cline", "copilot")
#: The agent a command without ``--agent`` speaks to.
DEFAULT = "claude"


def load(name: str) -> ModuleType | None:
    """The dialect module of agent ``name``, or None when there is none."""
    if name not in NAMES:
        return None
    module: ModuleType = __import__(f"readreceipt.agents.dialects.{name}", fromlist=["NAME"])
    return module


def text(payload: object, *keys: str, limit: int | None = None) -> str | None:
    """The non-empty string at ``payload[k1][k2]...``, or None (cut to ``limit``)."""
    value = payload
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    if not isinstance(value, str) or not value:
        return None
    return value[:limit] if limit else value


def first_text(payload: object, *names: str, limit: int | None = None) -> str | None:
    """The first of several top-level keys holding a non-empty string."""
    for name in names:
        found = text(payload, name, limit=limit)
        if found is not None:
            return found
    return None


def first_root(payload: object, key: str) -> str | None:
    """The first string of a list at ``payload[key]`` (a workspace's roots)."""
    roots = payload.get(key) if isinstance(payload, dict) else None
    if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0]:
        return roots[0]
    return None


def shell_downloads(command: object) -> bool:
    """Might this shell command download a page (curl, wget or ``readreceipt fetch``)? A cheap
    look for the hook's quick path; the worker reads the command properly."""
    if isinstance(command, list):
        command = " ".join(str(word) for word in command)
    if not isinstance(command, str) or "://" not in command:
        return False
    return "curl" in command or "wget" in command or "readreceipt" in command
