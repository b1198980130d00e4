"""SURT keys: the ones pywb computes (the ``surt`` package), for every URL readreceipt stores;
and the compressed, paged index a WACZ carries, read back as ReplayWeb.page and pywb read it."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from surt import surt as reference_surt

from conftest import CORPUS
from readreceipt.errors import RefusedError
from readreceipt.export.cdxj import (
    IndexEntry,
    SortedLines,
    paged_index,
    sorted_lines,
    surt,
    timestamp14,
)
from readreceipt.fetching.urlpolicy import check_url

ODD_URLS = [
    "http://example.com",
    "https://www.example.com/",
    "https://WWW2.Example.COM:443/Path/To/Page/",
    "http://example.com:8080/a/./b/../c//d?z=1&a=2&m",
    "https://example.com/caf%C3%A9/%7Euser/%2541?q=%E2%9C%93&b=&a",
    "https://example.com/search?q=two%20words&lang=EN#frag",
    "https://xn--bcher-kva.example/b%C3%BCcher",
    "http://127.0.0.1:8000/page?x=1",
    "https://example.com/path;params?x=1",
    "https://example.com/a%2Fb?c=%26d",
    "https://sub.domain.example.co.uk/index.php?id=10&PHPSESSID=0123456789abcdef0123456789abcdef",
    "https://example.com/%20leading%20space/",
    "https://example.com/?",
    "https://example.com/a?b=c=d&b=a",
]


def corpus_urls() -> list[str]:
    path = CORPUS / "articles" / "ground-truth.json"
    if not path.is_file():
        pytest.skip(f"evidence corpus not present at {path.parent}")
    truth = json.loads(path.read_text())
    return [entry["url"] for entry in truth.values()]


@pytest.mark.parametrize("url", ODD_URLS)
def test_odd_urls_key_as_pywb_keys_them(url: str) -> None:
    try:
        canonical = check_url(url).url
    except RefusedError:
        canonical = url
    assert surt(canonical) == reference_surt(canonical)


def test_every_corpus_url_keys_as_pywb_keys_it() -> None:
    urls = corpus_urls()
    assert len(urls) > 150
    mismatched = []
    for url in urls:
        try:
            canonical = check_url(url).url
        except RefusedError:
            continue
        if surt(canonical) != reference_surt(canonical):
            mismatched.append((canonical, surt(canonical), reference_surt(canonical)))
    assert mismatched == []


def test_lines_sort_in_byte_order_and_carry_what_replay_needs() -> None:
    def entry(url: str, when: str, offset: int) -> IndexEntry:
        return IndexEntry(url, when, "text/html", 200, "sha256:ab", 10, offset, "d.warc.gz",
                          "response")

    lines = sorted_lines([entry("https://b.example/", "2026-03-01T10:00:00.000001Z", 30),
                          entry("https://a.example/Z", "2026-03-01T10:00:00Z", 20),
                          entry("https://a.example/a", "2026-03-01T09:00:00Z", 10)])
    assert [line.split(" ")[0] for line in lines] == ["example,a)/a", "example,a)/z",
                                                      "example,b)/"]
    _key, stamp, data = lines[0].split(" ", 2)
    assert stamp == "20260301090000"
    assert json.loads(data) == {"url": "https://a.example/a", "mime": "text/html",
                                "status": "200", "digest": "sha256:ab", "length": "10",
                                "offset": "10", "filename": "d.warc.gz"}
    assert timestamp14("2026-03-01T09:00:05.123456Z") == "20260301090005"


def test_a_paged_index_finds_every_line_in_its_block() -> None:
    entries = [IndexEntry(f"https://example.com/page/{n:03d}", "2026-03-01T09:00:00.000000Z",
                          "text/html", 200, "sha256:" + "0" * 64, 100, n * 100, "data.warc.gz",
                          "response") for n in range(25)]
    lines = sorted_lines(entries)
    index = paged_index(lines, "index.cdx.gz", per_block=10)
    meta, *pages = index.idx.decode().splitlines()
    assert meta == '!meta 0 {"format": "cdxj-gzip-1.0", "filename": "index.cdx.gz"}'
    assert len(pages) == 3  # 10 + 10 + 5 lines
    found = []
    for n, page in enumerate(pages):
        key, where = page.split(" {", 1)
        where = json.loads("{" + where)
        block = index.blocks[where["offset"]:where["offset"] + where["length"]]
        assert where["digest"] == "sha256:" + hashlib.sha256(block).hexdigest()
        block_lines = gzip.decompress(block).decode().splitlines()
        assert block_lines == lines[n * 10:(n + 1) * 10]
        assert block_lines[0].startswith(key + " {")  # the key a lookup binary-searches
        found += block_lines
    assert found == lines
    # Read as one gzip stream (pywb's wb-manager reads it so), the blocks are every line.
    assert gzip.decompress(index.blocks).decode().splitlines() == lines


def test_lines_sorted_in_runs_on_disk_come_back_in_the_order_sorted_in_memory(
        tmp_path: Path) -> None:
    # Non-ASCII hosts and paths: the merge must keep byte order across runs, as one sort does.
    urls = [f"https://{host}/{path}{n}" for n in range(40)
            for host, path in (("b.example", "Ä"), ("a.example", "z"), ("xn--bcher-kva.example",
                                                                      "%E2%9C%93"))]
    entries = [IndexEntry(url, f"2026-03-01T09:{n % 60:02d}:00Z", "text/html", 200,
                          "sha256:ab", 10, n, "d.warc.gz", "response")
               for n, url in enumerate(reversed(urls))]
    lines = SortedLines(tmp_path, per_run=7)
    for entry in entries:
        lines.add(entry)
    assert len(list(tmp_path.glob("index-run-*"))) == len(entries) // 7  # it did spill
    assert list(lines) == sorted_lines(entries)
