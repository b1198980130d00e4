"""The team library's blobs, texts and records, as objects in an S3-compatible bucket.

Key layout, under the blobs URL's prefix, the local library's own::

    store/ab/<bytes_sha256>     the bytes as received        (ObjectBlobStore)
    text/cd/<sha256>            each extracted text          (ObjectBlobStore)
    records/<record_id>.yaml    one record per retrieval     (ObjectRecordStore)

A blob is written once, with a conditional put (``If-None-Match: *``): two writers of one
digest never overwrite each other, and the second is a no-op. A body larger than
:data:`HEAD_FIRST_BYTES` is looked for first, so a page fetched again unchanged is not sent
again. A new capture's record is written the same way, only where none is (two captures
that drew one record id never overwrite each other: :meth:`Library.save_new`); a record is
replaced only by ``forget`` and the agents' notes (an ordinary put: S3 makes it atomic).

Reads stream: :meth:`ObjectBlobStore.chunks` hands out the body a chunk at a time (verify
hashes it so), and :meth:`ObjectBlobStore.get` gathers those chunks into one buffer that
becomes the bytes returned, so a large body is never held twice.

The client is obstore (Rust's object_store): about 0.02 s and 9 MiB to import here, against
0.26 s and 26 MiB for boto3 (``bench/s3_clients.py``); the hook's worker imports it, and only
when the library is a team library. Errors become :class:`~readreceipt.errors.LibraryError`
(a missing object becomes KeyError, as the protocol says), in one line, without a secret.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from readreceipt.errors import LibraryError
from readreceipt.store.team.config import TeamConfig, s3_settings

if TYPE_CHECKING:
    from obstore.store import S3Store

_DIGEST = re.compile(r"^[0-9a-f]{64}$")
_RECORD_SUFFIX = ".yaml"
_S3_CODE = re.compile(r"<Code>([A-Za-z]+)</Code>")
#: A body larger than this is looked for (HEAD) before it is sent.
HEAD_FIRST_BYTES = 256 * 1024
#: Bytes asked of the store per chunk while streaming a body.
CHUNK_BYTES = 1024 * 1024


class Bucket:
    """One bucket and prefix, opened once and shared (the client is thread-safe)."""

    def __init__(self, config: TeamConfig) -> None:
        import obstore
        from obstore.store import S3Store

        self.obstore = obstore
        self.config = config
        settings = s3_settings()
        options: dict[str, Any] = {"region": settings.region}
        if settings.endpoint:
            options["endpoint"] = settings.endpoint
        if settings.access_key_id and settings.secret_access_key:
            options["access_key_id"] = settings.access_key_id
            options["secret_access_key"] = settings.secret_access_key
            if settings.session_token:
                options["session_token"] = settings.session_token
        self.store: S3Store = S3Store(
            config.bucket, prefix=config.prefix or None,
            client_options={"allow_http": settings.allow_http, "connect_timeout": "10s",
                            "timeout": "120s"},
            retry_config={"max_retries": 3, "backoff": {"init_backoff": timedelta(milliseconds=100),
                                                        "max_backoff": timedelta(seconds=5),
                                                        "base": 2.0},
                          "retry_timeout": timedelta(seconds=60)},
            **options)
        self.url = config.blobs_url.rstrip("/")

    def error(self, exc: Exception, doing: str, key: str) -> LibraryError:
        text = str(exc).split("\n", 1)[0]
        code = _S3_CODE.search(str(exc))
        if code:
            text = f"{code[1]} ({text.split(':', 1)[0]})"
        text = self.config.scrub(text)[:300]
        reason = "read_only" if code and code[1] == "AccessDenied" else "io"
        return LibraryError(f"the object store {self.url} failed while {doing} {key}: {text}",
                            reason=reason)

    def put_once(self, key: str, data: bytes) -> bool:
        """Write ``data`` at ``key`` unless an object is there; True if written here."""
        from obstore.exceptions import AlreadyExistsError

        try:
            # One request, never a multipart upload: only a single PUT carries the
            # condition (the body is already in memory, at most the size cap).
            self.obstore.put(self.store, key, data, mode="create", use_multipart=False)
            return True
        except AlreadyExistsError:
            return False
        except Exception as exc:
            raise self.error(exc, "writing", key) from None

    def put(self, key: str, data: bytes) -> None:
        try:
            self.obstore.put(self.store, key, data)
        except Exception as exc:
            raise self.error(exc, "writing", key) from None

    def chunks(self, key: str) -> Iterator[bytes]:
        try:
            result = self.obstore.get(self.store, key)
            stream = result.stream(min_chunk_size=CHUNK_BYTES)
        except FileNotFoundError as exc:
            # A missing bucket answers 404 as a missing object does; its body tells them
            # apart, and a bucket that is not there is no evidence that is gone.
            if "<Code>NoSuchBucket</Code>" in str(exc):
                raise self.error(exc, "reading", key) from None
            raise KeyError(key) from None
        except Exception as exc:
            raise self.error(exc, "reading", key) from None
        try:
            for chunk in stream:
                yield bytes(chunk)
        except Exception as exc:
            raise self.error(exc, "reading", key) from None

    def get(self, key: str) -> bytes:
        # BytesIO hands its own buffer out as the bytes when nothing else holds it: the body
        # is gathered once, chunk by chunk, and never copied whole.
        gathered = io.BytesIO()
        for chunk in self.chunks(key):
            gathered.write(chunk)
        return gathered.getvalue()

    def size(self, key: str) -> int | None:
        try:
            return int(self.obstore.head(self.store, key)["size"])
        except FileNotFoundError:
            return None
        except Exception as exc:
            raise self.error(exc, "looking for", key) from None

    def delete(self, key: str) -> None:
        try:
            self.obstore.delete(self.store, key)
        except FileNotFoundError:
            return
        except Exception as exc:
            raise self.error(exc, "deleting", key) from None

    def keys(self, folder: str) -> Iterator[str]:
        """Every key under ``folder/``, in order (S3 lists keys sorted)."""
        try:
            for batch in self.obstore.list(self.store, folder + "/", chunk_size=1000):
                for meta in batch:
                    yield str(meta["path"])
        except Exception as exc:
            raise self.error(exc, "listing", folder + "/") from None

    def location(self, key: str) -> str:
        return f"{self.url}/{key}"


class ObjectBlobStore:
    """Blobs under their SHA-256 at ``<folder>/<first two hex>/<digest>``
    (:class:`~readreceipt.store.protocols.BlobStore`)."""

    def __init__(self, bucket: Bucket, folder: str) -> None:
        self.bucket = bucket
        self.folder = folder

    def key(self, digest: str) -> str:
        if not _DIGEST.match(digest):
            raise KeyError(digest)
        return f"{self.folder}/{digest[:2]}/{digest}"

    def location(self, digest: str) -> str:
        return self.bucket.location(self.key(digest))

    def put(self, data: bytes) -> str:
        digest = hashlib.sha256(data).hexdigest()
        key = self.key(digest)
        if len(data) > HEAD_FIRST_BYTES and self.bucket.size(key) is not None:
            return digest
        self.bucket.put_once(key, data)
        return digest

    def stage(self, data: bytes) -> _StagedBlobObject:
        """Nothing to do ahead: an object is one conditional PUT, made by ``publish()``."""
        return _StagedBlobObject(self, data)

    def get(self, digest: str) -> bytes:
        return self.bucket.get(self.key(digest))

    def chunks(self, digest: str) -> Iterator[bytes]:
        return self.bucket.chunks(self.key(digest))

    def has(self, digest: str) -> bool:
        try:
            return self.bucket.size(self.key(digest)) is not None
        except KeyError:
            return False

    def delete(self, digest: str) -> bool:
        if not self.has(digest):
            return False
        self.bucket.delete(self.key(digest))
        return True

    def digests(self) -> Iterator[str]:
        for key in self.bucket.keys(self.folder):
            name = key.rsplit("/", 1)[-1]
            if _DIGEST.match(name) and key == self.key(name):
                yield name


class ObjectRecordStore:
    """Records at ``records/<record_id>.yaml`` (:class:`~readreceipt.store.protocols.
    RecordStore`). Ids are checked by the library first."""

    folder = "records"

    def __init__(self, bucket: Bucket) -> None:
        self.bucket = bucket

    def key(self, record_id: str) -> str:
        return f"{self.folder}/{record_id}{_RECORD_SUFFIX}"

    def location(self, record_id: str) -> str:
        return self.bucket.location(self.key(record_id))

    def put(self, record_id: str, data: bytes) -> None:
        self.bucket.put(self.key(record_id), data)

    def add(self, record_id: str, data: bytes) -> bool:
        return self.bucket.put_once(self.key(record_id), data)

    def stage(self, record_id: str, data: bytes) -> _StagedObject:
        """Nothing to do ahead: an object is one conditional PUT, made by ``publish()``."""
        return _StagedObject(self, record_id, data)

    def get(self, record_id: str) -> bytes:
        return self.bucket.get(self.key(record_id))

    def has(self, record_id: str) -> bool:
        return self.bucket.size(self.key(record_id)) is not None

    def ids(self) -> Iterator[str]:
        for key in self.bucket.keys(self.folder):
            name = key.rsplit("/", 1)[-1]
            if name.endswith(_RECORD_SUFFIX) and key.count("/") == 1:
                yield name.removesuffix(_RECORD_SUFFIX)


class _StagedObject:
    """A record object to be written by one conditional PUT (:meth:`ObjectRecordStore.stage`)."""

    def __init__(self, store: ObjectRecordStore, record_id: str, data: bytes) -> None:
        self.store, self.record_id, self.data = store, record_id, data

    def publish(self) -> bool:
        return self.store.add(self.record_id, self.data)

    def discard(self) -> None:
        self.data = b""


class _StagedBlobObject:
    """A blob object to be written by :meth:`ObjectBlobStore.put` (:meth:`~ObjectBlobStore.
    stage`)."""

    def __init__(self, store: ObjectBlobStore, data: bytes) -> None:
        self.store, self.data = store, data
        self.digest = hashlib.sha256(data).hexdigest()

    def publish(self) -> bool:
        self.store.put(self.data)
        return True

    def discard(self) -> None:
        self.data = b""
