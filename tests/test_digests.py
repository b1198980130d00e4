"""Reproducible digests: the same bytes give the same text digests, with the pinned extractor.

``text_sha256`` is a digest of what the extractor makes of the bytes. The fixture pages in
``tests/fixtures/digests/`` were captured once and their digests committed beside them; a
new version of any library that turns bytes into text fails here first, naming itself, rather
than changing every digest in every library silently (docs/design.md, "Reproducible
digests"). An intended upgrade changes constraints.txt and expected.json in one commit.
"""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from conftest import LocalServer
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.reading.extract import HTML_TEXT_LIBRARIES, PDF_TEXT_LIBRARIES
from readreceipt.store.library import Library

FIXTURES = Path(__file__).parent / "fixtures" / "digests"
EXPECTED: dict[str, dict[str, Any]] = json.loads((FIXTURES / "expected.json").read_text())
CONSTRAINTS = Path(__file__).resolve().parents[1] / "constraints.txt"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned() -> dict[str, str]:
    """constraints.txt as {canonical name: version}."""
    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, wanted = line.partition("==")
            pins[_canonical(name)] = wanted.strip()
    return pins


def test_every_text_library_is_pinned_and_installed_at_its_pin() -> None:
    pins = pinned()
    named = {_canonical(n) for n in (*HTML_TEXT_LIBRARIES, *PDF_TEXT_LIBRARIES)}
    assert named <= set(pins), f"not pinned in constraints.txt: {sorted(named - set(pins))}"
    wrong = {name: version(name) for name, wanted in pins.items() if version(name) != wanted}
    assert not wrong, (f"installed {wrong}, but constraints.txt pins "
                       f"{ {n: pins[n] for n in wrong} }: reinstall with `make` (pip -c "
                       "constraints.txt), or upgrade on purpose with new expected digests")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_same_bytes_give_the_same_digests(name: str, allow_server: LocalServer,
                                              library_dir: Path) -> None:
    expected = EXPECTED[name]
    url = allow_server.route(f"/{name}", (FIXTURES / name).read_bytes(),
                             headers={"Content-Type": expected["content_type"]})
    with Library.open(library_dir) as lib:
        record = capture(url, CaptureOptions(now=True, render=False), lib).record
        kept = lib.text(record.text_sha256)
    assert record.verdict == "RETRIEVED", record.detail
    got = {"content_type": expected["content_type"], "bytes_sha256": record.bytes_sha256,
           "text_sha256": record.text_sha256, "page_text_sha256": record.page_text_sha256,
           "text_chars": record.text_chars, "extractor": record.extractor}
    assert got == expected
    assert kept is not None and len(kept) == expected["text_chars"]
