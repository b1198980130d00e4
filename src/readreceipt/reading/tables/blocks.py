"""Block pages: what a web filter, an ISP or a regulator serves in place of a page it refuses.

A block page is not the page asked for and says nothing of it; it is ``wall:interstitial``.
Three kinds of evidence, strongest first:

- a filtering product's own markup: the addresses its block page loads or links to (its
  block server's path, its support or re-categorisation site), the same on every network
  that runs it (``vendor``);
- a regulator's own register, which national block pages link to (``vendor``: the
  authority's page template, in whatever language the ISP dresses it);
- the product's signature line ("Powered by FortiGuard", "Blocked by ContentKeeper") or a
  court order named as the reason *this* address is blocked (``wording``, English: the
  products ship their block pages so; court-ordered block notices of UK and Canadian ISPs).

The products and hosts are those the censorship-measurement projects document as block-page
fingerprints (ooni/blocking-fingerprints, scopes ``prod`` and ``nat``; citizenlab's
filtering annotations): the names and hosts are written here, no pattern of theirs is copied.
Every entry is gated as a wall is (a page that is the block and nothing else: ``block``),
so an article about a filter, or a news brief about a court order, keeps its text.

Invariants: data only; lower case; every entry names its vendor or authority and evidence.
"""

from __future__ import annotations

from readreceipt.reading.tables.entries import Entry, alt, lit, rx

__all__ = ["BLOCK_BY_ADDRESS", "BLOCK_PAGES", "FILTER_PRODUCTS"]

_IN = "interstitial"
_WHAT = "a block page: a web filter, an ISP or a regulator refused the page"
_OONI = "ooni/blocking-fingerprints lists it as a block-page fingerprint (scope {})"


def _host(s: str, vendor: str, scope: str = "prod") -> Entry:
    return lit(_IN, "markup", s, vendor=vendor, what=_WHAT, ev=_OONI.format(scope),
               name=f"{vendor}'s block page ({s})")


#: Filtering products, as their block pages name them (the signature line's words).
FILTER_PRODUCTS = (
    "fortiguard", "fortigate", "fortinet", "zscaler", "contentkeeper", "kerio control",
    "netsweeper", "sonicwall", "websense", "forcepoint", "barracuda", "cyberoam", "watchguard",
    "lightspeed systems", "securly", "goguardian", "iboss", "smoothwall", "untangle",
    "squidguard", "pi-hole", "adguard", "nextdns", "cisco umbrella", "opendns",
    "mcafee web gateway", "sophos", "palo alto networks", "check point usercheck", "blue coat",
    "trend micro", "safedns", "dnsfilter", "cleanbrowsing", "webtitan", "juniper web filtering",
    "cisco meraki", "iserv", "olfeo",
)

_HOSTS_AND_PATHS: tuple[Entry, ...] = (
    # Products' block servers and support sites.
    _host("/xx/yy/zz/ci/mgpghgpgpfghcdpfggogfgeh", "Fortinet FortiGuard"),
    _host("block.opendns.com", "Cisco Umbrella (OpenDNS)"),
    _host("phish.opendns.com", "Cisco Umbrella (OpenDNS)"),
    _host("malware.opendns.com", "Cisco Umbrella (OpenDNS)"),
    _host("notify.bluecoat.com", "Blue Coat"),
    _host("/cgi-bin/blockpage.cgi", "Forcepoint (Websense)"),
    _host("/cgi-bin/block_message.cgi", "Forcepoint (Websense)"),
    _host("/webadmin/deny/", "Netsweeper"),
    _host("poweredbynetsweeper", "Netsweeper"),
    _host("cfssupport.sonicwall.com", "SonicWall"),
    _host("stylesheet for squid error pages", "Squid"),
    _host("pi-hole: a black hole for internet advertisements", "Pi-hole"),
    _host("blockpage-cdn.safedns.com", "SafeDNS"),
    _host("blocked.netalerts.io", "NetAlerts"),
    _host("error.etp.akamai.com", "Akamai Enterprise Threat Protector"),
    # Microsoft's office proxies (ISA Server, Forefront TMG): the error template's sentence
    # naming the product and what it did, the same on every network that runs one
    # (bench/devset3_labels.tsv en_isaerror_01: "Forefront TMG denied the specified Uniform
    # Resource Locator (URL)", error 12202/12232 pages).
    rx(_IN, "text", r"\b(forefront tmg|isa server) denied the specified uniform resource "
        r"locator", "Microsoft ISA Server's or Forefront TMG's block page",
        vendor="Microsoft ISA Server / Forefront TMG", what=_WHAT,
        ev="the product's error template (its 'denied the specified Uniform Resource "
           "Locator' sentence)"),
    # Regulators' registers and national block templates.
    _host("eais.rkn.gov.ru", "Roskomnadzor (RU)", "nat"),
    _host("blocklist.rkn.gov.ru", "Roskomnadzor (RU)", "nat"),
    _host("trustpositif", "Kominfo TrustPositif (ID)", "nat"),
    _host("internetpositif", "Kominfo Internet Positif (ID)", "nat"),
    _host("internet-positif.", "Kominfo Internet Positif (ID)", "nat"),
    _host("warning.or.kr", "KCSC (KR)", "nat"),
    _host("peyvandha.ir", "Iran's national filter (IR)", "nat"),
    _host("10.10.34.34", "Iran's national filter (IR)", "nat"),
    _host("forbidden-access-black-list", "Hellenic Gaming Commission (GR)", "nat"),
    _host("hazard.mf.gov.pl", "Polish Ministry of Finance gambling register (PL)", "nat"),
    _host("cuii.info", "CUII (DE)", "nat"),
    _host("page-blocage-terrorisme", "French Ministry of the Interior (FR)", "nat"),
    # A page that only sends the reader on to a block server: a refresh, a script's redirect
    # or a frame whose address names the block as a whole host label or path segment (ISPs'
    # block hosts and paths: "blocked.<isp>", "block.<isp>", "/blocked/", "warning.<isp>",
    # "/restricted-content"; a post's slug "/blocking-out-time-for-writing/" is not), on a
    # page with nothing to read of its own.
    rx(_IN, "markup", r"(?:http-equiv=[\"']?refresh[^<>]{0,200}?url=|location(?:\.href)?\s{0,3}="
        r"\s{0,3}[\"']|location\.(?:replace|assign)\([\"']|<iframe\b[^<>]{0,200}?\bsrc=[\"']?)"
        r"[^\"'\s>]{0,200}?[./](?:block(?:ed|ing|page)?|blocklist|blacklist|deny|denied|"
        r"restricted(?:-content)?|forbidden|warning|censored|webfilter|urlfilter)[./?=&#\"']",
        "a page that sends the reader to a block server", what=_WHAT, gate="bare",
        evidence="structure", ev=_OONI.format("isp") + ": ISPs' block hosts and paths reached "
                                                     "by a refresh, a redirect or a frame"),
    # The same by a server named only by its IP address: a network's middlebox (an ISP's or an
    # office's filter, a hotel's portal) answers in the site's place and sends the reader to
    # itself; a site's own page names its servers by name. After the sign-in table
    # (walls.py's BLOCK_BY_ADDRESS): a portal that says it is opening a sign-in page is that.
)
BLOCK_BY_ADDRESS: tuple[Entry, ...] = (
    # A script's redirect counts only as the script's first statement: a page that does
    # nothing but send the reader on (a single-page app that builds its article and then
    # navigates somewhere is a shell; tests/test_render.py's navigation test).
    rx(_IN, "markup", r"(?:http-equiv=[\"']?refresh[^<>]{0,200}?url=|<script\b[^<>]{0,200}>\s{0,40}"
        r"(?:(?:window|top|self|document)\.)?location(?:\.href\s{0,3}=\s{0,3}[\"']|\s{0,3}="
        r"\s{0,3}[\"']|\.(?:replace|assign)\([\"'])|<i?frame\b[^<>]{0,200}?\bsrc=[\"']?)"
        r"[\"']?https?://\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?::\d{1,5})?[/?\"'\s>]",
        "a page that sends the reader to a server named by its IP address", what=_WHAT,
        gate="bare", anchor="://", evidence="structure",
        ev="networks' block pages and captive portals redirect to or frame their own server by "
           "its address (walls/login/captive_portal_* redirects to 10.254.254.78; ISPs' frame "
           "pages)"),
)
_REST: tuple[Entry, ...] = (
    # A product's signature line ("Powered by FortiGuard", "Blocked by ContentKeeper",
    # "Internet Security by Zscaler"), or the product named in the page's own title with
    # what it did; an article about a product is longer than the gate.
    rx(_IN, "text", r"\b(blocked|powered|secured|protected|filtered|generated|denied|security)"
        r"( [a-z]{1,12}){0,2} by (the )?" + alt(*(p.replace(".", r"\.") for p in FILTER_PRODUCTS))
        + r"\b", "blocked by a web filter", what=_WHAT, evidence="wording",
        ev=_OONI.format("prod") + ": products' signature lines"),
    rx(_IN, "heading", alt(*(p.replace(".", r"\.") for p in FILTER_PRODUCTS))
        + r"\b[^|]{0,60}\b(block(ed|ing)?|denied|violation|restricted|notification|"
          r"filter(ing|ed)?|policy)\b", "a web filter's block page title", what=_WHAT,
        evidence="wording", ev=_OONI.format("prod") + ": products' page titles"),
    # A court order named as the reason this very address is blocked (UK and Canadian ISPs'
    # court-order notices): said of "this site", "the location you attempted to reach".
    rx(_IN, "text", alt(
        r"(this|the requested) (site|website|web site|page|url|domain|location|address) "
        r"(has been|is|was) (blocked|disabled|restricted)[^.]{0,80}\b(court|order of|"
        r"pursuant to|in accordance with)",
        r"(location|site|page) you (have )?(attempted|tried) to (reach|access|visit)[^.]{0,40} "
        r"(has been|is|was) (blocked|disabled|restricted)[^.]{0,80}\b(court|order|law)"),
        "blocked by a court order", what=_WHAT, evidence="wording",
        ev=_OONI.format("isp") + ": court-order notices of UK and Canadian ISPs"),
)

BLOCK_PAGES: tuple[Entry, ...] = _HOSTS_AND_PATHS + _REST
