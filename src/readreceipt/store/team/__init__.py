"""The team library's back end: many machines, one evidence store.

``postgres.PostgresIndex`` (the index, its migrations in ``pgschema``), ``objects`` (blobs,
texts and records in an S3-compatible bucket), ``config`` (where a team library is named and
what secrets it may be handed) and ``push`` (a local library handed in). They speak the same
protocols as the local back end (:mod:`readreceipt.store.protocols`); psycopg and obstore are
imported only inside the functions that need them, so that a local library never pays for them.

This ``__init__`` imports nothing.
"""
