"""The viewer's pages: retrievals, one retrieval, a URL's history, the flags.

Each function reads the library and returns a document (bytes) made with :mod:`.html`, so
every value from the library is escaped on its way in. Nothing here writes to the library.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from readreceipt.errors import RecordNotFound, UsageError
from readreceipt.history import compare, pair_to_compare, text_versions
from readreceipt.reading.wording import counted, describe
from readreceipt.store.library import Library
from readreceipt.store.protocols import Retrieval, RetrievalFilter
from readreceipt.store.records import Record
from readreceipt.viewer.html import Markup, escape, href, join, outbound, page, tag

PAGE_SIZE = 50
VERDICTS = ("RETRIEVED", "FAILED", "UNKNOWN")
#: The longest filter the viewer takes (a URL policy's own limit); longer is a 400.
MAX_PARAM_CHARS = 2048
#: The furthest a page of the retrievals list may start.
MAX_OFFSET = 100_000_000
#: The most answer checks a record's page shows (the newest), and the most distinct passages
#: it marks in the texts: each mark is a search of both texts, and the answer-check log
#: grows by one entry a ``check`` (1,000 logged checks of 100 passages each on a 1.3 MB
#: text took 122 s and 394 MiB, the viewer answering nothing else meanwhile).
MAX_CHECKS_SHOWN = 20
MAX_MARKS = 400


def _when(iso: str | None) -> str:
    return (iso or "")[:19].replace("T", " ")


def _badge(value: str | None) -> Markup:
    label = value or "none"
    return tag("span", label.replace("_", " "), class_=f"badge {label}")


def _shown(value: object) -> object:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def _date_bound(text: str, *, end: bool) -> str:
    """A yyyy-mm-dd from the form as a fetched_at bound (the whole day when ``end``);
    UsageError (a 400) for anything else."""
    from datetime import date, timedelta

    try:
        day = date.fromisoformat(text.strip())
        if end:
            day += timedelta(days=1)
    except (ValueError, OverflowError):
        raise UsageError(f"{text[:40]!r} is not a date the viewer can filter by (use "
                         "yyyy-mm-dd, before 9999-12-31)", reason="bad_query") from None
    return f"{day.isoformat()}T00:00:00"


def _param(query: Mapping[str, str], name: str, limit: int = MAX_PARAM_CHARS) -> str:
    """A query parameter, trimmed; UsageError (a 400) when longer than ``limit``."""
    value = query.get(name, "").strip()
    if len(value) > limit:
        raise UsageError(f"the {name} filter is longer than {limit} characters",
                         reason="bad_query")
    return value


def _offset(query: Mapping[str, str]) -> int:
    text = query.get("offset", "0").strip() or "0"
    if not text.isdigit() or len(text) > 10 or int(text) > MAX_OFFSET:
        raise UsageError(f"the offset must be a whole number from 0 to {MAX_OFFSET:,}",
                         reason="bad_query")
    return int(text)


# ---------------------------------------------------------------------- the retrievals list

def retrievals(lib: Library, query: Mapping[str, str]) -> bytes:
    verdict = _param(query, "verdict").upper()
    if verdict and verdict not in VERDICTS:
        raise UsageError(f"{verdict[:40]!r} is not a verdict (RETRIEVED, FAILED or UNKNOWN)",
                         reason="bad_query")
    url, session = _param(query, "url"), _param(query, "session")
    since_text, until_text = _param(query, "since"), _param(query, "until")
    since = _date_bound(since_text, end=False) if since_text else None
    until = _date_bound(until_text, end=True) if until_text else None
    offset = _offset(query)
    where = RetrievalFilter(verdict=verdict or None, session_id=session or None,
                            url_like=url or None, since=since, until=until)
    total = lib.index.count_retrievals(where)
    rows = lib.index.retrievals(where, limit=PAGE_SIZE, offset=offset)
    form = _filter_form(verdict, url, session, since_text, until_text)
    summary = tag("p", counted(total, "retrieval") + (" match" if total != 1 else " matches"),
                  class_="muted")
    if not rows:
        body = join([form, summary, tag("p", "Nothing to show.")])
        return page("Retrievals", body, nav="retrievals")
    head = tag("thead", tag("tr", *[tag("th", h) for h in (
        "fetched (UTC)", "verdict", "reason", "answer", "bytes", "URL", "session")]))
    lines = [tag("tr",
                 tag("td", tag("a", _when(r.fetched_at),
                               href=f"/record/{r.record_id}")),
                 tag("td", _badge(r.verdict)),
                 # "wall:login" names the wall; a wall met beside another reason (an HTTP
                 # error status with a sign-in page) is added: "http_403 (login wall)".
                 tag("td", r.reason + (f" ({r.wall} wall)" if r.wall and
                                       not r.reason.startswith("wall:") else "")),
                 tag("td", _badge(r.answer_outcome) if r.answer_outcome else ""),
                 tag("td", f"{r.bytes:,}" + ("" if r.bytes_kept or not r.bytes
                                                else " (not kept)"), class_="num"),
                 tag("td", tag("a", r.url, href=f"/record/{r.record_id}"),
                     tag("div", r.title, class_="muted") if r.title else None,
                     class_="url"),
                 tag("td", r.session_id or ""),
                 class_="row")
             for r in rows]
    params = {"verdict": verdict, "url": url, "session": session, "since": since_text,
              "until": until_text}
    pager = []
    if offset > 0:
        pager.append(tag("a", "\u2190 newer", href=href("/", **params,
                                                       offset=max(0, offset - PAGE_SIZE))))
    if offset + PAGE_SIZE < total:
        pager.append(tag("a", "older \u2192", href=href("/", **params, offset=offset + PAGE_SIZE)))
    shown = tag("span", f"{offset + 1}\u2013{offset + len(rows)} of {total}", class_="muted")
    body = join([form, summary, tag("table", head, tag("tbody", *lines), id="retrievals"),
                 tag("div", shown, *pager, class_="pager")])
    return page("Retrievals", body, nav="retrievals")


def _filter_form(verdict: str, url: str, session: str, since: str, until: str) -> Markup:
    options = [tag("option", "any", value="")] + [
        tag("option", v, value=v, selected=v == verdict) for v in VERDICTS]
    return tag(
        "form",
        tag("label", "verdict", tag("select", *options, name="verdict")),
        tag("label", "URL contains", tag("input", type="search", name="url", value=url)),
        tag("label", "session", tag("input", type="text", name="session", value=session)),
        tag("label", "from (UTC date)", tag("input", type="date", name="since", value=since)),
        tag("label", "to (UTC date)", tag("input", type="date", name="until", value=until)),
        tag("button", "filter", type="submit"),
        method="get", action="/", class_="filters")


# ---------------------------------------------------------------------- one retrieval

def _checks(lib: Library, record: Record) -> list[tuple[str, dict[str, Any]]]:
    """Every answer check of this record: the one made while capturing, then later ones."""
    found: list[tuple[str, dict[str, Any]]] = []
    if record.answer_check:
        found.append((f"checked while capturing, {_when(record.fetched_at)}",
                      record.answer_check))
    for entry in lib.read_log("answer_checks.jsonl"):
        if entry.get("record_id") == record.record_id:
            found.append((f"checked against this copy, {_when(entry.get('at'))}", entry))
    return found


def _highlight(text: str, passages: list[tuple[str, str]]) -> Markup:
    """``text`` escaped, with each (passage, class) found verbatim marked."""
    spans: list[tuple[int, int, str]] = []
    spaced: _Spaced | None = None
    for passage, css in passages:
        if not passage.split():
            continue
        start = text.find(passage)
        if start >= 0:
            spans.append((start, start + len(passage), css))
            continue
        spaced = spaced or _Spaced(text)  # read once, for the first passage that needs it
        found = spaced.find(passage)
        if found is not None:
            spans.append((*found, css))
    spans.sort()
    parts: list[Markup] = []
    cursor = 0
    for start, end, css in spans:
        if start < cursor:
            continue  # overlapping marks: the first one shown is enough
        parts.append(escape(text[cursor:start]))
        parts.append(tag("mark", text[start:end], class_=css))
        cursor = end
    parts.append(escape(text[cursor:]))
    return join(parts)


class _Spaced:
    """``text`` with every run of whitespace read as one space (a nearest passage is reported
    with its line breaks made spaces), and where each word starts in both, so that finding a
    passage any whitespace apart is one ``str.find``: linear however the text repeats itself,
    where a pattern of the passage's words tried at every start cost the text's length times
    the passage's words (a page of ``a a a ...`` and a passage of 300 of them ending in ``b``:
    1 s a mark at 600 KB). The starts are arrays, 16 bytes a word."""

    def __init__(self, text: str) -> None:
        self.joined = _WHITESPACE.sub(" ", text)
        self.text_at = array("q", (m.start() for m in _WORD.finditer(text)))
        self.joined_at = array("q", (m.start() for m in _WORD.finditer(self.joined)))

    def find(self, passage: str) -> tuple[int, int] | None:
        """Where ``passage`` stands in the text, any run of whitespace matching any other."""
        wanted = " ".join(passage.split())
        at = self.joined.find(wanted)
        if at < 0:
            return None
        return self._in_text(at), self._in_text(at + len(wanted) - 1) + 1

    def _in_text(self, at: int) -> int:
        """The place in the text of the (non-space) character at ``at`` of the joined text."""
        word = bisect_right(self.joined_at, at) - 1
        return self.text_at[word] + at - self.joined_at[word]


_WHITESPACE = re.compile(r"\s+")
_WORD = re.compile(r"\S+")


def _passage_block(passage: Mapping[str, Any], record_id: str) -> Markup:
    found = bool(passage.get("found"))
    elsewhere = passage.get("record_id") not in (None, record_id)  # one answer, several pages
    quoted = tag("div", tag("h3", "the answer quotes"),
                 tag("div", "\u201c", str(passage.get("text", "")), "\u201d", class_="passage"),
                 _badge("found" if found else "not_found"),
                 tag("small", f" in the {passage.get('tier')} text" if found and
                     passage.get("tier") else ""))
    if found and elsewhere:
        beside = tag("div", tag("h3", "on another page given"),
                     tag("div", "The passage is on ", str(passage.get("url")), ".",
                         class_="muted"))
    elif found:
        beside = tag("div", tag("h3", "on the page"), tag("div", "The passage is on the page.",
                                                           class_="muted"))
    else:
        similarity = passage.get("similarity")
        sim = f" ({similarity:.0f}% similar)" if isinstance(similarity, int | float) else ""
        nearest = passage.get("nearest")
        beside = tag("div", tag("h3", f"the nearest passage the page holds{sim}"),
                     tag("div", nearest, class_="passage nearest") if nearest else
                     tag("div", "No passage of the page comes close.", class_="muted"))
    return tag("div", quoted, beside, class_=f"quote {'found' if found else 'not_found'}")


_TEXTS = {"main": "main content", "page": "visible text", "table": "a table",
          "metadata": "the publisher's metadata"}


def _claims_block(claims: list[Mapping[str, Any]]) -> Markup:
    """The figures and names an answer stated, each with what the page says."""
    rows = []
    for claim in claims:
        outcome = str(claim.get("outcome"))
        where = _TEXTS.get(str(claim.get("where")), "")
        if outcome in ("found", "approximate"):
            said = claim.get("match") or ""
            how = f" (computed: {claim.get('computed')})" if claim.get("computed") else ""
            beside = tag("span", f"the page says \u201c{said}\u201d" if said else "on the page",
                         f" \u2014 {where}" if where else "", how, class_="muted")
        elif outcome == "not_found":
            nearest = claim.get("nearest")
            beside = tag("span", (f"not on the page as fetched; the nearest figure beside the "
                                  f"same words: \u201c{nearest}\u201d ({where})") if nearest
                         else "not on the page as fetched; the page gives nothing beside "
                              "the same words", class_="muted")
        else:
            beside = tag("span", "not checked (too many in one answer)", class_="muted")
        rows.append(tag("tr", tag("td", str(claim.get("kind", ""))),
                        tag("td", "\u201c", str(claim.get("text", "")), "\u201d"),
                        tag("td", str(claim.get("value", ""))), tag("td", _badge(outcome)),
                        tag("td", beside)))
    head = tag("thead", tag("tr", *[tag("th", h) for h in (
        "kind", "the answer says", "read as", "outcome", "on the page")]))
    return tag("table", head, tag("tbody", *rows), class_="claims")


def record_page(lib: Library, record_id: str) -> bytes:
    record = lib.resolve(record_id)[0]
    main = lib.text(record.text_sha256)
    whole = lib.text(record.page_text_sha256)
    checks = _checks(lib, record)
    hidden = max(0, len(checks) - MAX_CHECKS_SHOWN)
    checks = checks[hidden:]
    sections: list[Markup] = [
        tag("p", describe(record), class_="sentence"),
        tag("p", "Title: ", tag("strong", record.title)) if record.title else Markup(""),
        tag("p", outbound(record.url), " ",
            tag("a", "history of this URL", href=href("/history", url=record.url))),
    ]
    marks: dict[str, str] = {}  # passage -> its class: each distinct passage marked once
    check_parts: list[Markup] = []
    if hidden:
        check_parts.append(tag("p", f"{hidden} earlier checks of this copy are not shown "
                                    "(answer_checks.jsonl holds them all).", class_="muted"))
    for label, check in checks:
        outcome = str(check.get("outcome"))
        reason = check.get("reason")
        head = tag("h3", _badge(outcome), " ", label,
                   f" \u2014 not run: {reason}; this is not a pass" if outcome == "not_run"
                   else "")
        passages = check.get("passages") or []
        claims = check.get("claims") or []
        check_parts.append(tag("section", head,
                               *[_passage_block(p, record.record_id) for p in passages],
                               _claims_block(claims) if claims else Markup(""),
                               class_="check"))
        for p in passages:
            if p.get("record_id") not in (None, record.record_id):
                continue  # checked against several pages, and placed on another
            if p.get("found"):
                marks.setdefault(str(p.get("text", "")), "found")
            elif p.get("nearest"):
                marks.setdefault(str(p["nearest"]), "nearest")
        for c in claims:  # the page's own words, as quotations' are
            if c.get("record_id") not in (None, record.record_id):
                continue
            if c.get("outcome") in ("found", "approximate") and c.get("match"):
                marks.setdefault(str(c["match"]), "found")
            elif c.get("outcome") == "not_found" and c.get("nearest"):
                marks.setdefault(str(c["nearest"]), "nearest")
    sections.append(tag("h2", "Quotations, figures and names checked"))
    sections.extend(check_parts or [tag("p", "No answer was checked against this capture.",
                                         class_="muted")])
    shown = list(marks.items())[:MAX_MARKS]
    sections.append(tag("h2", "Page text (main content)"))
    if main is not None:
        sections.append(tag("div", _highlight(main, shown), class_="text", id="main-text"))
    else:
        sections.append(tag("p", "No text is held: the bytes and texts were not kept, or "
                                 "nothing was extracted.", class_="muted"))
    if whole is not None and whole != main:
        sections.append(tag("details", tag("summary", "Whole visible text of the page"),
                            tag("div", _highlight(whole, shown), class_="text")))
    downloads = [tag("a", "main text (.txt)", href=f"/record/{record.record_id}/text")]
    if lib.body(record) is not None:
        downloads.append(tag("a", "bytes as received (download)",
                             href=f"/record/{record.record_id}/body"))
    sections.append(tag("p", *_spaced(downloads)))
    sections.append(tag("h2", "Record"))
    sections.append(_fields(lib, record))
    return page(f"Retrieval of {record.url}", join(sections))


def _spaced(items: list[Markup]) -> list[Markup]:
    out: list[Markup] = []
    for item in items:
        if out:
            out.append(Markup(" \u00b7 "))
        out.append(item)
    return out


def _fields(lib: Library, record: Record) -> Markup:
    data = record.to_dict()
    headers = data.pop("response_headers", {}) or {}
    data.pop("answer_check", None)
    items: list[Markup] = []
    for key, value in data.items():
        if value in (None, "", [], {}):
            continue
        if key == "redirect_chain":
            value = " \u2192 ".join(f"{hop.get('status')} {hop.get('url')}" for hop in value)
        items += [tag("dt", key), tag("dd", _shown(value))]
    items += [tag("dt", "record file"), tag("dd", lib.record_location(record.record_id))]
    header_rows = [tag("tr", tag("th", k), tag("td", v)) for k, v in headers.items()]
    return join([tag("dl", *items, class_="fields"),
                 tag("h2", "Response headers (secrets never kept)"),
                 tag("table", tag("tbody", *header_rows)) if header_rows else
                 tag("p", "none", class_="muted")])


# ---------------------------------------------------------------------- a URL's history

def history(lib: Library, query: Mapping[str, str]) -> bytes:
    url = _param(query, "url")
    _param(query, "a")
    _param(query, "b")
    rows = lib.index.for_url(url) if url else []
    if not rows:
        raise RecordNotFound(f"no capture of {url or 'that URL'}", url=url or None,
                             reason="unknown_url")
    texts = text_versions(rows)
    by_id = {r.record_id: r for r in rows}
    older, newer = pair_to_compare(rows, query.get("a"), query.get("b"))
    table = tag("table", tag("thead", tag("tr", *[tag("th", h) for h in (
        "fetched (UTC)", "verdict", "reason", "text version", "compare")])), tag("tbody", *[
        tag("tr",
            tag("td", tag("a", _when(r.fetched_at), href=f"/record/{r.record_id}")),
            tag("td", _badge(r.verdict)), tag("td", r.reason),
            tag("td", f"v{texts[r.text_sha256]}"
                if r.text_sha256 in texts else "\u2013"),
            tag("td", tag("a", "as older", href=href("/history", url=url, a=r.record_id,
                                                      b=newer.record_id if newer else None)),
                " \u00b7 ",
                tag("a", "as newer", href=href("/history", url=url, a=older.record_id
                                               if older else None, b=r.record_id))))
        for r in rows]), id="captures")
    parts = [tag("p", outbound(url), f": {counted(len(rows), 'capture')}, "
                 f"{counted(len(texts), 'distinct text')}", class_="sentence"), table]
    parts.append(_diff_section(lib, by_id, older, newer))
    return page("History", join(parts))


def _diff_section(lib: Library, by_id: Mapping[str, Retrieval], older: Retrieval | None,
                  newer: Retrieval | None) -> Markup:
    title = tag("h2", "What changed")
    if older is None or newer is None:
        return join([title, tag("p", "Every capture held says the same thing (or only one "
                                     "has text): there is nothing to compare.",
                                class_="muted")])
    diff = compare(lib, older, newer)
    if diff is None:
        return join([title, tag("p", "The text of one of these captures is no longer held.",
                                class_="muted")])
    caption = tag("p", f"From {_when(older.fetched_at)} to {_when(newer.fetched_at)}: "
                       f"{counted(diff.words_removed, 'word')} removed, "
                       f"{counted(diff.words_added, 'word')} added.",
                  class_="muted")
    rendered = [tag({"del": "del", "ins": "ins"}.get(s.op, "span"), s.text)
                for s in diff.segments]
    return join([title, caption, tag("div", *rendered, class_="text", id="diff")])


# ---------------------------------------------------------------------- the flags

def flags(lib: Library, query: Mapping[str, str]) -> bytes:
    session = _param(query, "session")
    rows = lib.index.flags(limit=500, session_id=session or None)
    if not rows:
        return page("Flags", tag("p", "No quotation has been found missing from its page.",
                                 class_="muted"), nav="flags")
    items = [tag("tr",
                 tag("td", tag("a", _when(r.created_at), href=f"/record/{r.record_id}")),
                 tag("td", tag("a", r.url, href=f"/record/{r.record_id}"), class_="url"),
                 tag("td", "\u201c", r.passage, "\u201d", class_="passage"),
                 tag("td", r.nearest or "\u2013", class_="passage nearest"),
                 tag("td", f"{r.similarity:.0f}%" if r.similarity is not None else "",
                     class_="num"),
                 tag("td", r.session_id or ""),
                 tag("td", f"{_when(r.reported_at)} {r.reported_to or ''}".strip()
                     if r.reported_at else "not yet"))
             for r in rows]
    head = tag("thead", tag("tr", *[tag("th", h) for h in (
        "flagged (UTC)", "URL", "the answer quotes", "the nearest passage the page holds",
        "similar", "session", "told")]))
    intro = tag("p", counted(len(rows), "quotation") + (
        " was not on the page it was" if len(rows) == 1 else " were not on the page they were")
        + " attributed to.", class_="sentence")
    return page("Flags", join([intro, tag("table", head, tag("tbody", *items), id="flags")]),
                nav="flags")
