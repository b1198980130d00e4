"""The direct record reader (store/recordparse.py) against PyYAML.

It must read what PyYAML reads from every record the writer makes, and read nothing else:
on any other text it answers None, and PyYAML reads the text as before. The second half is
the one that matters for a tampered library: an edited record is held, by Hypothesis, to
"None or exactly what PyYAML reads".
"""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readreceipt.store import recordparse, recordyaml
from readreceipt.store.records import MAX_RECORD_VALUES, Record

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SETTINGS = settings(max_examples=400, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def pyyaml(text: str) -> object:
    return yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader


def _record(**changes: object) -> Record:
    base = Record(record_id="20261201T101500Z-0a1b2c3d", url="https://example.com/a?b=1#c",
                  final_url="https://example.com/a", fetched_at="2026-12-01T10:15:00.123456Z",
                  http_status=200, content_type="text/html", charset="utf-8", bytes=1234,
                  bytes_sha256="a" * 64, verdict="RETRIEVED", reason="ok",
                  response_headers={"content-type": "text/html", "x-thing": "null"},
                  title="A title: with a colon, 'quotes' and \"double\" ones")
    return base.replace(**changes)


SHAPES = {
    "plain": _record(),
    "long folded title": _record(title=" ".join(["word"] * 60) + " end"),
    "long quoted title": _record(title="'" + " ".join(["it's"] * 50)),
    "strings YAML reads otherwise": _record(detail="null", prompt="123", agent_id="yes",
                                            session_id="1.5", rule="2026-01-01"),
    "empty and odd strings": _record(detail="", prompt="- a list? no", agent_id="#hash",
                                     session_id="a: b", rule="trailing space "),
    "unicode": _record(title="Ünïcödé \u2013 \u201cquotes\u201d 日本語の見出し 🎉",
                       detail="\u00a0nbsp"),
    "redirects and blocked requests": _record(
        redirect_chain=[{"url": "http://example.com/", "status": 301,
                         "location": "https://example.com/a"}],
        blocked_requests=[{"url": "http://10.0.0.1/x", "reason": "private address"},
                          {"url": "https://t.example/p.js", "reason": "off the page's host"}]),
    "answer check": _record(answer_check={
        "outcome": "not_found", "quotations": 2, "found": 1, "overlap": 0.25,
        "claims": [{"kind": "figure", "text": "84,000 crossings", "value": 84000.0,
                    "outcome": "not_found", "where": None, "nearest": "94,000 crossings"}],
        "results": []}),
    "line breaks and tabs (PyYAML writes these)": _record(detail="one\ntwo\tthree",
                                                          prompt="NEL\x85here"),
}


def test_every_record_shape_reads_as_pyyaml_reads_it() -> None:
    read_directly = 0
    for name, record in SHAPES.items():
        text = record.to_yaml()
        got = recordparse.load(text, MAX_RECORD_VALUES)
        if got is not None:
            read_directly += 1
            assert got == pyyaml(text), name
        assert Record.from_yaml(text) == Record.from_dict(pyyaml(text)), name
    # only the record PyYAML wrote (a line break, a tab, NEL) is left to PyYAML
    assert read_directly == len(SHAPES) - 1


def test_what_only_pyyaml_writes_is_left_to_pyyaml() -> None:
    data = _record(detail="one\ntwo").to_dict()
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    assert recordparse.load(text, MAX_RECORD_VALUES) is None


_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-10**20, 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=160),
    st.text(alphabet=" ab'\":#-?,[]{}&*!|>%@`", max_size=40),
    st.sampled_from(["null", "~", "yes", "No", "on", "0x1f", "012", "1_000", "1e3", ".inf",
                     "2026-01-01", "2026-01-01T00:00:00Z", "<<", "=", "- x", "a: b", "a #b"]))
_keys = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True)
_values = st.recursive(_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)), max_leaves=12)
_records = st.dictionaries(_keys, _values, min_size=1, max_size=8)


@SETTINGS
@given(_records)
def test_what_the_writer_writes_reads_back_as_pyyaml_reads_it(data: dict[str, object]) -> None:
    text = recordyaml.dump(data)
    if text is None:
        return
    got = recordparse.load(text, MAX_RECORD_VALUES)
    assert got is not None  # the reader takes every shape the writer makes
    assert got == pyyaml(text)


_EDITS = st.lists(st.tuples(st.sampled_from(["insert", "delete", "dup"]),
                            st.integers(0, 10**6),
                            st.sampled_from(list(" \n\t'\":#-?,[]{}&*!|>%@`~a0.\\"))),
                  min_size=1, max_size=4)


def _edited(text: str, edits: list[tuple[str, int, str]]) -> str:
    for kind, at, ch in edits:
        at %= len(text) + 1
        if kind == "insert":
            text = text[:at] + ch + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + 1:]
        else:  # the line holding ``at`` twice
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end < 0 else end + 1
            text = text[:end] + text[start:end] + text[end:]
    return text


@SETTINGS
@given(_records, _EDITS)
def test_an_edited_record_is_read_as_pyyaml_reads_it_or_left_to_it(
        data: dict[str, object], edits: list[tuple[str, int, str]]) -> None:
    text = recordyaml.dump(data)
    if text is None:
        return
    edited = _edited(text, edits)
    got = recordparse.load(edited, MAX_RECORD_VALUES)
    if got is None:
        return
    # accepted: then PyYAML reads the same text without an error, and the same values
    assert got == pyyaml(edited)


@SETTINGS
@given(st.sampled_from(list(SHAPES.values())), _EDITS)
def test_an_edited_real_record_is_read_as_pyyaml_reads_it_or_left_to_it(
        record: Record, edits: list[tuple[str, int, str]]) -> None:
    edited = _edited(record.to_yaml(), edits)
    got = recordparse.load(edited, MAX_RECORD_VALUES)
    if got is not None:
        assert got == pyyaml(edited)


def test_texts_not_in_the_writer_s_form_are_left_to_pyyaml() -> None:
    for text in ("a: 1 # a comment\n", "a: &x [1]\nb: *x\n", "a: \"q\"\n", "a: |\n  x\n",
                 "a: 0x10\n", "a: 2026-01-01\n", "a: 1\na: 2\n", "a:\n   b: 1\n", "a:\tb\n",
                 "a: x\n\n", "---\na: 1\n", "a: [1, 2]\n", "a: 'x\n\n  y'\n", "a: x  \n",
                 "a: long\n  - not a list\n", "a:\n  - indented list\n", "? a\n: b\n",
                 "a: x \n  y\n", "a: 'x \n  y'\n"):
        assert recordparse.load(text, MAX_RECORD_VALUES) is None, text


def test_deep_nesting_and_many_values_are_left_to_pyyaml() -> None:
    deep = "".join("  " * i + "a:\n" for i in range(5000)) + "  " * 5000 + "a: 1\n"
    assert recordparse.load(deep, MAX_RECORD_VALUES) is None  # no RecursionError
    many = "".join(f"k{i}: {i}\n" for i in range(200))
    assert recordparse.load(many, 100) is None
    assert recordparse.load(many, 1000) == pyyaml(many)
