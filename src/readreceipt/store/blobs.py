"""Content-addressed storage of bytes by SHA-256.

:class:`BlobStore` is the interface the pipeline uses; :class:`FileBlobStore` keeps each blob
at ``<root>/<first two hex>/<digest>``. An object-storage implementation (S3-compatible) only
has to provide the same five methods.

Invariants: a blob is written once and never overwritten; ``put`` returns the digest of
exactly the bytes stored; ``get`` of a missing digest raises KeyError.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from readreceipt.store.atomic import write_once

_DIGEST = re.compile(r"^[0-9a-f]{64}$")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class BlobStore(Protocol):
    def put(self, data: bytes) -> str: ...
    def get(self, digest: str) -> bytes: ...
    def has(self, digest: str) -> bool: ...
    def delete(self, digest: str) -> bool: ...
    def digests(self) -> Iterator[str]: ...


class FileBlobStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, digest: str) -> Path:
        if not _DIGEST.match(digest):
            raise KeyError(digest)
        return self.root / digest[:2] / digest

    def put(self, data: bytes) -> str:
        digest = sha256_hex(data)
        write_once(self.path(digest), data)
        return digest

    def get(self, digest: str) -> bytes:
        try:
            return self.path(digest).read_bytes()
        except FileNotFoundError:
            raise KeyError(digest) from None

    def has(self, digest: str) -> bool:
        try:
            return self.path(digest).is_file()
        except KeyError:
            return False

    def delete(self, digest: str) -> bool:
        try:
            self.path(digest).unlink()
            return True
        except (FileNotFoundError, KeyError):
            return False

    def digests(self) -> Iterator[str]:
        if not self.root.is_dir():
            return
        for sub in sorted(self.root.iterdir()):
            if sub.is_dir() and len(sub.name) == 2:
                for item in sorted(sub.iterdir()):
                    if _DIGEST.match(item.name):
                        yield item.name

    def size(self, digest: str) -> int:
        with contextlib.suppress(FileNotFoundError, KeyError):
            return self.path(digest).stat().st_size
        return 0
