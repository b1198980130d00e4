"""WACZ export: the package py-wacz validates, its index, its pages, and a replay through pywb.

pywb lives in its own virtual environment (``.venv/pywb``, made by ``make test``): it pins an
old brotlipy whose ``brotli`` module would shadow the brotli readreceipt decodes with.
"""

from __future__ import annotations

import gzip
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import BIN
from library_builder import article, at, put_capture
from readreceipt.export import export_wacz
from readreceipt.export.cdxj import surt
from readreceipt.store.library import Library
from readreceipt.store.records import Record

WAYBACK = Path(sys.executable).resolve().parent.parent / "pywb" / "bin" / "wayback"
if not WAYBACK.exists():  # an editable venv resolves sys.executable to the base interpreter
    WAYBACK = Path(sys.executable).parent.parent / "pywb" / "bin" / "wayback"

PAGE = article("Night buses return to the river line",
               "Night buses return to the river line on 4 May, running every twenty minutes "
               "between midnight and five in the morning.",
               "The council says the service costs 1.2 million a year and will be reviewed "
               "after twelve months.")
PAGE_2 = PAGE.replace(b"twenty minutes", b"thirty minutes")


@pytest.fixture
def library(tmp_path: Path) -> dict[str, Record]:
    lib = Library.open(tmp_path / "lib")
    records = {
        "first": put_capture(lib, "https://city.example/buses", PAGE, at(0)),
        "repeat": put_capture(lib, "https://city.example/buses", PAGE, at(90)),
        "changed": put_capture(lib, "https://city.example/buses", PAGE_2, at(180)),
        "other": put_capture(lib, "https://www.transit.example/Lines/?b=2&a=1",
                             article("Lines", "The river line has eleven stops from the "
                                     "harbour to the university, two of them step-free."),
                             at(200)),
    }
    lib.close()
    return records


@pytest.fixture
def wacz(tmp_path: Path, library: dict[str, Record]) -> Path:
    path = tmp_path / "evidence.wacz"
    with Library.open(tmp_path / "lib") as lib:
        result = export_wacz(lib, path)
    assert result.pages == 4
    return path


def test_py_wacz_validates_it(wacz: Path) -> None:
    proc = subprocess.run([str(BIN / "wacz"), "validate", "-f", str(wacz)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Validation succeeded" in proc.stdout


def test_members_datapackage_and_compression(wacz: Path) -> None:
    with zipfile.ZipFile(wacz) as archive:
        infos = {i.filename: i for i in archive.infolist()}
        assert set(infos) == {"archive/data.warc.gz", "indexes/index.cdxj",
                              "pages/pages.jsonl", "datapackage.json",
                              "datapackage-digest.json"}
        assert infos["archive/data.warc.gz"].compress_type == zipfile.ZIP_STORED
        package = json.loads(archive.read("datapackage.json"))
        digest = json.loads(archive.read("datapackage-digest.json"))
        assert package["profile"] == "data-package"
        assert package["wacz_version"] == "1.1.1"
        import hashlib

        assert digest["hash"] == "sha256:" + hashlib.sha256(
            archive.read("datapackage.json")).hexdigest()
        for resource in package["resources"]:
            data = archive.read(resource["path"])
            assert resource["hash"] == "sha256:" + hashlib.sha256(data).hexdigest()
            assert resource["bytes"] == len(data)


def test_pages_list_every_replayable_capture(wacz: Path, library: dict[str, Record]) -> None:
    with zipfile.ZipFile(wacz) as archive:
        lines = archive.read("pages/pages.jsonl").decode().splitlines()
    header, pages = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert header["format"] == "json-pages-1.0" and header["hasText"] is True
    assert [p["id"] for p in pages] == [r.record_id for r in library.values()]
    first = pages[0]
    assert first["url"] == "https://city.example/buses"
    assert first["ts"] == library["first"].fetched_at
    assert first["title"] == "Night buses return to the river line"
    assert "every twenty minutes" in first["text"]


def test_index_is_sorted_and_agrees_with_cdxj_indexer(wacz: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(wacz) as archive:
        index = archive.read("indexes/index.cdxj").decode().splitlines()
        (tmp_path / "data.warc.gz").write_bytes(archive.read("archive/data.warc.gz"))
    assert index == sorted(index, key=lambda line: line.encode())
    assert len(index) == 4
    assert index[0].startswith("example,city)/buses 20260301090000 ")
    assert any(line.startswith("example,transit)/lines?a=1&b=2 ") for line in index)
    proc = subprocess.run([str(BIN / "cdxj-indexer"), str(tmp_path / "data.warc.gz")],
                          capture_output=True, text=True, check=True)
    theirs = {line for line in proc.stdout.splitlines()
              if '"mime": "application/json"' not in line and '"mime": "text/plain' not in line}
    assert set(index) == theirs


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def pywb(wacz: Path, tmp_path: Path) -> Iterator[str]:
    """pywb serving the WACZ's own WARC and index (not an index pywb made) on loopback."""
    assert WAYBACK.exists(), (f"pywb is not installed at {WAYBACK}; `make test` makes it "
                              "(python -m venv .venv/pywb && .venv/pywb/bin/pip install pywb)")
    root = tmp_path / "pywb"
    collection = root / "collections" / "evidence"
    (collection / "archive").mkdir(parents=True)
    (collection / "indexes").mkdir()
    with zipfile.ZipFile(wacz) as archive:
        (collection / "archive" / "data.warc.gz").write_bytes(
            archive.read("archive/data.warc.gz"))
        (collection / "indexes" / "index.cdxj").write_bytes(archive.read("indexes/index.cdxj"))
    port = _free_port()
    proc = subprocess.Popen([str(WAYBACK), "-b", "127.0.0.1", "-p", str(port)], cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("pywb did not start: " + (
                        proc.stderr.read().decode() if proc.stderr else "")) from None
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)


def _get(url: str) -> tuple[int, bytes, dict[str, str]]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read(), dict(response.headers)


def test_pywb_replays_each_capture_from_the_package(pywb: str,
                                                    library: dict[str, Record]) -> None:
    url = "https://city.example/buses"
    status, body, headers = _get(f"{pywb}/evidence/20260301090000id_/{url}")
    assert status == 200 and body == PAGE
    assert headers["Memento-Datetime"] == "Sun, 01 Mar 2026 09:00:00 GMT"
    # 10:30 is the revisit: pywb must resolve it to the first capture's payload.
    status, body, headers = _get(f"{pywb}/evidence/20260301103000id_/{url}")
    assert status == 200 and body == PAGE
    assert headers["Memento-Datetime"] == "Sun, 01 Mar 2026 10:30:00 GMT"
    _status, body, _ = _get(f"{pywb}/evidence/20260301120000id_/{url}")
    assert body == PAGE_2
    status, body, _ = _get(f"{pywb}/evidence/20260301120000mp_/{url}")
    assert b"every thirty minutes" in body
    other = "https://www.transit.example/Lines/?a=1&b=2"
    status, body, _ = _get(f"{pywb}/evidence/20260301122000id_/{other}")
    assert b"eleven stops" in body


def test_pywb_key_is_the_surt_it_computes(pywb: str) -> None:
    url = "https://www.transit.example/Lines/?b=2&a=1"
    _status, body, _ = _get(f"{pywb}/evidence/cdx?url={urllib.request.quote(url)}&output=json")
    rows = [json.loads(line) for line in body.decode().splitlines()]
    assert [r["urlkey"] for r in rows] == [surt(url)]


def test_cli_writes_a_wacz(tmp_path: Path, library: dict[str, Record]) -> None:
    from conftest import run_cli

    out = tmp_path / "cli.wacz"
    result = run_cli("export", "--wacz", str(out), "--json", library=tmp_path / "lib")
    assert result.code == 0, result.stderr
    assert result.json()["format"] == "wacz" and result.json()["pages"] == 4
    with zipfile.ZipFile(out) as archive:
        warc = gzip.decompress(archive.read("archive/data.warc.gz"))
    assert warc.count(b"WARC-Type: revisit") == 1
