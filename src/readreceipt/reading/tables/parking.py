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

__all__ = ["MARKETPLACES", "PARKING_SERVICES"]

#: Marketplaces and brokers: a link or form here offering the page's own domain is a sale.
MARKETPLACES = frozenset({
    "sedo.com", "afternic.com", "dan.com", "hugedomains.com", "atom.com", "squadhelp.com",
    "undeveloped.com", "domainmarket.com", "buydomains.com", "brandbucket.com", "efty.com",
    "sav.com", "spaceship.com", "porkbun.com", "epik.com", "dynadot.com", "namecheap.com",
    "godaddy.com", "uniregistry.com", "domainagents.com", "flippa.com", "namebright.com",
    "domainnameshop.com", "escrow.com", "domaining.com", "perfectdomain.com", "saw.com",
})

#: Parking services: their landing host or script on a page makes it a parking page.
PARKING_SERVICES = frozenset({
    "sedoparking.com", "parkingcrew.net", "bodis.com", "above.com", "parklogic.com",
    "domainparking.ru", "parked.com", "voodoo.com", "dsparking.com", "parkingpage.namecheap.com",
    "park.io", "smartname.com", "trafficz.com", "fabulous.com", "internettraffic.com",
})
