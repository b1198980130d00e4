"""Evidence carried elsewhere: WARC 1.1 files and WACZ packages of a library.

    selection  which retrievals (URL pattern, date, session), oldest first
    warc       one retrieval -> request, response or revisit, conversion and metadata records
    provenance the JSON a metadata record holds (record, answer checks, flags)
    cdxj       the sorted index replay tools look captures up in (SURT keys)
    wacz       the ZIP package ReplayWeb.page and pywb load
    run        export_warc / export_wacz: the above, in order, written atomically

Nothing here fetches anything: an export is made only of what the library already holds.
May import: ``errors``, ``progress``, ``store`` (what it reads) and the transport's request
constants (``fetching.transport``), to rebuild the request readreceipt sent. Never the
pipeline or an adapter (docs/design.md, "Import directions").
"""

from __future__ import annotations

from readreceipt.export.run import ExportResult, export_wacz, export_warc
from readreceipt.export.selection import Selection, parse_since

__all__ = ["ExportResult", "Selection", "export_wacz", "export_warc", "parse_since"]
