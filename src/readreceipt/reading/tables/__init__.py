"""The tables the content checks read: every list of words, markers, hosts and vendors in one
folder, each entry with the evidence behind it.

- ``entries.py``: the shape of an entry, and the kinds of evidence a rule can be
  (``EVIDENCE_KINDS``);
- ``vendors.py``: vendors' and platforms' own response headers, cookies, scripts, widgets
  and page templates; ``wafs.py``: web application firewalls' block pages, from wafw00f's
  maintained plugins;
- ``walls.py`` (bot checks) with ``access.py`` (sign-in walls, paywalls, consent walls,
  interstitials), ``notfound.py`` (not-found, search and parked pages), ``errors.py``
  (error and outage pages): words and markers written here from what pages show;
- ``vocabulary.py``: terms taken from maintained multilingual vocabularies (the translations
  of web frameworks', CMSs', proxies' and web servers' own pages: bench/vocabulary.py), with
  source and licence per entry; ``terms.py`` builds entries from them, ``notices.py`` the
  proxy-error, maintenance and suspended-account ones;
- ``parking.py``: domain marketplaces' and registrars' landing hosts;
- ``consent.py``: consent-management platforms' script hosts and dialog containers;
- ``blocks.py``: web filters' and regulators' block pages; ``outages.py``: server errors'
  status codes and maintenance screens by what builds them.

Invariants: data only (no page is read here); every entry names its evidence; words are
lower case, matched against folded text (entries.py).
"""
