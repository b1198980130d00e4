"""Benchmark: readreceipt's vendor table against a maintained one, microlinkhq's is-antibot.

The same pages go to three detectors:

- readreceipt's own: ``judge_content`` says ``wall:challenge`` and the rule that decided is
  ``vendor:`` (tables/vendors.py and the vendor entries of tables/walls.py); and, beside it,
  ``wall:challenge`` by any evidence;
- is-antibot on PyPI (a port of microlinkhq's provider list; run in its own virtual
  environment, ``--pypi-python``);
- is-antibot on npm (microlinkhq's own, ``--npm-dir``: a folder whose ``node_modules`` holds
  it; run with node);
- wafw00f on PyPI (the WAF fingerprinting toolkit's 170-odd vendor plugins, BSD-3-Clause;
  ``--wafw00f-python``: the python of a venv holding it). Each plugin's ``is_waf`` is called
  with the page as both the ordinary and the "attack" response (status 200), twice: with the
  page's headers and cookies (what the toolkit fingerprints: a CDN's ``Server`` header fires
  on every page it serves) and with the body alone (its page markers: what a content verdict
  can use), each firing plugin named.

Each is given the page's HTML, its response headers (from ``.meta.json`` where the corpus has
them), status 200 and a URL. Pages: every ``challenge`` page of ../shared/corpus (walls,
walls2) and tests/pages (bot checks), and every clean page (the 181 articles, hard negatives,
articles about walls); with ``--heldout`` checkouts (bench/heldout.py's), the held-out set's
challenge pages, its ordinary pages and its 300 articles too. Printed per detector: bot checks
found, clean pages flagged; and the pages where the detectors disagree. Figures, not
assertions; the tools are optional (a detector whose tool is absent is skipped, saying so).

    .venv/bin/python bench/vendors.py --pypi-python /tmp/antibot/bin/python \\
        --npm-dir /tmp/npmab [--heldout protego=... readability=... postlight=...] \\
        [--wafw00f-python /tmp/waf/bin/python]

(``python3 -m venv /tmp/waf && /tmp/waf/bin/pip install wafw00f==2.4.2`` makes the last.)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from heldout import LABELS, SOURCES, read_blob
from readreceipt.reading.extract import extract
from readreceipt.reading.fingerprint import PageView, judge_content
from verdicts import load_pages

CLEAN = {"article", "hard_negative", "article_about_walls", "ok"}
_PY = """
import json, sys
from is_antibot import is_antibot
for line in open(sys.argv[1], encoding="utf-8"):
    p = json.loads(line)
    r = is_antibot(headers=p["headers"], html=p["html"], url=p["url"], status_code=200)
    print(json.dumps([r.detected, r.provider]))
"""
# wafw00f's plugins ask a WAFW00F object for matches on the response; this stands in for it
# with the page as the response (its own matchers' semantics: re.I, Set-Cookie split on ", ").
_WAFW00F = """
import json, re, sys
from wafw00f.manager import load_plugins

class Response:
    def __init__(self, headers, text):
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.text, self.status_code, self.reason = text, 200, "OK"

class Page:
    def __init__(self, response):
        self.rq = self.attackres = response
    def matchHeader(self, headermatch, attack=False):
        header, match = headermatch
        value = self.rq.headers.get(header.lower())
        if not value:
            return False
        values = value.split(", ") if header.lower() == "set-cookie" else [value]
        return any(re.search(match, v, re.I) for v in values)
    def matchCookie(self, match, attack=False):
        return self.matchHeader(("Set-Cookie", match))
    def matchStatus(self, code, attack=True):
        return self.rq.status_code == code
    def matchReason(self, reason, attack=True):
        return str(self.rq.reason) == reason
    def matchContent(self, regex, attack=True):
        return re.search(regex, self.rq.text, re.I) is not None

plugins = sorted(load_plugins().values(), key=lambda m: m.NAME)
for line in open(sys.argv[1], encoding="utf-8"):
    p = json.loads(line)
    hits = {}
    for headers in (p["headers"], {}):
        page = Page(Response(headers, p["html"]))
        hits["with_headers" if headers else "body"] = [m.NAME for m in plugins if m.is_waf(page)]
    print(json.dumps([bool(hits["with_headers"]), hits]))
"""
_JS = """
const isAntibot = require('is-antibot');
const lines = require('fs').readFileSync(process.argv[2], 'utf8').split('\\n').filter(Boolean);
for (const line of lines) {
  const p = JSON.parse(line);
  const r = isAntibot({headers: p.headers, html: p.html, url: p.url, statusCode: 200});
  console.log(JSON.stringify([r.detected, r.provider]));
}
"""


def pages(heldout: dict[str, Path]) -> list[tuple[str, str, bytes, dict[str, str]]]:
    """(name, label, body, headers) of every page measured."""
    out = [(p.key, p.label, p.body, p.headers) for p in load_pages()
           if p.label == "challenge" or p.label in CLEAN]
    if heldout:
        import csv

        with LABELS.open(encoding="utf-8") as fh:
            for r in csv.DictReader(fh, delimiter="\t"):
                if r["label"] not in ("challenge", "ok", "article"):
                    continue
                key = next(k for k, repo in SOURCES.items() if repo == r["source_repo"])
                body = read_blob(heldout[key], r["commit"], r["path"])
                if body is not None:
                    out.append((f"heldout/{r['path']}", r["label"], body,
                                {"content-type": "text/html"}))
    return out


def ours(body: bytes, headers: dict[str, str]) -> tuple[bool, bool, str]:
    ex = extract(body, "text/html", None)
    signal = judge_content(PageView("https://example.org/page", "https://example.org/page", 200,
                                    headers, "text/html", ex.html, ex.main_text, ex.page_text,
                                    len(body)))
    challenge = signal is not None and signal.reason == "wall:challenge"
    return challenge and signal.rule.startswith("vendor:"), challenge, \
        signal.rule if signal else ""


def run_tool(command: list[str], script: str, feed: Path) -> list[bool] | None:
    got = run_tool_raw(command, script, feed)
    return None if got is None else [g[0] for g in got]


def run_tool_raw(command: list[str], script: str, feed: Path) -> list[list[object]] | None:
    with tempfile.NamedTemporaryFile("w", suffix=".py" if "python" in command[0] else ".js",
                                     delete=False, dir=feed.parent) as fh:
        fh.write(script)
    try:
        done = subprocess.run([*command, fh.name, str(feed)], capture_output=True, text=True,
                              timeout=1200, check=False, cwd=feed.parent)
    except OSError:
        return None
    if done.returncode != 0:
        print(f"  ({command[0]} failed: {done.stderr.strip()[:200]})")
        return None
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pypi-python", type=Path, help="python of a venv holding is-antibot")
    ap.add_argument("--npm-dir", type=Path, help="a folder whose node_modules holds is-antibot")
    ap.add_argument("--wafw00f-python", type=Path, help="python of a venv holding wafw00f")
    ap.add_argument("--heldout", nargs="*", default=[], help="protego=DIR readability=DIR ...")
    args = ap.parse_args()
    heldout = {k: Path(v) for k, v in (a.split("=", 1) for a in args.heldout)}
    measured = pages(heldout)
    results: dict[str, list[bool]] = {"readreceipt (vendor evidence)": [],
                                      "readreceipt (any evidence)": []}
    rules = []
    for _name, _label, body, headers in measured:
        vendor, anything, rule = ours(body, headers)
        results["readreceipt (vendor evidence)"].append(vendor)
        results["readreceipt (any evidence)"].append(anything)
        rules.append(rule)
    fired: dict[str, str] = {}  # page -> the wafw00f plugins that fired on it
    plugin_hits: dict[str, Counter[str]] = defaultdict(Counter)  # plugin -> label -> pages
    with tempfile.TemporaryDirectory() as tmp:
        feed = Path(tmp) / "pages.jsonl"
        with feed.open("w", encoding="utf-8") as fh:
            for name, _label, body, headers in measured:
                fh.write(json.dumps({"url": f"https://example.org/{name}", "headers": headers,
                                     "html": body.decode("utf-8", "replace")}) + "\n")
        if args.pypi_python:
            got = run_tool([str(args.pypi_python)], _PY, feed)
            if got is not None:
                results["is-antibot 0.1.1 (PyPI)"] = got
        if args.npm_dir:
            (Path(tmp) / "node_modules").symlink_to(args.npm_dir.resolve() / "node_modules")
            got = run_tool(["node"], _JS, feed)
            if got is not None:
                results["is-antibot (npm)"] = got
        if args.wafw00f_python:
            raw = run_tool_raw([str(args.wafw00f_python)], _WAFW00F, feed)
            if raw is not None:
                hits = [r[1] for r in raw]
                results["wafw00f (headers + body)"] = [bool(h["with_headers"]) for h in hits]
                results["wafw00f (body alone)"] = [bool(h["body"]) for h in hits]
                for (name, label, *_), h in zip(measured, hits, strict=True):
                    fired[name] = "+".join(h["with_headers"])
                    for plugin in h["body"]:
                        plugin_hits[plugin]["challenge" if label == "challenge" else "clean"] += 1
    challenges = [i for i, m in enumerate(measured) if m[1] == "challenge"]
    clean = [i for i, m in enumerate(measured) if m[1] in CLEAN]
    print(f"{len(challenges)} bot-check pages, {len(clean)} clean pages")
    figures = {}
    for name, flags in results.items():
        found = sum(flags[i] for i in challenges)
        false = sum(flags[i] for i in clean)
        figures[name] = {"found": found, "false_alarms": false}
        print(f"  {name:32s} bot checks found {found:3d} / {len(challenges)}; clean pages "
              f"flagged {false:3d} / {len(clean)}")
    names = list(results)
    print("pages where the detectors disagree (name: label; " + ", ".join(names) + ")")
    for i, (name, label, _b, _h) in enumerate(measured):
        row = [results[n][i] for n in names]
        if len(set(row)) > 1:
            print(f"  {name[-60:]:60s} {label:14s} " + " ".join("x" if v else "." for v in row)
                  + f"  {rules[i][:60]}" + (f"  [wafw00f: {fired[name]}]" if fired.get(name)
                                            else ""))
    if plugin_hits:
        print("wafw00f plugins firing on the body alone: bot checks, clean pages")
        for plugin, by in sorted(plugin_hits.items()):
            print(f"  {plugin:50s} {by['challenge']:3d} {by['clean']:3d}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
