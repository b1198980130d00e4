"""Bot checks by their script, in any language: does the page's own script do proof of work?

A proof-of-work gate (BunkerWeb's antibot JavaScript check, pow-shield-php, home-made
"checking your browser" pages) sends a short page whose inline script hashes a challenge
in a loop with no bound until the digest meets a difficulty, and then hands the answer back:
a cookie, a submitted form, a new location (``tables/scripts.py`` lists the marks of each
part). Its words are the site's, in any language, or none; its script is the same on every
site. It is a bot check when one inline script (no ``src``, at most ``MAX_SCRIPT_CHARS``)
carries all three parts and the page has little main text of its own (``MAX_MAIN_LETTERS``):
an article or a form page that loads a proof-of-work captcha for its form keeps its text,
and a library's solver is an external script, not the page's own.

The same gates, and others (Cloudflare's old "I'm Under Attack" page), hand the answer back
through a form the visitor never sees: the page's one form holds hidden fields only (no
shown field, text area, list or button) and an inline script submits it
(``hidden_form_submitted``). A sign-in relay (SAML, OAuth form posts) keeps a button for
browsers without scripts in a ``noscript`` inside its form, and an ordinary page's forms are
there to be filled in.

Invariants: pure; linear in the markup (one pass of ``str.find`` over at most
``MAX_MARKUP_CHARS``, each script squeezed once); no regular expression; no words of any
language in the decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from readreceipt.reading.placement import PageTree, subtree_ends
from readreceipt.reading.tables.scripts import (
    HANDBACK_MARKS,
    HASH_MARKS,
    LOOP_MARKS,
    MAX_SCRIPT_CHARS,
)

__all__ = ["MAX_MAIN_LETTERS", "MAX_MARKUP_CHARS", "WorkScript", "hidden_form_submitted",
           "may_hold_work", "proof_of_work"]

#: A gate's page explains itself in a heading and a line or two (facts.BLOCK_MAX_MAIN_LETTERS).
MAX_MAIN_LETTERS = 800
#: How much of the markup is read for scripts: gates inline their styles and fonts (BunkerWeb
#: 1.5's page is 160 kB), never megabytes.
MAX_MARKUP_CHARS = 400_000


@dataclass(frozen=True)
class WorkScript:
    """A proof-of-work script: the marks of its hash and of its hand-back."""

    hash: str
    handback: str


def may_hold_work(main_letters: int, markup: Callable[[], str]) -> bool:
    """The cheap test: short enough, and a script and a form or a hash mark in the
    lower-cased markup (asked for only when the page is short enough)."""
    if main_letters > MAX_MAIN_LETTERS:
        return False
    m = markup()
    return "<script" in m and ("<form" in m or any(h in m for h in HASH_MARKS))


def _inline_scripts(markup: str) -> list[str]:
    """The texts of the inline scripts (no ``src``) of the lower-cased markup, each at most
    ``MAX_SCRIPT_CHARS``; longer ones are left out (a bundle, not a gate's script)."""
    found: list[str] = []
    m = markup[:MAX_MARKUP_CHARS]
    at = m.find("<script")
    while at >= 0:
        close = m.find(">", at)
        if close < 0:
            break
        end = m.find("</script", close)
        if end < 0:
            end = len(m)
        if "src=" not in m[at:close] and end - close - 1 <= MAX_SCRIPT_CHARS:
            found.append(m[close + 1:end])
        at = m.find("<script", end)
    return found


def proof_of_work(markup: str, main_letters: int) -> WorkScript | None:
    """The page's own proof-of-work script (module docstring), or None. ``markup`` is the
    lower-cased HTML."""
    if main_letters > MAX_MAIN_LETTERS:
        return None
    for script in _inline_scripts(markup):
        hashed = next((h for h in HASH_MARKS if h in script), None)
        if hashed is None:
            continue
        squeezed = "".join(script.split())
        if not any(loop in squeezed for loop in LOOP_MARKS):
            continue
        back = next((b for b in HANDBACK_MARKS if b in squeezed), None)
        if back is not None:
            return WorkScript(hashed, back)
    return None


def hidden_form_submitted(page: PageTree | None, markup: str, main_letters: int) -> bool:
    """The page's one form holds hidden fields only and an inline script submits it
    (module docstring). ``markup`` is the lower-cased HTML."""
    if page is None or main_letters > MAX_MAIN_LETTERS:
        return False
    nodes = page.elements
    forms = [i for i, n in enumerate(nodes) if n.tag == "form"]
    if len(forms) != 1:
        return False
    start = forms[0]
    inputs = 0
    for node in nodes[start + 1:subtree_ends(nodes)[start] + 1]:
        if node.tag in ("textarea", "select", "button"):
            return False
        if node.tag == "input":
            if (node.attrs.get("type") or "").strip().lower() != "hidden":
                return False
            inputs += 1
    if inputs == 0:
        return False
    # A fallback for browsers without scripts (a noscript "Continue" button inside the form;
    # the page tree leaves noscript out) is a sign-in relay's: it posts what the visitor
    # already has, not a check's answer.
    opened = markup.find("<form")
    closed = markup.find("</form", opened)
    if opened < 0 or "<noscript" in markup[opened:closed if closed >= 0 else len(markup)]:
        return False
    return any(".submit()" in "".join(script.split()) for script in _inline_scripts(markup))
