"""Domain marketplaces, brokers and parking services: the hosts a parked domain's page links
to, posts its offer form to, or sends its visitors to (reading/parking.py).

Each host is a business whose own pages say what it is: a marketplace that lists domains for
sale (its listing address carries the domain's name: ``sedo.com/search/details/?domain=...``,
``afternic.com/forsale/...``, ``dan.com/buy-domain/...``), or a parking service whose script or
landing host serves a for-sale or advertising page in place of a site. The list names hosts,
never a parked domain; it is the shape of the page (where its links and forms go), not its
words, that decides, so it holds for a sale page of any length and language.
"""

from __future__ import annotations

__all__ = ["BROKERS", "DOMAIN_FIELDS", "FILE_SUFFIXES", "MARKETPLACES", "OFFER_FIELDS",
           "PARKING_SERVICES"]

#: Marketplaces and brokers: a link or form here offering the page's own domain is a sale.
MARKETPLACES = frozenset({
    "sedo.com", "afternic.com", "dan.com", "hugedomains.com", "atom.com", "squadhelp.com",
    "undeveloped.com", "domainmarket.com", "buydomains.com", "brandbucket.com", "efty.com",
    "sav.com", "spaceship.com", "porkbun.com", "epik.com", "dynadot.com", "namecheap.com",
    "godaddy.com", "uniregistry.com", "domainagents.com", "flippa.com", "namebright.com",
    "domainnameshop.com", "escrow.com", "domaining.com", "perfectdomain.com", "saw.com",
    # Aftermarkets outside the English-speaking market and drop-catch auctions, each listing a
    # domain under its name: RU-CENTER's shop (``nic.ru/en/shop/lot/<domain>/``, linked by a
    # sale page in bench/devset3_labels.tsv, en_parked_long_01), REG.RU's
    # (``reg.ru/domain/shop/lot/<domain>``), AfterMarket.pl's (``aftermarket.pl/domena/<domain>``),
    # NameJet's, SnapNames' and DropCatch's auctions (``namejet.com/Pages/Auctions/...``).
    "nic.ru", "reg.ru", "aftermarket.pl", "namejet.com", "snapnames.com", "dropcatch.com",
})

#: Parking services: their landing host or script on a page makes it a parking page.
PARKING_SERVICES = frozenset({
    "sedoparking.com", "parkingcrew.net", "bodis.com", "above.com", "parklogic.com",
    "domainparking.ru", "parked.com", "voodoo.com", "dsparking.com", "parkingpage.namecheap.com",
    "park.io", "smartname.com", "trafficz.com", "fabulous.com", "internettraffic.com",
})

#: The marketplaces and brokers among them that do nothing but sell domains (not a registrar
#: or host, whose name a small business's page carries in its footer: GoDaddy's, Namecheap's
#: site builders; not an escrow or a site marketplace): an address of one on a short page
#: titled with a domain name is that domain's sale page (bench/devset3_labels.tsv
#: en_parked_01: Saw.com's lander reports its visits to market.saw.com).
BROKERS = frozenset({
    "sedo.com", "afternic.com", "dan.com", "hugedomains.com", "atom.com", "squadhelp.com",
    "undeveloped.com", "domainmarket.com", "buydomains.com", "brandbucket.com", "efty.com",
    "uniregistry.com", "domainagents.com", "perfectdomain.com", "saw.com",
})

#: The last part of a file's name in an address, which a domain's never is: a link whose path
#: is one name ending so (``/jquery.min.js``, ``/index.php``) is a file, not a domain on offer.
#: (``.pl`` stays a domain: a shop's list of .pl names, not of Perl scripts.)
FILE_SUFFIXES = frozenset({
    "html", "htm", "shtml", "xhtml", "php", "asp", "aspx", "jsp", "cgi", "js", "mjs", "css",
    "json", "xml", "txt", "md", "pdf", "png", "jpg", "jpeg", "gif", "svg", "webp", "ico",
    "zip", "gz", "tgz", "rar", "7z", "mp3", "mp4", "webm", "mov", "avi", "rss", "atom", "py",
    "rb", "sh", "exe", "dmg", "apk", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "csv",
    "epub", "woff", "woff2", "ttf", "map", "wasm", "iso", "bin",
})


#: The names a sale page's inquiry form gives the amount the buyer offers (its ``name`` or
#: ``id``, or a word of the form's own ``id``: ``offer-form``, ``main-offer-form``). Markup
#: identifiers, the same whatever language the page is written in: the for-sale templates of
#: bench/devset3_labels.tsv (``offer``, ``budget``; xiao147258/domain-sale,
#: humanear/domain-sale-page, saroz/domain-for-sale, robtar/domain-for-sale). Not ``price``
#: or ``amount``, which a shop's or a donation form's filters and totals are named, nor
#: ``bid``, an auction site's (whose logo heading may be its own domain name).
OFFER_FIELDS = frozenset({"offer", "offers", "budget", "offerprice", "offer_price",
                          "offer_amount", "offeramount", "youroffer", "your_offer"})

#: The name of a form's hidden field that carries the domain the inquiry is about (the
#: templates write the host they are served at into it: ``<input type="hidden" name="domain">``).
DOMAIN_FIELDS = frozenset({"domain", "domainname", "domain_name", "domain-name"})
