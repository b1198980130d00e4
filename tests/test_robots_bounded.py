"""robots.txt parsed in time linear in the file, with protego's answers for readreceipt.

The hostile shape is a group of many User-agent lines then many rules: protego copies every
rule into every agent's rule set. readreceipt renames the agents that cannot be it before
protego parses (robotsrules.relevant_text); these tests show the answers stay protego's own
and the work stays bounded.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from pathlib import Path

from protego import Protego
from protego import _protego as protego_internals

from conftest import LocalServer, article_html, run_cli
from readreceipt.fetching import robotsrules
from readreceipt.fetching.robots import RULES, RobotsEntry, decide
from readreceipt.fetching.urlpolicy import check_url

_AGENTS = ["*", "readreceipt", "ReadReceipt", "read", "receipt", "readreceipt*", "*bot",
           "read*receipt", "re", "somebot", "Googlebot", "readreceipt/1.0", "x-readreceipt",
           "eipt", "**", "r", "readreceipts"]
_LINE_SHAPES = [
    "User-agent: {a}", "user-agent:{a}", "User agent: {a}", "useragent {a}", "User agent {a}",
    "User-agent {a}:x", "user-agent x: {a}", "USER-AGENT: {a} # a comment", "User-agent:",
    "Disallow: {p}", "Allow: {p}", "disalow: {p}", "Disallow {p}", "Crawl-delay: {d}",
    "Sitemap: https://example.com/s.xml", "Host: example.com", "# only a comment", "",
    "Unknown: {p}", "nonsense {p}", "Request-rate: 1/5",
]
_PATHS = ["/", "/a", "/a/b", "/b", "/*.pdf", "/c$", "/%7Ejoe", "/private"]


def _random_robots(rng: random.Random, lines: int) -> str:
    out = []
    for _ in range(lines):
        shape = rng.choice(_LINE_SHAPES)
        out.append(shape.format(a=rng.choice(_AGENTS), p=rng.choice(_PATHS),
                                d=rng.choice(["1", "2.5", "x"])))
    return rng.choice(["\n", "\r\n", "\r"]).join(out)


def test_a_line_is_read_as_a_user_agent_exactly_as_protego_reads_it() -> None:
    lines = [shape.format(a=agent, p="/x", d="1") for shape in _LINE_SHAPES
             for agent in _AGENTS] + ["User agent", "user", "user agent: x", "Useragent:x:y"]
    for line in lines:
        stripped = line.split("#", 1)[0].strip()
        theirs = protego_internals._extract_directive(stripped) if stripped else None
        expected = (theirs[1] if theirs and theirs[0] in protego_internals._USER_AGENT_DIRECTIVE
                    else None)
        assert robotsrules._user_agent(line) == expected, line


def test_the_answers_for_readreceipt_are_protegos_on_random_files() -> None:
    rng = random.Random(9309)  # noqa: S311 - a reproducible test corpus, not a secret
    urls = [f"https://example.com{path}" for path in
            ("/", "/a", "/a/b/c", "/b", "/doc.pdf", "/c", "/~joe/x", "/private/y", "/z")]
    for _ in range(400):
        body = _random_robots(rng, rng.randint(1, 40))
        theirs, ours = Protego.parse(body), robotsrules.parse(body)
        for url in urls:
            assert ours.can_fetch(url, "readreceipt") == theirs.can_fetch(url, "readreceipt"), (
                body, url)
        assert ours.crawl_delay("readreceipt") == theirs.crawl_delay("readreceipt"), body


def _many_agents_then_many_rules(count: int, ours: bool = False) -> str:
    agents = "".join(f"User-agent: agent{i}\n" for i in range(count))
    if ours:
        agents += "User-agent: readreceipt\n"
    return agents + "".join(f"Disallow: /p{i}\n" for i in range(count))


def test_many_agents_then_many_rules_cost_memory_linear_in_the_file() -> None:
    body = _many_agents_then_many_rules(2000, ours=True)  # 70 KB: 4 million rules unbounded
    tracemalloc.start()
    try:
        parser = robotsrules.parse.__wrapped__(body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not parser.can_fetch("https://example.com/p1999", "readreceipt")
    assert parser.can_fetch("https://example.com/q", "readreceipt")
    assert peak < 30 * 2**20, f"{peak / 2**20:.0f} MiB for a 70 KB robots.txt"


def test_a_bodys_parse_is_kept_for_the_next_capture() -> None:
    body = _many_agents_then_many_rules(50) + "\n# kept once\n"
    entry = RobotsEntry("https://example.com", time.time(), 200, body, RULES)
    decide(entry, check_url("https://example.com/q"))
    before = robotsrules.parse.cache_info().hits
    decide(entry, check_url("https://example.com/r"))
    assert robotsrules.parse.cache_info().hits == before + 1


def test_a_capture_under_a_hostile_robots_txt_ends_within_its_deadline(
        server: LocalServer, library_dir: Path) -> None:
    server.route("/robots.txt", _many_agents_then_many_rules(4000),
                 headers={"Content-Type": "text/plain"})
    url = server.route("/p7", article_html())
    result = run_cli("capture", url, "--json", "--timeout", "5", library=library_dir,
                     allow=server.pair)
    # Unbounded, this robots.txt took 70 s and 1.4 GiB, and the capture ended FAILED
    # (timeout) with its 5 s long gone.
    assert result.code == 0, result.stderr
    assert result.json()["verdict"] == "RETRIEVED"
