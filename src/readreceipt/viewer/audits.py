"""The viewer's pages for audits of agent sessions (``readreceipt audit``): a list, and one.

An audit is kept in the index as counts and its whole JSON report; these pages read both and
write nothing. Every value, the transcript's passages included, reaches the page escaped
(:mod:`.html`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from readreceipt.errors import RecordNotFound
from readreceipt.store.library import Library
from readreceipt.viewer.html import Markup, join, outbound, page, tag

AUDITS_SHOWN = 200


def _badge(status: str | None, text: str | None = None) -> Markup:
    value = status or "none"
    return tag("span", text or value, class_=f"badge {value}")


def audits(lib: Library, query: Mapping[str, str]) -> bytes:
    rows = lib.index.audits(limit=AUDITS_SHOWN)
    if not rows:
        return page("Audits", tag("p", "No session has been audited yet: run "
                                  "readreceipt audit TRANSCRIPT.", class_="muted"), nav="audits")
    head = tag("thead", tag("tr", *[tag("th", h) for h in (
        "audited (UTC)", "transcript", "session", "pages", "quotations", "on no page")]))
    body = tag("tbody", *[tag(
        "tr",
        tag("td", tag("a", a.audited_at.replace("T", " ")[:19], href=f"/audit/{a.audit_id}")),
        tag("td", a.transcript, class_="url"),
        tag("td", a.session_id or ""),
        tag("td", str(a.pages), class_="num"),
        tag("td", str(a.quotations), class_="num"),
        tag("td", _badge("not_found" if a.not_found else "found", str(a.not_found)),
            class_="num"))
        for a in rows])
    return page("Audits", tag("table", head, body, id="audits"), nav="audits")


def audit_page(lib: Library, audit_id: str) -> bytes:
    row = lib.index.audit(audit_id)
    if row is None:
        raise RecordNotFound(f"no audit {audit_id!r} in {lib.where}", reason="unknown_audit")
    try:
        report: dict[str, Any] = json.loads(row.report)
    except ValueError:
        report = {}
    counts = report.get("counts", {})
    summary = tag("p", (
        f"{counts.get('pages', row.pages)} pages fetched, {counts.get('pages_read', '?')} read; "
        f"{row.quotations} quotations in the assistant's messages, "
        f"{counts.get('found', '?')} found on a page the session read, "
        f"{counts.get('not_found', row.not_found)} on none"
        + (f"; {counts.get('claims')} figures and names attributed to a page, "
           f"{counts.get('claims_not_found', 0)} not on any page as fetched"
           if counts.get("claims") else "") + "."), class_="sentence")
    subagents = [(f"subagent {sub.get('file')}", sub.get("sha256"))
                 for sub in report.get("subagent_transcripts", []) if isinstance(sub, dict)]
    fields = tag("dl", *[item for key, value in (
        ("transcript", row.transcript), ("its SHA-256", report.get("transcript_sha256")),
        *subagents,
        ("session", row.session_id), ("audited at", row.audited_at),
        ("entries read", report.get("entries"))) if value is not None
        for item in (tag("dt", key), tag("dd", str(value)))], class_="fields")
    return page(f"Audit {audit_id}", join([
        summary, fields,
        tag("h2", "Quotations"), _quotes(report.get("quotations", [])),
        tag("h2", "Figures and names attributed to a page"), _claims(report.get("claims", [])),
        tag("h2", "Pages"), _pages(report.get("pages", [])),
        tag("h2", "Searches"), _searches(report.get("searches", [])),
    ]), nav="audits")


def _claims(claims: list[dict[str, Any]]) -> Markup:
    if not claims:
        return tag("p", "No sentence of the assistant's messages that names a source states a "
                        "figure or a name.", class_="muted")
    rows = []
    for c in claims:
        status = str(c.get("status"))
        if status == "not_found":
            said = (f"nearest figure beside the same words: \u201c{c.get('nearest')}\u201d"
                    if c.get("nearest") else "on no page the session read")
        else:
            said = f"\u201c{c.get('match')}\u201d" if c.get("match") else ""
        rows.append(tag("tr", tag("td", str(c.get("kind", ""))),
                        tag("td", "\u201c", str(c.get("text", "")), "\u201d"),
                        tag("td", str(c.get("line", "")), class_="num"),
                        tag("td", _badge(status)),
                        tag("td", outbound(str(c["url"])) if c.get("url") else ""),
                        tag("td", said)))
    head = tag("thead", tag("tr", *[tag("th", h) for h in (
        "kind", "the message says", "line", "outcome", "page", "the page says")]))
    return tag("table", head, tag("tbody", *rows), class_="claims")


def _quotes(quotes: list[dict[str, Any]]) -> Markup:
    if not quotes:
        return tag("p", "The assistant's messages quote nothing.", class_="muted")
    items = []
    for q in quotes:
        status = str(q.get("status"))
        if status == "found":
            where: Markup = join(["on ", outbound(str(q.get("url") or ""))])
            if q.get("record_id"):
                where = join([where, " (", tag("a", "the copy", href=f"/record/{q['record_id']}"),
                              ")"])
        elif status == "not_found" and q.get("nearest"):
            similar = q.get("similarity")
            where = join(["nearest on ", outbound(str(q.get("nearest_url") or "")),
                          f" ({similar:.0f}% similar): " if isinstance(similar, float | int)
                          else ": ", tag("span", "\u201c", q["nearest"], "\u201d",
                                         class_="passage")])
        elif status == "not_found":
            where = Markup("no page of the session holds anything close")
        else:
            where = join(["not checked: ", str(q.get("reason") or "")])
        where_said = f" line {q.get('line')}" + (f" of {q['source']}" if q.get("source")
                                                 else "")
        items.append(tag("div", tag("h3", _badge(status), where_said),
                         tag("div", "\u201c", str(q.get("text") or ""), "\u201d",
                             class_="passage"),
                         tag("div", where), class_=f"quote {status}"))
    return join(items)


def _pages(pages: list[dict[str, Any]]) -> Markup:
    if not pages:
        return tag("p", "The session fetched no page.", class_="muted")
    head = tag("thead", tag("tr", *[tag("th", h) for h in (
        "verdict", "URL", "fetched by", "copy")]))
    rows = []
    for p in pages:
        verdict = p.get("verdict")
        copy: Markup | str
        if p.get("record_id"):
            note = "captured by the audit" if p.get("captured_now") else \
                f"held, fetched {p.get('fetched_at')}"
            copy = join([tag("a", p["record_id"], href=f"/record/{p['record_id']}"), " ", note])
        else:
            copy = str(p.get("error") or "no copy")
        rows.append(tag("tr",
                        tag("td", _badge(verdict, f"{verdict} {p.get('reason')}"
                                         if verdict else "no copy")),
                        tag("td", outbound(str(p.get("url") or "")), class_="url"),
                        tag("td", ", ".join(str(t) for t in p.get("tools", []))),
                        tag("td", copy)))
    return tag("table", head, tag("tbody", *rows))


def _searches(searches: list[dict[str, Any]]) -> Markup:
    if not searches:
        return tag("p", "The session searched nothing.", class_="muted")
    return tag("ul", *[tag("li", "\u201c", str(s.get("query") or ""), "\u201d: ",
                           f"{len(s.get('results', []))} results (links seen, not pages read)")
                       for s in searches])
