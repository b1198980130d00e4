"""robots.txt rules, parsed in time linear in the file: only the groups that can apply to us.

protego, which does the parsing and matching, gives every User-agent line of a group its own
rule set and appends each rule of the group to every one of them, so a group of K agents and
R rules costs K x R (a robots.txt of 2,000 ``User-agent`` lines then 2,000 ``Disallow`` lines
took 15 s and 400 MiB; one at :data:`~readreceipt.fetching.robots.MAX_BYTES` would take tens
of GiB). Only the rule sets that can match :data:`PRODUCT_TOKEN` (and ``*``) ever decide
anything for readreceipt, so :func:`relevant_text` names every other agent ``~`` before
protego sees the file: the groups, the lines and their order stay as they were, and the
other agents' rules all land in one rule set that matches nobody, so the work is at most a
few rule sets per rule.

Invariants:
- for ``PRODUCT_TOKEN``, ``can_fetch`` and ``crawl_delay`` of :func:`parse` answer exactly as
  protego's parse of the unaltered file does (a test compares them on generated files);
- a line is taken for a User-agent line by the same reading protego 0.7 gives it, including
  its lenient forms (``User agent foo``, ``useragent: foo``), so no group boundary moves;
- the parse of one body is kept (:func:`parse` is cached), so the captures of one host
  parse its robots.txt once per process, not once each.
"""

from __future__ import annotations

from functools import lru_cache

from protego import Protego

#: The product token matched against robots.txt User-agent lines (RFC 9309 section 2.2.1);
#: the full USER_AGENT string carries it first.
PRODUCT_TOKEN = "readreceipt"  # noqa: S105 - a robots.txt product token, not a password
#: The agent every group not for us is renamed to: it holds no letter of PRODUCT_TOKEN, so
#: protego's match (a substring of our name at a token boundary) never picks it.
OTHER_AGENT = "~"

# protego 0.7's directive names (its _protego module); what decides a line's field.
_USER_AGENT = frozenset({"user-agent", "useragent", "user agent"})
_DIRECTIVES = _USER_AGENT | {
    "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw", "allow",
    "sitemap", "sitemaps", "site-map", "crawl-delay", "crawl delay", "request-rate",
    "request rate", "visit-time", "visit time", "host"}
#: The most parses kept: one per host captured lately; a parse is at most a few rule sets
#: of a 500 KiB file's rules.
_CACHED = 32


@lru_cache(maxsize=_CACHED)
def parse(body: str) -> Protego:
    """protego's parser of ``body`` with every agent that cannot be us renamed (cached)."""
    return Protego.parse(relevant_text(body))


def relevant_text(body: str) -> str:
    """``body`` with each User-agent line that cannot match PRODUCT_TOKEN naming ``~``."""
    lines = body.splitlines()  # protego's split, so the lines are the ones it reads
    for number, line in enumerate(lines):
        agent = _user_agent(line)
        if agent is not None and agent and not _may_be_us(agent):
            lines[number] = f"User-agent: {OTHER_AGENT}"
    return "\n".join(lines)


def _user_agent(line: str) -> str | None:
    """The value of ``line`` if protego reads it as a User-agent line, else None."""
    hash_at = line.find("#")
    if hash_at != -1:
        line = line[:hash_at]
    line = line.strip()
    if not line:
        return None
    if ":" in line:
        field, raw = line.split(":", 1)
        field = field.strip().lower()
        if field in _USER_AGENT:
            return raw.strip()
        if field in _DIRECTIVES or not raw or raw[0].isspace():
            return None  # another directive, or an unknown "field: value"
    # protego's second chance: the first one or two words as the field.
    words = line.split()
    first = words[0].lower()
    if first in _USER_AGENT:
        return " ".join(words[1:])
    if first in _DIRECTIVES:
        return None
    if len(words) > 1 and f"{first} {words[1].lower()}" in _USER_AGENT:
        return " ".join(words[2:])
    return None


def _may_be_us(agent: str) -> bool:
    """Whether protego would give ``agent`` (a User-agent value) a rule set that matches us.

    protego keeps the value lowered and, when it has a ``*`` inside, the value without its
    stars as well; a name matches when it is ``*`` or occurs in our token at a token start.
    """
    name = agent.strip().lower()
    if name == "*":
        return True
    return any(_matches(candidate) for candidate in (name, name.replace("*", "")) if candidate)


def _matches(name: str) -> bool:
    index = PRODUCT_TOKEN.find(name)
    while index != -1:
        before = PRODUCT_TOKEN[index - 1] if index else ""
        if not before or not (before.isalnum() or before in "-_"):
            return True
        index = PRODUCT_TOKEN.find(name, index + 1)
    return False
