"""A record's YAML is PyYAML's ``safe_dump``'s, byte for byte, whichever writer wrote it.

store/recordyaml.py writes records without PyYAML's emitter; it must write the same bytes
or leave the record to PyYAML. Checked on real captures, on records whose every text field
holds awkward strings, and on many random structures and strings.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import LocalServer, article_html
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store import recordyaml
from readreceipt.store.escaping import storable
from readreceipt.store.library import Library
from readreceipt.store.records import Record

#: Characters that steer PyYAML's choices: indicators, quotes, spaces, non-ASCII of every
#: plane, and the ones it escapes (tab, NEL, line separators, controls, a BOM).
AWKWARD = ("ab Z09 :#-'\"?!&*|>%@`,[]{}=~\\.é中😀\u00a0\u3000\ufeff\t\n\x85\u2028\u2029"
           "\x07\x7f\u200b")
WORDS = ("the", "page", "was", "read", "null", "yes", "No", "1.5", "0x1F", "2026-11-30",
         "~", "-", "---", "...", "#tag", "key:", "a:b", "http://example.org/a?b=c&d=e#f",
         "'quoted'", '"double"', "é", "中文", "😀", "", " ")


def pyyaml(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def same_or_declined(data: dict[str, Any]) -> bool:
    """recordyaml writes PyYAML's bytes, or declines (None); True when it wrote them."""
    fast = recordyaml.dump(data)
    if fast is None:
        return False
    assert fast == pyyaml(data), (data, fast, pyyaml(data))
    return True


#: The awkward characters PyYAML writes as they are (so the fast writer writes them too).
WRITABLE = "".join(c for c in AWKWARD if c not in "\t\n\x85\u2028\u2029\x07\x7f\ufeff")


def random_text(rng: random.Random, declined: float = 0.5) -> str:
    """Words, or awkward characters: with ``declined`` odds among them some PyYAML escapes."""
    if rng.random() < 0.5:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 40)))
    alphabet = AWKWARD if rng.random() < declined else WRITABLE
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 130)))


def random_value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth < 3 and roll < 0.12:
        return {f"k{i}_{rng.choice(['x', 'content-type', 'a.b'])}": random_value(rng, depth + 1)
                for i in range(rng.randint(0, 4))}
    if depth < 3 and roll < 0.22:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if roll < 0.27:
        return rng.choice([None, True, False, 0, -7, 12345678901234, 0.5, 1e-07, 2.5e20, -0.0])
    return random_text(rng)


def test_real_captures_are_written_fast_and_identically(server: LocalServer, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", server.pair)
    url = server.route("/a", article_html(), headers={"X-Served-By": "cache-fra 1", "Link":
                                                      '</style.css>; rel="preload"'})
    missing = server.url("/missing")
    with Library.open(tmp_path / "lib") as lib:
        results = [capture(url, CaptureOptions(now=True, prompt="What: does it say?",
                                               answer='It says "the harbour bridge took four '
                                                      'years to build"', session_id="s-1"),
                           lib),
                   capture(missing, CaptureOptions(now=True), lib)]
    for result in results:
        data = storable(result.record.to_dict())
        assert same_or_declined(data)  # a record of this kind takes the fast path
        assert result.record_path.read_text("utf-8") == pyyaml(data)


def test_every_text_field_holding_awkward_strings() -> None:
    rng = random.Random(23)  # noqa: S311 - reproducible test data, not a secret
    template = Record(record_id="20261130T011500Z-3f9a2c1b", url="https://example.org/a")
    written = 0
    for _ in range(1000):
        def text() -> str:
            return random_text(rng, declined=0.05)

        record = template.replace(
            title=text(), detail=text(), prompt=text(), rule=text(), final_url=text(),
            session_id=text(), response_headers={"content-type": text(), "x-a": text()},
            redirect_chain=({"url": text(), "status": 301},))
        written += same_or_declined(storable(record.to_dict()))
    assert written > 200  # most such records are still written fast


def test_random_structures() -> None:
    rng = random.Random(11)  # noqa: S311 - reproducible test data, not a secret
    written = 0
    for _ in range(5000):
        data = {f"f{i}": random_value(rng, 0) for i in range(rng.randint(1, 6))}
        written += same_or_declined(data)
    assert written > 500


def test_what_it_leaves_to_pyyaml() -> None:
    shared = {"a": 1}
    for data in ({"k": "a\nb"}, {"k": "tab\there"}, {"true": 1}, {"k": [[1]]},
                 {"k": float("nan")}, {"a": shared, "b": shared}, {1: "x"}, {}):
        assert recordyaml.dump(data) is None, data
