"""Vendors' and platforms' own evidence: the response headers, cookies, scripts, widgets and
page templates of bot-check, firewall and CDN vendors, the same on every site they front.

Kept apart from the words of walls.py because it is not wording: a vendor's header or the
fixed markup of its challenge page says what the response is whatever language the site is
written in. Three strengths, as in the rest of the tables (entries.py's gates):

- ``HEADER_RULES``: headers a vendor sets only on a challenge (``cf-mitigated: challenge``), or
  on every response it fronts (only an empty page is then its challenge);
- ``VENDOR_HINTS``: headers and cookies that say who fronts the site; they name the vendor of
  a wall other evidence found and never call one (``_abck``, ``datadome``, ``incap_ses_``
  cookies ride on ordinary pages: microlinkhq/is-antibot's own fixtures show ``_abck`` on a
  newsletter form);
- ``VENDOR_PAGES``: markers of a vendor's own challenge or error page that the rest of the
  tables lacked: four taken from microlinkhq's provider list (is-antibot, MIT) for vendors
  this table did not know (Hostinger, Amazon's captcha page, FullStory's challenge,
  CloudFront's error page), and Cloudflare's own error and block template.

Measured against that list (bench/vendors.py, on 53 bot checks and 634 clean pages of the
corpus, tests/pages and bench/heldout.py's sets): this table's vendor evidence alone found 40
of the 53 (all evidence 53), with no clean page flagged; is-antibot 0.1.1 (PyPI) found 16 and
flagged 19 clean pages (a cookie or a vendor's name in an ordinary page: ``_abck``,
``incapsula``, ``window._pxAppId``), is-antibot 2.5.15 (npm) found 5 and flagged none (most of
its rules need the live response's headers and cookies). No bot check the list found was
missed here, so its entries that fire on ordinary pages are not taken; of the four above,
only FullStory's is exercised by a page since (a saved "Client Challenge" page of the
development set, bench/devset3_labels.tsv), and each is kept at the gates of a vendor's own
page.

Invariants: lower case; every entry names its vendor and its evidence.
"""

from __future__ import annotations

from readreceipt.reading.tables.entries import Entry, HeaderRule, lit

__all__ = ["BLOCK_TEMPLATE_MAX_LINKS", "BLOCK_TEMPLATE_MAX_PAGE_LETTERS", "CAPTCHA_WIDGET_TAGS",
           "CLIENT_ADDRESS", "EDGE_REFERENCE", "HEADER_RULES", "REQUEST_ID", "VENDOR_HINTS",
           "VENDOR_PAGES"]

_MICROLINK = "microlinkhq/is-antibot providers list (MIT); no page of bench/vendors.py carries it"

# --- headers ------------------------------------------------------------------------------

_CH = "challenge"
HEADER_RULES: tuple[HeaderRule, ...] = (
    HeaderRule(_CH, "cf-mitigated", "challenge", "Cloudflare", "block",
               "Cloudflare sets it only on responses that are a challenge"),
    HeaderRule(_CH, "x-amzn-waf-action", "captcha", "AWS WAF", "block", "AWS WAF CAPTCHA"),
    HeaderRule(_CH, "x-amzn-waf-action", "challenge", "AWS WAF", "block", "AWS WAF challenge"),
    HeaderRule(_CH, "x-vercel-mitigated", "challenge", "Vercel", "block", "Vercel challenge"),
    # These mark every response the vendor fronts: only an empty page is its challenge.
    HeaderRule(_CH, "x-datadome", "protected", "DataDome", "empty", "DataDome"),
    HeaderRule(_CH, "server", "ddos-guard", "DDoS-Guard", "empty", "DDoS-Guard"),
    HeaderRule(_CH, "x-kasada", "", "Kasada", "empty", "Kasada"),
)

# (header, substring of its value, vendor): who fronts the site. Used to name the vendor of
# a wall a phrase found, never to call a wall.
VENDOR_HINTS: tuple[tuple[str, str, str], ...] = (
    ("cf-ray", "", "Cloudflare"), ("server", "cloudflare", "Cloudflare"),
    ("server", "akamaighost", "Akamai"), ("akamai-grn", "", "Akamai"),
    ("x-iinfo", "", "Imperva"), ("x-cdn", "incapsula", "Imperva"),
    ("x-sucuri-id", "", "Sucuri"), ("server", "sucuri", "Sucuri"),
    ("x-datadome", "", "DataDome"), ("server", "ddos-guard", "DDoS-Guard"),
    ("x-amzn-waf-action", "", "AWS WAF"),
    ("set-cookie", "__cf_bm=", "Cloudflare"), ("set-cookie", "cf_clearance=", "Cloudflare"),
    ("set-cookie", "_abck=", "Akamai"), ("set-cookie", "datadome=", "DataDome"),
    ("set-cookie", "incap_ses_", "Imperva"), ("set-cookie", "visid_incap_", "Imperva"),
    ("set-cookie", "_px3=", "PerimeterX (HUMAN)"), ("set-cookie", "rbzid=", "Reblaze"),
    ("set-cookie", "aws-waf-token=", "AWS WAF"), ("set-cookie", "anubis-", "Anubis"),
)

# --- vendors' own pages ---------------------------------------------------------------------

VENDOR_PAGES: tuple[Entry, ...] = (
    lit(_CH, "markup", "/hcdn-cgi/jschallenge", vendor="Hostinger",
         name="Hostinger's challenge script", ev=_MICROLINK),
    lit(_CH, "markup", "csm-captcha-instrumentation", vendor="Amazon",
         name="Amazon's captcha page", ev=_MICROLINK),
    # (Its page says only that JavaScript is off and "a required part of this site couldn't
    # load": a page as short as a wall's, not an empty one; seen on a public repository's
    # saved "Client Challenge" page of the development set, bench/devset3_labels.tsv.)
    lit(_CH, "markup", "_fs-ch-", vendor="FullStory",
         name="FullStory's client challenge", ev=_MICROLINK),
    # The CDN's own error and block template, in whatever language it is served: never the
    # site's page (its 5xx pages are FAILED by their status anyway). The same id sits in an
    # inline script of full articles (walls2/hard_negative/handelsblatt_*): only a page as
    # short as a wall's.
    lit(_CH, "markup", 'id="cf-error-details"', vendor="Cloudflare",
         name="Cloudflare's error and block page template",
         ev="walls/challenge/cf_access_denied_*, cf_attention_required_*: the template's ids"),
    lit(_CH, "text", "generated by cloudfront (cloudfront)", vendor="Amazon CloudFront",
         name="CloudFront's error page", ev=_MICROLINK + " (its 'cloudfront' entry)"),
    # Cloudflare's custom pages: a site's own page that Cloudflare serves in place of its
    # challenge, with the token Cloudflare replaces by the challenge itself (Cloudflare's
    # custom-pages documentation names one token per page kind). A template carries the
    # token, in whatever language its words are (bench/devset6_labels.tsv: cfz_5s,
    # cfz_captcha, cfy_challenge, cfy_js_challenge, in Chinese and English). The 1000s and
    # 500s error boxes are not taken: the template projects put them on every page they
    # ship, their demo home page among them (hn_cfz_index).
    lit(_CH, "markup", "::captcha_box::", vendor="Cloudflare",
         name="Cloudflare's custom captcha page (its ::CAPTCHA_BOX:: token)",
         ev="Cloudflare custom pages; devset6 cfz_captcha, cfy_challenge"),
    # In-app firewalls' and security plugins' block pages, by the signature line their
    # templates end with: Datadog's tracing libraries serve one template when their firewall
    # blocks a request ("Security provided by Datadog", over a security response id:
    # DataDog/dd-trace-java's blocking/template.html, devset6 dd_block); Wordfence's older
    # block page explains itself to the site's admin at length (1,055 letters of main text,
    # devset6 wf_503), so its own closing sentence is let through a teaser's length.
    lit(_CH, "text", "security provided by datadog", vendor="Datadog",
         name="Datadog's in-app firewall block page",
         ev="DataDog/dd-trace-java blocking/template.html; devset6 dd_block"),
    lit(_CH, "text", "this response was generated by wordfence", vendor="Wordfence",
         gate="teaser", name="Wordfence's block page (its closing sentence)",
         ev="wp-plugins/wordfence lib/wf503.php; devset6 wf_503"),
    lit(_CH, "markup", "::im_under_attack_box::", vendor="Cloudflare",
         name="Cloudflare's custom 'I'm under attack' page (its ::IM_UNDER_ATTACK_BOX:: token)",
         ev="Cloudflare custom pages; devset6 cfz_5s, cfy_js_challenge"),
)

#: Akamai's edge reference, however the page labels it ("Reference #", "Reference ID:", "ID:"):
#: a one- or two-digit edge number, a hex request id, the Unix time, a hex suffix
#: (walls/challenge/akamai_access_denied_*: "Reference #18.<hex>.<time>.<hex>"; a development
#: set page, bench/devset3_labels.tsv: "Reference ID: 18...."). Akamai also stamps it on the
#: error pages of the sites it fronts (scrapy/protego's Halifax and Lloyds pages: "Sorry, an
#: error has occurred [Error: 1007 ID: 18....]"), so it names a bot check only on a short
#: page nothing else has named (fingerprint.py runs it after the error-page checks).
EDGE_REFERENCE = (r"(?<![\w.])\d{1,2}\.[0-9a-f]{6,8}\.1\d{9}\.[0-9a-f]{4,8}(?![\w.])", "Akamai")

#: Captcha widgets written as custom elements whose tag names no captcha (captcha.py finds the
#: others by the word in their id, class or name): ALTCHA's ``<altcha-widget>`` (its docs'
#: integration snippet; BunkerWeb's antibot/files/altcha.html) and Cap's ``<cap-widget>``
#: (tiagorangel1/cap's widget README and demo/; BunkerWeb's antibot/files/capjs.html). Inside
#: a form that is the page's main thing they are its captcha, as a named widget would be.
CAPTCHA_WIDGET_TAGS: tuple[str, ...] = ("altcha-widget", "cap-widget")

# --- a block template's shape -----------------------------------------------------------------

#: The shape every CDN's and firewall's block page has, whatever its vendor and language: the
#: reader's own address and a reference for the request, on a short page with nothing else
#: (Cloudflare's "Your IP ... Ray ID", Sucuri's "Your IP ... Block ID", F5's "support ID",
#: Imperva's incident id; the templates' placeholders for them: Cloudflare custom pages'
#: ``::CLIENT_IP::`` and ``::RAY_ID::``, bench/devset6_labels.tsv cfz_*, cfy_*). Structure,
#: not words: the address is an IPv4 or IPv6 address or a template placeholder named for it;
#: the reference a hexadecimal token of 16 to 40 characters mixing digits and letters, a run
#: of 15 to 20 digits, or a placeholder named ``...id``. Both must stand in the visible text
#: (fingerprint.py reads the page's whole text, its footer included: the templates put both
#: there).
CLIENT_ADDRESS = (
    r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
    r"(?![\w.])"
    r"|(?<![\w:])(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}(?![\w:])"
    r"|(?:::|\{\{ ?\.?|\$\{)(?:client_?ip|remote_?addr|visitor_?ip|user_?ip|ip_?address|ip)"
    r" ?(?:::|\}\}|\})"
)
REQUEST_ID = (
    r"(?<![\w-])(?=[0-9a-f]{0,39}[a-f])(?=[0-9a-f]{0,39}\d)[0-9a-f]{16,40}(?![\w-])"
    r"|(?<![\w.])\d{15,20}(?![\w.])"
    r"|(?:::|\{\{ ?\.?|\$\{)[a-z_]{0,20}id ?(?:::|\}\}|\})"
)
#: A block page is the refusal and nothing else: its whole visible text is short (the longest
#: here, yuna0x0's English Cloudflare build, 601 letters; ZiXia1's Chinese one 332) and it
#: links to almost nothing (the CDN's home, a support page; a site's page has menus).
BLOCK_TEMPLATE_MAX_PAGE_LETTERS = 1_200
BLOCK_TEMPLATE_MAX_LINKS = 4
