"""Identity harness: does a change leave what a capture knows exactly as it was?

``dump`` reads every development page (the shared corpus's articles, walls and walls2,
tests/pages/**, and the collected copies of development sets 3 and 4 when their folders are
given) through the readreceipt found on ``PYTHONPATH`` (extraction, then the verdict as a
capture makes it) and writes, page by page, the verdict, reason, wall, rule, detail, the
soft-404 probe's suspicion, the title, the second reading's outcome and the sha256 of the main
text and of the whole visible text, as one JSON file. ``compare`` lists every page whose
entry differs between two dumps (the exit status is 1 when one does).

The harness is evidence, not a test: a speed change is kept only when a dump made with the
code before it and one made after compare equal. Run the same script against both trees:

    PYTHONPATH=/tmp/before/src .venv/bin/python bench/identity.py dump before.json \\
        --devset3 /work/dev3/pages --devset4 /work/dev4/pages
    PYTHONPATH=src .venv/bin/python bench/identity.py dump after.json --devset3 ... --devset4 ...
    .venv/bin/python bench/identity.py compare before.json after.json

Each article is judged twice: under a local address and under the address it was published
at (the parked-domain check reads mentions of the page's own domain, which only the second
exercises).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _corpus_server import CORPUS, ground_truth
from readreceipt.fetching.transport import FetchResult
from readreceipt.reading.extract import extract
from readreceipt.reading.verdict import judge, probe_wanted

SYNTHETIC = Path(__file__).resolve().parents[1] / "tests" / "pages"
_TRANSFER_HEADERS = {"content-encoding", "transfer-encoding", "content-length", "connection",
                     "keep-alive"}
_HTML = {"content-type": "text/html; charset=utf-8"}


def _sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def _meta(path: Path) -> tuple[int, dict[str, str]]:
    meta = path.with_name(path.name + ".meta.json")
    if not meta.is_file():
        return 200, dict(_HTML)
    data = json.loads(meta.read_text(encoding="utf-8"))
    headers = {k.lower(): str(v) for k, v in data.get("headers", {}).items()
               if k.lower() not in _TRANSFER_HEADERS}
    return int(data.get("status", 200)), headers or dict(_HTML)


def pages(devsets: list[Path]) -> Iterator[tuple[str, str, bytes, int, dict[str, str]]]:
    """(key, url, body, status, headers) for every development page."""
    truth = ground_truth()
    for path in sorted((CORPUS / "articles" / "html").glob("*.html.gz")):
        sha = path.name.removesuffix(".html.gz")
        body = gzip.decompress(path.read_bytes())
        yield f"articles/{sha}", f"http://127.0.0.1:8000/{sha}", body, 200, {
            "content-type": "text/html"}
        url = truth.get(sha, {}).get("url")
        if url:
            yield f"articles-named/{sha}", url, body, 200, {"content-type": "text/html"}
    for folder in (CORPUS / "walls", CORPUS / "walls2"):
        labels = folder / "LABELS.tsv"
        if not labels.is_file():
            continue
        with labels.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                path = folder / row["file"]
                status, headers = _meta(path)
                key = f"{folder.name}/{row['file']}"
                yield key, f"http://127.0.0.1:8000/{key}", path.read_bytes(), status, headers
    for path in sorted(SYNTHETIC.rglob("*.html")):
        status, headers = _meta(path)
        key = f"synthetic/{path.relative_to(SYNTHETIC)}"
        yield key, f"http://127.0.0.1:8000/{key}", path.read_bytes(), status, headers
    for folder in devsets:
        for path in sorted(folder.glob("*.html")):
            key = f"{folder.parent.name}/{path.name}"
            yield key, f"http://127.0.0.1:8000/{key}", path.read_bytes(), 200, dict(_HTML)


def entry(url: str, body: bytes, status: int, headers: dict[str, str]) -> dict[str, object]:
    """What a capture knows of one page: its verdict and its texts' digests."""
    fetched = FetchResult(url=url, final_url=url, status=status, reason_phrase="",
                          headers=tuple(headers.items()), body=body, truncated=False,
                          redirect_chain=(), peer_address="127.0.0.1", http_version="HTTP/1.1")
    ex = extract(body, fetched.content_type or "text/html", fetched.charset)
    verdict = judge(fetched, ex)
    second = ex.second_reading
    return {
        "verdict": verdict.verdict, "reason": verdict.reason, "wall": verdict.wall,
        "rule": verdict.rule, "detail": verdict.detail,
        "probe": probe_wanted(fetched, ex, verdict),
        "kind": ex.kind, "title": ex.title, "error": ex.error,
        "main_sha256": _sha(ex.main_text), "page_sha256": _sha(ex.page_text),
        "main_letters": len(ex.main_text), "page_letters": len(ex.page_text),
        "second_reading": None if second is None else repr(second),
    }


def dump(out: Path, devsets: list[Path]) -> int:
    result = {key: entry(url, body, status, headers)
              for key, url, body, status, headers in pages(devsets)}
    out.write_text(json.dumps(result, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    print(f"{len(result)} pages -> {out}")
    return 0


def _read_dump(path: Path) -> dict[str, Any] | None:
    """A dump as ``dump`` wrote it, or None (said in one line) when it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"cannot read the dump {path}: {exc.__class__.__name__}", file=sys.stderr)
        return None
    if not isinstance(data, dict):
        print(f"not a dump: {path}", file=sys.stderr)
        return None
    return data


def compare(before: Path, after: Path) -> int:
    old, new = _read_dump(before), _read_dump(after)
    if old is None or new is None:
        return 2
    moved = 0
    alone = sorted(old.keys() ^ new.keys())
    for key in alone:  # (a development set's page added or removed between the dumps)
        print(f"{key}: only in {'after' if key in new else 'before'}")
    for key in sorted(old.keys() & new.keys()):
        a, b = old[key], new[key]
        if a == b:
            continue
        moved += 1
        for field in sorted(a.keys() | b.keys()):
            if a.get(field) != b.get(field):
                print(f"{key}: {field}: {a.get(field)!r} -> {b.get(field)!r}")
    print(f"{len(old.keys() & new.keys())} pages compared, {moved} moved"
          + (f" ({len(alone)} in one dump only)" if alone else ""))
    return 1 if moved else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="what the code on PYTHONPATH makes of every page")
    d.add_argument("out", type=Path)
    d.add_argument("--devset3", type=Path, help="development set 3's collected pages")
    d.add_argument("--devset4", type=Path, help="development set 4's collected pages")
    c = sub.add_parser("compare", help="the pages whose entries differ between two dumps")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "dump":
        return dump(args.out, [p for p in (args.devset3, args.devset4) if p is not None])
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
