"""A JSON document's main text (reading/jsontext.py): the streamed reading of a long document
gives the text the parse gives, rejects what is not JSON's tokens, and holds a bounded slice
of the document at a time."""

from __future__ import annotations

import json
import random
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import CliResult, LocalServer
from readreceipt.reading import jsontext
from readreceipt.reading.extract import extract
from readreceipt.reading.jsontext import MAX_JSON_VALUES, STREAMED_EXTRACTOR, json_values

Cli = Callable[..., CliResult]

#: Characters that mean something to JSON or to the streamed reading, and some that do not.
_ALPHABET = ['a', 'é', '"', '\\', '/', '\n', '\t', '\u2028', '😀', ',', ':', '[', '{', ' ',
             '1', '-', 'e', '\x7f', 'null']


def _document(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 4 or roll < 0.4:
        kind = rng.random()
        if kind < 0.4:
            return "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(6)))
        if kind < 0.7:
            return rng.choice([0, -1, 12, 3.5, -0.0, 1e21, 1.5e-7, 10**30])
        return rng.choice([True, False, None, float("nan"), float("inf"), -float("inf")])
    if roll < 0.7:
        return [_document(rng, depth + 1) for _ in range(rng.randrange(6))]
    # Keys made distinct: the parse keeps a repeated key's last value, the stream each one.
    return {f"k{i}{rng.choice(_ALPHABET)}": _document(rng, depth + 1)
            for i in range(rng.randrange(6))}


def _written(rng: random.Random, doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5,
                      indent=rng.choice([None, None, 1, "\t"]),
                      separators=rng.choice([None, (",", ":")]))


@pytest.mark.parametrize("slice_chars", [jsontext.SLICE_CHARS, 50, 7, 1])
def test_the_streamed_reading_reads_what_the_parse_reads(
        monkeypatch: pytest.MonkeyPatch, slice_chars: int) -> None:
    """Slices down to one character (every string then cut by a slice and every key split
    from its colon but for the guard that keeps them together) read the same values as the parse."""
    monkeypatch.setattr(jsontext, "SLICE_CHARS", slice_chars)
    rng = random.Random(slice_chars)  # noqa: S311 - reproducible documents, not secrets
    for _ in range(1500):
        doc = [_document(rng) for _ in range(rng.randrange(1, 8))]
        text = _written(rng, doc if rng.random() < 0.8 else doc[0])
        parsed = jsontext._parsed(text)
        assert parsed is not None
        assert jsontext._streamed(text) == parsed, text


@pytest.mark.parametrize("text", [
    '[1,]x', '[01]', '[1e]', '[1.]', '[-]', '[+1]', '["a\x01"]', '["\\x"]', '["\\u12"]',
    '[nul]', '[True]', '["open', '[1] \\', '["a"\x00]', '[1,2', '{"a":[1}', '[1]]',
])
def test_what_is_not_json_is_not_read(text: str) -> None:
    """A bad token or escape, a raw control character in a string, a stray backslash or NUL,
    and brackets that do not balance: not JSON to either reading."""
    assert jsontext._parsed(text) is None
    assert jsontext._streamed(text) is None


def test_the_streamed_reading_does_not_check_the_grammar_between_tokens() -> None:
    """What docs/record.md says it leaves to the parse: a missing comma or colon passes."""
    assert jsontext._parsed('[1 2]') is None
    assert jsontext._streamed('[1 2]') == "1\n2"
    assert jsontext._streamed('{"a" 1}') == "a\n1"


def test_a_key_written_twice_keeps_both_values_when_streamed() -> None:
    text = '{"a": "first", "b": "between", "a": "last"}'
    assert jsontext._parsed(text) == "last\nbetween"
    assert jsontext._streamed(text) == "first\nbetween\nlast"


def _long(value: str, count: int = MAX_JSON_VALUES + 10) -> bytes:
    return ("[" + ",".join([value] * count) + "]").encode()


def test_a_long_document_is_streamed_with_its_escapes_undone() -> None:
    body = _long('{"title": "Caf\\u00e9 \\"Rosa\\"", "n": 1.50, "gone": null}',
                 MAX_JSON_VALUES // 3 + 10)
    got = extract(body, "application/json", None)
    assert (got.kind, got.error, got.extractor) == ("json", None, STREAMED_EXTRACTOR)
    assert got.page_text == body.decode()
    lines = got.main_text.split("\n")
    assert lines[:4] == ['Café "Rosa"', "1.50", 'Café "Rosa"', "1.50"]
    assert len(lines) == 2 * (MAX_JSON_VALUES // 3 + 10)


def test_a_long_document_that_is_not_json_is_said_to_be() -> None:
    got = extract(_long('"a"') + b" <html>", "application/json", None)
    assert (got.error, got.main_text) == ("invalid_json", "")


def test_streaming_holds_a_slice_at_a_time() -> None:
    """Tiny strings are the costliest shape (a piece, a body and a place in two lists each):
    read a slice at a time they peak at about six times the document, and as one slice (the
    bound taken away) at about 38 times."""
    text = json.dumps(["ab"] * 600_000)
    assert json_values(text)[1]
    tracemalloc.start()
    try:
        values, streamed = json_values(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert streamed and values == "\n".join(["ab"] * 600_000)
    assert peak < 10 * len(text), peak


def test_a_quotation_of_an_escaped_string_in_a_long_document_is_found(
        cli: Cli, server: LocalServer, tmp_path: Path) -> None:
    """Read as the text it was served as, such a document held ``Caf\\u00e9`` where the answer
    quotes the café: the quotation was called not found."""
    place = ('{"name": "Caf\\u00e9 Rosa", "note": "The terrace at Caf\\u00e9 Rosa opens '
             'again on the first of May, the owners said."}')
    body = _long("7")[:-1] + b"," + place.encode() + b"]"  # a long list, the place after it
    url = server.route("/api/places.json", body, headers={"Content-Type": "application/json"})
    answer = tmp_path / "answer.md"
    answer.write_text('The listing says "The terrace at Café Rosa opens again on the first of '
                      'May, the owners said."\n', encoding="utf-8")
    done = cli("capture", url, "--now", "--json", "--answer", str(answer))
    data = done.json()
    assert data["verdict"] == "RETRIEVED", data
    [passage] = data["answer_check"]["passages"]
    assert passage["found"] is True, passage
    assert (data["answer_check"]["outcome"], done.code) == ("found", 0)
