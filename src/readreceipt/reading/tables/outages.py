"""Outage and maintenance pages by what builds them, not by what they say.

- the status code of a server error (500, 502, 503, 504) as the page's own heading, a code
  as the 404 rule reads one (first, or after a separator or a mark): the web server's or the
  framework's error template served as success (``structure``, a number in every language);
- the maintenance screens of the common CMSs and hosts, by their own markup (``vendor``):
  an active maintenance or coming-soon plugin loads its assets only on the screen it shows
  in place of the site (WordPress plugins under ``/wp-content/plugins/<slug>/``), Drupal's
  and Joomla's own maintenance templates, Shopify's password page, Heroku's error and
  maintenance pages, Varnish's backend-error template.

Each is gated as a wall is (``block``: a page that is the notice and nothing else).

Invariants: data only; lower case; every entry names its vendor or kind and evidence.
"""

from __future__ import annotations

import re

from readreceipt.reading.tables.entries import Entry, lit, rx

__all__ = ["OUTAGES"]

_IN = "interstitial"
_MAINT = "a maintenance page"
_ERR = "an error or maintenance page: the site did not serve the page"
_WP = "WordPress plugin {}: its assets load only on the maintenance screen it shows"


def _plugin(slug: str, name: str) -> Entry:
    """The plugin's style sheet or script loaded by the page (a link to its files is not)."""
    path = f"/wp-content/plugins/{slug}/"
    return rx(_IN, "markup", r"<(?:link|script)\b[^<>]{0,300}?\b(?:href|src)=[\"']?"
              r"[^\"'\s>]{0,200}?" + re.escape(path), f"{name}'s maintenance screen",
              vendor=name, what=_MAINT, anchor=path, ev=_WP.format(slug))


OUTAGES: tuple[Entry, ...] = (
    # "502 Bad Gateway", "Error 503", "HTTP 500 | Internal Server Error", "Oops! 504".
    # The code alone in its heading or title segment, or with its reason phrase (RFC 9110's),
    # or after "error"/"HTTP": "500 Miles on Foot" is a title. The other 5xx codes servers
    # and proxies write (501, 505, 507) and a CDN's origin errors (520-527, 530:
    # Cloudflare's, which hosts' custom pages copy: bench/devset5_labels.tsv aa_501,
    # hep_520); not 506, 508-511, which name cars and models more often than errors.
    rx(_IN, "heading", r"(^|[|\-\u2013\u2014:\u00b7\u2022(\[!?.]\s*|\b(error|http) )"
        r"(50[0-57]|52[0-7]|530)(\W{0,3}$|\W{0,3}[|\-\u2013\u2014:\u00b7\u2022)\]]|\W{0,3}"
        r"(internal server error|bad gateway|service (temporarily )?unavailable|gateway "
        r"time-?out)\b)", "a server error's status code in the page's own heading",
        what=_ERR, evidence="structure",
        ev="web servers' and frameworks' default 5xx templates (nginx, Apache, IIS, Laravel, "
           "Django) served as success; tests/pages/other_interstitial/status_503_heading_*"),
    _plugin("wp-maintenance-mode", "WP Maintenance Mode"),
    _plugin("maintenance", "Maintenance (WebFactory)"),
    _plugin("under-construction-page", "UnderConstructionPage"),
    _plugin("coming-soon", "SeedProd Coming Soon"),
    _plugin("seedprod-coming-soon-pro-5", "SeedProd Coming Soon Pro"),
    _plugin("cmp-coming-soon-maintenance", "CMP Coming Soon & Maintenance"),
    _plugin("minimal-coming-soon-maintenance-mode", "Minimal Coming Soon & Maintenance Mode"),
    _plugin("wp-maintenance", "WP Maintenance"),
    lit(_IN, "markup", "elementor-maintenance-mode", vendor="Elementor", what=_MAINT,
        ev="Elementor's maintenance-mode template class", name="Elementor's maintenance mode"),
    lit(_IN, "markup", 'class="maintenance-page', vendor="Drupal", what=_MAINT,
        ev="Drupal's maintenance-page template body class", name="Drupal's maintenance page"),
    lit(_IN, "markup", 'id="frame" class="outline"', vendor="Joomla", what=_MAINT,
        ev="Joomla's system offline template", name="Joomla's offline page"),
    lit(_IN, "markup", "template-password", vendor="Shopify", what="a shop's password page",
        ev="Shopify themes' password template body class", name="Shopify's password page"),
    lit(_IN, "markup", "herokucdn.com/error-pages/", vendor="Heroku", what=_ERR,
        ev="Heroku's application-error and maintenance pages", name="Heroku's error page"),
    lit(_IN, "text", "guru meditation", vendor="Varnish", what=_ERR,
        ev="Varnish's backend-fetch-failed template", name="Varnish's error page"),
)
