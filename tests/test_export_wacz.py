"""WACZ export: the package py-wacz validates, its index, its pages, and a replay through pywb.

pywb lives in its own virtual environment (``.venv/pywb``, made by ``make test``): it pins an
old brotlipy whose ``brotli`` module would shadow the brotli readreceipt decodes with. The
package goes into pywb the way its users add one, ``wb-manager add --unpack-wacz``, which
takes the WARC and the ``*.cdx`` / ``*.cdx.gz`` indexes it finds (not an index pywb makes).
"""

from __future__ import annotations

import gzip
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
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

PYWB_BIN = Path(sys.executable).resolve().parent.parent / "pywb" / "bin"
if not PYWB_BIN.exists():  # an editable venv resolves sys.executable to the base interpreter
    PYWB_BIN = Path(sys.executable).parent.parent / "pywb" / "bin"
WAYBACK, WB_MANAGER = PYWB_BIN / "wayback", PYWB_BIN / "wb-manager"

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
        # Asked for the old address, redirected (301, then 302) to the page captured first.
        "moved": put_capture(lib, "https://city.example/night-buses", PAGE, at(240),
                             final_url="https://city.example/buses",
                             redirect_chain=(
                                 {"url": "https://city.example/night-buses", "status": 301,
                                  "http_version": "HTTP/1.1", "peer_address": "203.0.113.7",
                                  "headers": {"content-type": "text/html; charset=utf-8",
                                              "location": "/night",
                                              "content-length": "169"}},
                                 {"url": "https://city.example/night", "status": 302})),
    }
    lib.close()
    return records


@pytest.fixture
def wacz(tmp_path: Path, library: dict[str, Record]) -> Path:
    path = tmp_path / "evidence.wacz"
    with Library.open(tmp_path / "lib") as lib:
        result = export_wacz(lib, path)
    assert (result.pages, result.redirects) == (5, 2)
    return path


def test_py_wacz_validates_it(wacz: Path) -> None:
    proc = subprocess.run([str(BIN / "wacz"), "validate", "-f", str(wacz)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Validation succeeded" in proc.stdout


def test_members_datapackage_and_compression(wacz: Path) -> None:
    with zipfile.ZipFile(wacz) as archive:
        infos = {i.filename: i for i in archive.infolist()}
        # py-wacz's layout: a compressed, paged index (what both pywb and ReplayWeb.page load).
        assert set(infos) == {"archive/data.warc.gz", "indexes/index.cdx.gz",
                              "indexes/index.idx", "pages/pages.jsonl", "datapackage.json",
                              "datapackage-digest.json"}
        assert infos["archive/data.warc.gz"].compress_type == zipfile.ZIP_STORED
        assert infos["indexes/index.cdx.gz"].compress_type == zipfile.ZIP_STORED
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
        index = gzip.decompress(archive.read("indexes/index.cdx.gz")).decode().splitlines()
        idx = archive.read("indexes/index.idx").decode().splitlines()
        (tmp_path / "data.warc.gz").write_bytes(archive.read("archive/data.warc.gz"))
    assert index == sorted(index, key=lambda line: line.encode())
    assert len(index) == 7  # five captures and two redirect hops
    assert index[0].startswith("example,city)/buses 20260301090000 ")
    assert any(line.startswith("example,transit)/lines?a=1&b=2 ") for line in index)
    hops = [json.loads(line.split(" ", 2)[2]) for line in index
            if line.startswith(("example,city)/night-buses ", "example,city)/night "))]
    assert sorted(h["status"] for h in hops) == ["301", "302"]
    # One block here: the .idx names it by its first key, where it lies and its digest.
    assert json.loads(idx[0].split(" ", 2)[2]) == {"format": "cdxj-gzip-1.0",
                                                   "filename": "index.cdx.gz"}
    assert len(idx) == 2 and idx[1].startswith("example,city)/buses 20260301090000 {")
    check = subprocess.run([str(BIN / "warcio"), "check", "-v", str(tmp_path / "data.warc.gz")],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0 and "fail" not in check.stdout, check.stdout + check.stderr
    proc = subprocess.run([str(BIN / "cdxj-indexer"), str(tmp_path / "data.warc.gz")],
                          capture_output=True, text=True, check=True)
    theirs = {line for line in proc.stdout.splitlines()
              if '"mime": "application/json"' not in line and '"mime": "text/plain' not in line}
    assert set(index) == theirs


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wb_manager(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(WB_MANAGER), *args], cwd=root, capture_output=True, text=True,
                          timeout=120, check=False)


def _add_to_pywb(wacz: Path, root: Path) -> Path:
    """``wb-manager init`` a collection in ``root`` and ``add --unpack-wacz`` the package."""
    assert WB_MANAGER.exists(), (f"pywb is not installed in {PYWB_BIN}; `make test` makes it "
                                 "(python -m venv .venv/pywb && .venv/pywb/bin/pip install "
                                 "pywb)")
    root.mkdir(parents=True, exist_ok=True)
    init = _wb_manager(root, "init", "evidence")
    assert init.returncode == 0, init.stderr
    add = _wb_manager(root, "add", "--unpack-wacz", "evidence", str(wacz))
    assert add.returncode == 0, add.stderr
    return root / "collections" / "evidence"


def test_wb_manager_add_finds_the_index(wacz: Path, tmp_path: Path) -> None:
    collection = _add_to_pywb(wacz, tmp_path / "pywb")
    index = (collection / "indexes" / "index.cdxj").read_text("utf-8").splitlines()
    with zipfile.ZipFile(wacz) as archive:
        ours = gzip.decompress(archive.read("indexes/index.cdx.gz")).decode().splitlines()
    # pywb copied our lines, pointing them at the WARC it unpacked under its own name.
    assert len(index) == len(ours) == 7
    assert {line.split(" ", 2)[2] for line in index} == {
        line.split(" ", 2)[2].replace('"data.warc.gz"', '"evidence-0.warc.gz"')
        for line in ours}
    assert (collection / "archive" / "evidence-0.warc.gz").exists()


def test_wb_manager_add_finds_no_index_named_cdxj(wacz: Path, tmp_path: Path) -> None:
    """The control: the index under the name exports had before (index.cdxj) is not seen."""
    old = tmp_path / "old.wacz"
    with zipfile.ZipFile(wacz) as archive, zipfile.ZipFile(old, "w") as out:
        for info in archive.infolist():
            if info.filename.startswith("indexes/"):
                continue
            out.writestr(info, archive.read(info.filename))
        out.writestr("indexes/index.cdxj",
                     gzip.decompress(archive.read("indexes/index.cdx.gz")))
    root = tmp_path / "pywb"
    root.mkdir()
    assert _wb_manager(root, "init", "evidence").returncode == 0
    add = _wb_manager(root, "add", "--unpack-wacz", "evidence", str(old))
    assert "does not contain any indices" in add.stderr
    index = root / "collections" / "evidence" / "indexes" / "index.cdxj"
    assert not index.exists() or index.read_text("utf-8") == ""


@pytest.fixture
def pywb(wacz: Path, tmp_path: Path) -> Iterator[str]:
    """pywb's ``wayback`` on loopback, serving the package added with ``wb-manager add``."""
    root = tmp_path / "pywb"
    _add_to_pywb(wacz, root)
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


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def _redirect(url: str) -> tuple[int, str]:
    """The status and Location pywb answers ``url`` with, not followed."""
    opener = urllib.request.build_opener(_NoRedirects())
    try:
        opener.open(url, timeout=30).close()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers["Location"]
    raise AssertionError(f"{url} replayed no redirect")


def test_pywb_replays_the_redirects_to_the_page(pywb: str) -> None:
    asked, middle = "https://city.example/night-buses", "https://city.example/night"
    stamp = "20260301130000"
    # As archived (id_): each hop's status and Location, as the server sent them.
    assert _redirect(f"{pywb}/evidence/{stamp}id_/{asked}") == (301, "/night")
    assert _redirect(f"{pywb}/evidence/{stamp}id_/{middle}") == (
        302, "https://city.example/buses")
    # Replayed for a browser (mp_): pywb points each Location back into the archive.
    status, location = _redirect(f"{pywb}/evidence/{stamp}mp_/{asked}")
    assert (status, location) == (301, f"/evidence/{stamp}mp_/{middle}")
    status, location = _redirect(f"{pywb}/evidence/{stamp}mp_/{middle}")
    assert (status, location) == (302, f"{pywb}/evidence/{stamp}mp_/https://city.example/buses")
    # Followed, the redirects end at the page (a revisit of the first capture's payload).
    status, body, headers = _get(f"{pywb}/evidence/{stamp}mp_/{asked}")
    assert status == 200 and b"every twenty minutes" in body
    assert headers["Memento-Datetime"] == "Sun, 01 Mar 2026 13:00:00 GMT"


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
    data = result.json()
    assert (data["format"], data["pages"], data["redirects"]) == ("wacz", 5, 2)
    with zipfile.ZipFile(out) as archive:
        warc = gzip.decompress(archive.read("archive/data.warc.gz"))
    assert warc.count(b"WARC-Type: revisit") == 2
