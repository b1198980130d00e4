"""Reading: bytes to text, and whether that text is the page at all.

``extract`` turns bytes into text by what they are (HTML, PDF, JSON, plain text) and names the
extractor; ``fingerprint`` (with its table of evidence in ``walls``) recognises walls, shells,
soft 404s and thin pages; ``verdict`` combines the transport's signals, the extraction and the
fingerprint into RETRIEVED / FAILED / UNKNOWN with a reason; ``wording`` says a verdict in
words a person acts on.

Pure functions of their inputs: no network and no store. May import ``errors`` and the
fetching package's result types only.
"""
