"""A local, read-only web viewer of a library: server-rendered HTML, no script, no build step.

    app    the WSGI app: routes, security headers, Host check; a server bound to 127.0.0.1
    pages  the retrievals, one retrieval with its quotations, a URL's history, the flags
    (a URL's history, its versions and the word diff between two: readreceipt.history)
    html   escaping by default: page content can only ever be text

Invariant: nothing captured can run in the viewer (see :mod:`readreceipt.viewer.app`).
May import: ``errors``, ``store`` (read only), ``history`` and ``reading.wording``; never the
pipeline or an adapter (docs/design.md, "Import directions").
"""

from __future__ import annotations

from readreceipt.viewer.app import Viewer, make_viewer_server

__all__ = ["Viewer", "make_viewer_server"]
