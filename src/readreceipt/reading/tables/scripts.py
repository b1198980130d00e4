"""What a bot check's own script is made of: the marks ``reading/workscript.py`` looks for in
a page's inline scripts to find a proof of work, whatever the page's language.

A proof-of-work gate sends a short page whose script hashes a challenge with a counter, again
and again, until the digest meets a difficulty, and then hands the answer back: it sets a
cookie, submits a form, or loads the next address. Each part has few spellings, the same on
every site, because they are the language's own:

- the hash: the browser's Web Crypto call or a SHA-256 routine bundled in the page;
- the search: a loop with no bound of its own (it ends when the digest fits);
- the hand-back: a cookie written, a form submitted, or the page's location set.

Evidence (each gate's own template, read for issue 21's eighth round; bench/devset6):
BunkerWeb's antibot JavaScript page (src/common/core/antibot/files/javascript.html: a
bundled ``sha256`` routine in ``for (var a = 0; ; )`` until the digest starts with zeros,
then ``form.submit()``); pow-shield-php (``__ab/pow.php``: ``crypto.subtle.digest('SHA-256'``
in ``while (true)``, then ``location.replace``); ALTCHA's and Cap's solvers
(``crypto.subtle.digest``); Anubis' and mCaptcha's workers (SHA-256 over a nonce).

Invariants: data only; every mark lower case and matched in the lower-cased script text
with its whitespace removed (``squeezed``), so ``while (true)`` and ``while(true)`` are one.
"""

from __future__ import annotations

__all__ = ["HANDBACK_MARKS", "HASH_MARKS", "LOOP_MARKS", "MAX_SCRIPT_CHARS"]

#: The hash: Web Crypto's digest call (ALTCHA, Cap, pow-shield-php) or a SHA-256 routine by
#: its name (BunkerWeb's bundled ``sha256_K``; Anubis', go-away's, mCaptcha's ``sha256``).
HASH_MARKS: tuple[str, ...] = ("crypto.subtle.digest", "sha256", "sha-256")

#: A loop with no bound of its own: the search runs until the digest meets the difficulty.
#: A bounded ``for`` is an ordinary script's; these forms are a search's: ``while`` on a
#: constant, and a ``for`` whose condition is empty (``for(;;)``, ``for(var a=0;;)``,
#: ``for(let i=0;;i++)``: two semicolons with nothing between them, once squeezed).
LOOP_MARKS: tuple[str, ...] = ("while(true)", "while(1)", "while(!0)", ";;")

#: The hand-back: the answer written to a cookie, a form submitted, the location set.
HANDBACK_MARKS: tuple[str, ...] = (
    "document.cookie=", ".submit()", "location.replace(", "location.href=",
    "location.assign(", "location.reload(", "window.location=",
)

#: A gate's script is a few thousand characters (BunkerWeb's, with its own SHA-256 routine,
#: about 9,000; pow-shield-php's about 8,000); a longer inline script is an application's
#: bundle (a shell's), whose libraries carry loops, hashes and redirects of their own.
MAX_SCRIPT_CHARS = 40_000
