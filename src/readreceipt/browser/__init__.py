"""The browser: a JavaScript shell rendered in headless Chromium behind the address guard.

``render`` drives the browser; ``proxy`` is the loopback forward proxy every connection the
browser makes goes through, checked by the same guard as the transport; ``framing`` is that
proxy's bounded HTTP/1.1 message handling; ``checks`` holds the request filter and the
after-load checks that discard a rendering sent somewhere it may not go.

Only :mod:`readreceipt.pipeline` calls into this package, and only for a page judged a shell.
May import: ``errors``, ``fetching`` (the guard and URL policy) and ``reading`` (extraction of
the rendered DOM).
"""
