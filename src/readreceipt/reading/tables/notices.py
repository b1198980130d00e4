"""The wall table's entries for notices that frameworks, CMSs and proxies print in their own
templates, in every language they ship: a proxy's error page, a maintenance notice, a
suspended or inactive account or site. Built from the maintained vocabularies of
vocabulary.py (terms.py), never from words a page here showed.

- ``PROXY_ERRORS``: Squid's heading over every error it serves in place of a page ("The
  requested URL could not be retrieved", squid-langpack's ERR_* pages in 25 of the web's
  languages). The heading is Squid's template's, the same on every network that runs it
  (``vendor``). Judged before the bot checks, as web filters' block pages are (blocks.py).
- ``NOTICES``: WordPress's maintenance notice ("Briefly unavailable for scheduled
  maintenance", the one sentence of the page WordPress serves while it updates: ``vendor``);
  Apache's 503 sentence ("The server is temporarily unable to service your request due to
  maintenance downtime or capacity problems", which hosts' own 503 pages copy: ``wording``);
  the heading of an inactive or blocked account (django-allauth's "Account Inactive",
  MediaWiki's "User is blocked") and the sentence saying so (Django's and allauth's "This
  account is inactive.", Keycloak's "Account is disabled, contact your administrator.",
  WordPress multisite's "This site has been archived or suspended.").

Gated as a wall is (``block``: a page that is the notice and nothing else); the sentences are
placed as every wall phrase is (evidence.py: in the content, or on a page with nothing else).
Measured on the 181 articles and the clean pages of both corpora (bench/vocabulary_hits.py):
no term of these concepts is in the title, a heading or the text of any of them.

Invariants: data only; lower case; every entry names its concept, source and licence.
"""

from __future__ import annotations

from readreceipt.reading.tables.entries import Entry
from readreceipt.reading.tables.terms import heading_entry, phrase_entry

__all__ = ["NOTICES", "PROXY_ERRORS"]

_IN = "interstitial"
_PROXY = "a proxy's error page: the proxy did not fetch the page"
_MAINT = "a maintenance page"
_SUSPENDED = "a suspended or inactive account or site"

PROXY_ERRORS: tuple[Entry, ...] = (
    heading_entry(_IN, "proxy_error", "the requested URL could not be retrieved (vocabulary)",
                  what=_PROXY, vendor="Squid"),
)

NOTICES: tuple[Entry, ...] = (
    phrase_entry(_IN, "maintenance_notice", "briefly unavailable for scheduled maintenance "
                 "(vocabulary)", what=_MAINT, vendor="WordPress"),
    # Apache's 503 page's sentence, which many hosts' own 503 pages copy.
    phrase_entry(_IN, "unavailable_text", "the server is temporarily unable to service your "
                 "request (vocabulary)", what=_MAINT),
    heading_entry(_IN, "suspended", "account inactive (vocabulary)", what=_SUSPENDED),
    phrase_entry(_IN, "suspended_text", "this account is inactive (vocabulary)",
                 what=_SUSPENDED),
)
