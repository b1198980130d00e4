"""Hosting platforms' and web servers' own pages: what a host serves when the site itself is
not there, by the fixed template the server or platform ships (``vendor`` evidence: the same
words and markup on every site it hosts, whatever the site is about).

- ``PLACEHOLDERS`` (reported as parked: the address leads to no site): the default page a
  freshly installed web server shows until a site is put in its place (nginx's and
  OpenResty's "Welcome to ...!", Apache httpd's "It works!" and the Debian/Ubuntu and
  Red Hat/CentOS test pages, IIS's start page, Caddy's, cPanel's and Plesk's default pages),
  and a site builder's page for a domain not yet connected to a site (Wix, GoDaddy's
  "Future home of something quite cool"). Each is the whole heading or title of the page, or
  the template's fixed asset (IIS's ``iisstart.png``).
- ``HOST_NOTICES`` (interstitial): the host's notice in place of a site it stopped serving:
  cPanel's suspended-account page, CloudLinux/LiteSpeed's "Resource Limit Is Reached" (HTTP
  508) and the "Bandwidth Limit Exceeded" page (509) of shared hosts, Shopify's page for a
  shop that is closed.

Each is gated as a wall is (``block``: a page that is the notice and nothing else; a
tutorial quoting "Welcome to nginx!" has its text around it), and the headings must fill the
heading: "It works! A review of..." is a title.

Invariants: data only; lower case; every entry names its vendor and evidence.
"""

from __future__ import annotations

from readreceipt.reading.tables.entries import Entry, lit, rx

__all__ = ["HOST_NOTICES", "PLACEHOLDERS", "SHARED_HOSTS"]

#: Shared platforms' hosts, under which anyone's files are served (each is in the private
#: section of the Public Suffix List, publicsuffix.org, which lists exactly such suffixes:
#: cloud storage buckets, CDNs' and app platforms' customer hosts). A page on one links
#: wherever its owner's site is, so the host-page rule (reading/hostpage.py) does not read
#: it. (A platform's own pages link to the platform under its own name, ``github.io`` and
#: ``github.com``: the rule counts those as the site's.)
SHARED_HOSTS = frozenset({
    "amazonaws.com", "cloudfront.net", "azureedge.net", "windows.net",
    "azurewebsites.net", "azurestaticapps.net", "googleapis.com", "googleusercontent.com",
    "appspot.com", "web.app", "firebaseapp.com", "akamaized.net", "akamaihd.net",
    "edgesuite.net", "fastly.net", "b-cdn.net", "r2.dev", "pages.dev",
    "workers.dev", "netlify.app", "vercel.app", "herokuapp.com", "onrender.com", "fly.dev",
    "github.io", "gitlab.io", "glitch.me", "repl.co", "digitaloceanspaces.com",
})

_PK = "parked"
_IN = "interstitial"
_DEFAULT = "a web server's default page: the address leads to no site"
_UNCONNECTED = "a site builder's page for a domain connected to no site"
_HOSTED = "the host's notice: it does not serve this site now"


def _whole(kind: str, heading: str, name: str, vendor: str, what: str, ev: str) -> Entry:
    """The template's heading as the page's whole heading or title (a mark beside it)."""
    return rx(kind, "heading", rf"^\W{{0,3}}{heading}\W{{0,3}}$", name, vendor=vendor,
              what=what, ev=ev)


PLACEHOLDERS: tuple[Entry, ...] = (
    _whole(_PK, r"welcome to nginx", "nginx's default page", "nginx", _DEFAULT,
           "nginx's html/index.html ('Welcome to nginx!')"),
    _whole(_PK, r"welcome to openresty", "OpenResty's default page", "OpenResty", _DEFAULT,
           "OpenResty's default index.html"),
    _whole(_PK, r"it works", "Apache httpd's default page", "Apache httpd", _DEFAULT,
           "httpd's docs/docroot/index.html ('It works!')"),
    _whole(_PK, r"apache2? (ubuntu|debian) default page(: it works)?",
           "Debian's and Ubuntu's Apache default page", "Apache httpd (Debian)", _DEFAULT,
           "Debian's apache2 package index.html"),
    _whole(_PK, r"(test page for the apache http server( on [a-z ]{1,40})?|apache http server "
                r"test page( powered by [a-z ]{1,40})?)", "the Apache test page",
           "Apache httpd (Red Hat)", _DEFAULT, "Red Hat's and CentOS's httpd welcome page"),
    _whole(_PK, r"iis windows( server)?|iis ?\d{1,2}(\.\d)?|microsoft internet information "
           r"services( \d{1,2}(\.\d)?)?",
           "IIS's start page", "IIS", _DEFAULT, "IIS's iisstart.htm title"),
    lit(_PK, "markup", "iisstart.png", name="IIS's start page", vendor="IIS", what=_DEFAULT,
        ev="IIS's iisstart.htm image", gate="bare"),
    _whole(_PK, r"caddy works|congratulations! your web server is working",
           "Caddy's default page", "Caddy", _DEFAULT, "Caddy's welcome page"),
    _whole(_PK, r"default web site page", "cPanel's default page", "cPanel", _DEFAULT,
           "cPanel's defaultwebpage.cgi title"),
    _whole(_PK, r"domain default page", "Plesk's default page", "Plesk", _DEFAULT,
           "Plesk's default domain page title"),
    rx(_PK, "text", r"this domain (is not|isn't) (yet )?connected to a website( yet)?",
       "a domain connected to no site", vendor="Wix", what=_UNCONNECTED,
       ev="Wix's page for a domain pointed at it with no site"),
    rx(_PK, "text", r"future home of something quite cool", "GoDaddy's placeholder page",
       vendor="GoDaddy", what=_UNCONNECTED, ev="GoDaddy's 'Future home of something quite "
       "cool' placeholder"),
)

HOST_NOTICES: tuple[Entry, ...] = (
    lit(_IN, "markup", "/cgi-sys/suspendedpage.cgi", name="cPanel's suspended-account page",
        vendor="cPanel", what=_HOSTED, ev="cPanel's suspendedpage.cgi"),
    rx(_IN, "text", r"this account has been suspended", "cPanel's suspended-account page",
       vendor="cPanel", what=_HOSTED, ev="cPanel's suspendedpage.cgi text"),
    _whole(_IN, r"(508 )?resource limit is reached", "the resource-limit page",
           "CloudLinux / LiteSpeed", _HOSTED, "CloudLinux LVE's and LiteSpeed's 508 page"),
    rx(_IN, "text", r"temporarily unable to service your request as it exceeded (the )?"
       r"resource limit", "the resource-limit page", vendor="CloudLinux / LiteSpeed",
       what=_HOSTED, ev="CloudLinux LVE's and LiteSpeed's 508 page text"),
    _whole(_IN, r"(509 )?bandwidth limit exceeded", "the bandwidth-limit page",
           "shared hosting (cPanel, Apache)", _HOSTED, "the 509 page of shared hosts"),
    rx(_IN, "text", r"this (shop|store) is (currently )?unavailable", "a closed shop's page",
       vendor="Shopify", what=_HOSTED, ev="Shopify's page for a closed or frozen shop"),
)
