"""A PDF's text read by pdfium in a process of its own, under a memory and a time limit.

pdfium builds every object of a page's content stream when the page loads, and its text page
again, whatever the bytes: one page of four million tiny text runs (a 109 KB file) took
3.1 GiB and 20 s, and at the 10 MiB size cap that shape would need hundreds of GiB, so the
capture (or the MCP server, or the hook's worker running it) was killed by the system with
nothing recorded. Neither cost can be bounded from Python inside pdfium's calls, so the
reading runs in a child process (this module, ``python -m readreceipt.reading.pdfchild``),
which sets its own address-space limit (:data:`MAX_MEMORY`) before loading pdfium and is
given at most the capture's time left: a child that dies or overruns leaves the extraction
``pdf_too_costly``, and the capture is recorded (UNKNOWN) with its bytes.

Protocol: the PDF on standard input; on standard output one JSON object ``{"text",
"title", "partial", "error"}`` as :func:`readreceipt.reading.extract.read_pdf_here`
returns them.

Invariants: the parent never raises for what the child does; the child reads nothing but
its standard input and writes nothing but its standard output.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys

log = logging.getLogger(__name__)

#: The most address space the child may take: pdfium's parse of a real PDF of the size cap
#: (10 MiB) stays far under it (the corpora's PDFs: under 200 MiB), and a page of millions of
#: tiny objects reaches it long before it takes the machine.
MAX_MEMORY = 2 * 1024 ** 3
#: The longest a PDF's reading may take when the caller gives no time.
DEFAULT_SECONDS = 30.0


def read_pdf(body: bytes, seconds: float | None = None) -> dict[str, object]:
    """The child's answer for ``body``; ``{"error": "pdf_too_costly"}`` when it overran its
    time or memory or died, ``{"error": "pdf_unreadable"}`` when it could not be started."""
    limit = max(1.0, seconds if seconds is not None else DEFAULT_SECONDS)
    try:
        done = subprocess.run([sys.executable, "-m", "readreceipt.reading.pdfchild"],
                              input=body, capture_output=True, timeout=limit, check=False)
    except subprocess.TimeoutExpired:
        log.info("the PDF's text took more than %g s to read; not read", limit)
        return {"error": "pdf_too_costly", "seconds": limit}
    except OSError as exc:
        log.warning("the PDF reader could not be started (%s)", exc)
        return {"error": "pdf_unreadable"}
    if done.returncode != 0:
        log.info("the PDF reader ended with %s; the PDF's text is not read", done.returncode)
        return {"error": "pdf_too_costly"}
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        return {"error": "pdf_too_costly"}
    return answer if isinstance(answer, dict) else {"error": "pdf_too_costly"}


def _limit_memory() -> None:
    """The child's own address-space limit, where the system has one to set."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MAX_MEMORY, MAX_MEMORY))
    except (ImportError, ValueError, OSError) as exc:  # no RLIMIT_AS here: the time bounds it
        log.info("the PDF reader's memory is not limited here (%s)", exc)


def _main() -> int:
    _limit_memory()
    from readreceipt.reading.extract import read_pdf_here

    body = sys.stdin.buffer.read()
    text, title, partial, error = read_pdf_here(body)
    sys.stdout.write(json.dumps({"text": text, "title": title, "partial": partial,
                                 "error": error}))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
