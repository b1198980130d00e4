"""Fetching: may this URL be fetched, may it be fetched now, and fetch it safely.

The security boundary lives here. ``urlpolicy`` (with ``credentials``) decides whether a URL
may ever be fetched; ``addresses`` and ``netguard`` check every address a name resolves to and
connect only to a checked one; ``transport`` makes the request (redirects by hand, each hop
checked again, a size cap, one total deadline) and ``decoding`` undoes content-encoding within
that cap; ``headers`` decides which response headers may be written down; ``robots`` and
``politeness`` decide whether the request may be made now.

May import: ``errors`` and ``store`` (politeness state lives in the index). Never the reading,
quotes, browser or adapter packages.
"""
