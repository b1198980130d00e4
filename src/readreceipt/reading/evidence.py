"""Which entry of a table a page carries, and whether its place on the page lets it count.

An entry of a table (walls.py, notfound.py) counts when the page is thin enough for its gate
(facts.GATES) and its words sit where the page's content would be (placement.py): in the
content, or in the page's own words (title, noscript, alt text). In a form, dialog, aside or
header, where a wall's own box sits, it counts only on a page whose content is within the
entry's gate; in navigation, link lists, teasers, footers, adverts or hidden elements only on
a page that holds nothing else. A password field makes a sign-in wall only when nothing
substantial stands beside its form. The publisher's word (publisher.py) overrules: a page it
calls a teaser lets a paywall's words count wherever they sit; one it calls whole clears
paywall and sign-in words. Whatever is set aside is noted in ``Facts.cleared``.

Invariant: the rule returned begins with the kind of evidence (tables/entries.py,
``EVIDENCE_KINDS``), then names the evidence and where it was found
(``wording:phrase subscriber only (in the content)``).
"""

from __future__ import annotations

from readreceipt.reading.facts import (
    BARE_MAX_MAIN_LETTERS,
    GATES,
    TEASER_MAX_MAIN_LETTERS,
    Compiled,
    Facts,
)
from readreceipt.reading.tables.entries import Entry

__all__ = ["first"]

#: Chrome that may be the wall's own box (placement.py's kinds).
_WALL_BOXES = frozenset({"form", "dialog", "sidebar", "header"})
#: Kinds whose phrases count only where the content is (module docstring of placement.py).
_PLACED_KINDS = frozenset({"login", "paywall", "consent", "interstitial", "challenge",
                           "soft_404", "parked"})
_RULE_KIND = {"markup": "marker", "text": "phrase", "label": "label", "tail": "phrase-at-end"}


#: The gates' bounds on the main text, lowest first: a page's main letters fall in one band
#: between two, and the band alone says which entries' gates can still let them count.
_BOUNDS = tuple(sorted(set(GATES.values())))
#: (table's id, band) -> (the table, its entries a page of that band may still count).
_OPEN: dict[tuple[int, int], tuple[tuple[Compiled, ...], tuple[Compiled, ...]]] = {}
_OPEN_MAX = 256


def open_entries(table: tuple[Compiled, ...], main_letters: int) -> tuple[Compiled, ...]:
    """The entries of ``table``, in order, that a page with ``main_letters`` of main text
    may count: those whose gate is not a bound on the main text (the tail's), whose bound the
    page is within, and a paywall's teaser entries (the publisher's word that the page is
    locked opens them on a page of any length). Every other entry is one :func:`first` would
    pass over (its gate shut, and no lock to open it), so passing over it here is the same
    answer without the entry's own look (a long article skipped over 300 entries one by
    one). The bounds are the gates' own, so the band, not the count, decides."""
    band = sum(1 for bound in _BOUNDS if main_letters > bound)
    key = (id(table), band)
    known = _OPEN.get(key)
    if known is not None and known[0] is table:
        return known[1]
    # The band's highest count stands for it: within a band, every bound is above or below
    # all of its counts alike.
    top = _BOUNDS[band] if band < len(_BOUNDS) else _BOUNDS[-1] + 1
    kept = tuple(c for c in table if c.entry.gate not in GATES or top <= GATES[c.entry.gate]
                 or (c.entry.kind == "paywall" and c.entry.gate == "teaser"))
    if len(_OPEN) >= _OPEN_MAX:  # (the callers' tables are the modules' own few)
        _OPEN.clear()
    _OPEN[key] = (table, kept)
    return kept


def first(f: Facts, table: tuple[Compiled, ...]) -> tuple[Entry, str] | None:
    """The first entry of ``table`` the page allows and carries, with its rule name."""
    long_page = f.main_letters > TEASER_MAX_MAIN_LETTERS
    for c in open_entries(table, f.main_letters):
        f.in_time()
        gate = c.entry.gate
        unlocked = c.entry.kind == "paywall" and gate == "teaser" and f.locked
        if long_page and gate != "tail" and not unlocked:
            continue
        if not (f.allows(gate) or unlocked) or (found := f.matches(c)) is None:
            continue
        # Words are named by what they said; markup patterns, structure and a vendor's fixed
        # template text by their table name (the same evidence on every page that has it).
        name = found if c.entry.where != "markup" and c.entry.evidence == "wording" else \
            c.entry.name
        rule = f"{c.entry.evidence}:{_RULE_KIND.get(c.entry.where, c.entry.where)} {name}"
        judged = _placed(f, c, rule, unlocked)
        if judged is not None:
            return c.entry, judged
    return None


def _placed(f: Facts, c: Compiled, rule: str, unlocked: bool) -> str | None:
    """The rule with where its evidence was found, or None when the place sets it aside."""
    entry = c.entry
    if entry.kind == "challenge" and f.sign_in is not None:
        # A page with a sign-in form is judged by the sign-in rules: a captcha or an "access
        # denied" heading over a password field is a sign-in wall, not a bot check
        # (tests/pages/login/it_devi_essere_registrato.html).
        f.cleared.append(f"{rule} (a sign-in form: the sign-in rules decide)")
        return None
    if entry.kind == "login" and entry.where == "title" and not f.sign_in_form and \
            f.main_letters > BARE_MAX_MAIN_LETTERS:
        # A title is a sign-in page's only with a sign-in form on it: "crate login | Docs",
        # "Kfz-Anmeldung | Stadt" are pages about signing in or registering.
        f.cleared.append(f"{rule} (no sign-in form on the page)")
        return None
    if entry.where not in ("text", "label") or entry.kind not in _PLACED_KINDS:
        return rule
    place = f.place(c)
    # The publisher's own word that the page is a teaser makes a paywall's words count
    # wherever they sit (walls/paywall/bloomberg_*: its label in a list of links).
    teaser = entry.kind == "paywall" and f.publisher.verdict == "teaser"
    if place not in ("content", "own words") and not teaser:
        # A wall's own box may be a form, a dialog, an aside or a header. A paywall's box
        # stands beside its teaser: it counts on a page whose content (by either measure) is
        # within the entry's gate. Any other wall's box stands alone: it counts only when the
        # content beside the box is bare (a cookie dialog beside a short article is a banner:
        # tests/pages/hard_negative/short_article_onetrust_banner.html). Navigation, link
        # lists, teasers, footers, adverts and hidden elements are never the wall itself:
        # there it counts only on a page that holds nothing else.
        if place in _WALL_BOXES and entry.kind == "paywall":
            limit, beside = GATES.get(entry.gate, BARE_MAX_MAIN_LETTERS), f.substance
            if beside > limit and f.main_letters <= limit and f.breaks_off_before(c):
                # The teaser breaks off just before the box: what stands beside it outside
                # the extracted text (an author's bio, a caption) is not more article.
                beside = f.main_letters
                rule = f"{rule}; the text breaks off just before it"
        elif place in _WALL_BOXES:
            limit, beside = BARE_MAX_MAIN_LETTERS, f.beside(place)
        else:
            limit, beside = BARE_MAX_MAIN_LETTERS, f.substance
        if beside > limit:
            f.cleared.append(f"{rule} (only in the {place}, beside {beside} letters of "
                             "content)")
            return None
    if entry.kind in ("paywall", "login") and f.publisher.verdict == "whole":
        f.cleared.append(f"{rule} (publisher: {f.publisher.why})")
        return None
    if teaser:
        rule = f"publisher:{f.publisher.why}; {rule}"
    elif unlocked and not f.allows(entry.gate):
        if place != "content":
            return None
        rule = f"publisher:isAccessibleForFree=false; {rule}"
    where = "the page's own words" if place == "own words" else f"the {place}"
    return f"{rule} (in {where})"
