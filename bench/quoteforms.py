"""Answers in every form of quotation, and realistic misquotes, for bench/quotes.py.

A *faithful* quotation is a sentence or a clause of a page's text, typeset in one form the
way people and models do: the marks of the language (with or without the inner spaces French
puts inside guillemets, U+00A0 or U+202F), a quotation nested inside in the other marks, an
elision at the start, middle or end (``...``, ``…``, ``[...]``, ``[…]``, ``(...)``), an
editorial note (``[sic]``, ``[emphasis added]``), a bracketed capital (``[T]he``), a
bracketed stand-in for a pronoun (``[the mayor]`` for "she"), CJK numerals written in digits.

Both are then written the way a hand varies them (:func:`vary`): a small first letter, the
closing full stop dropped, a word in bold, a no-break or double space, a line wrap.

An *altered* quotation is a faithful one with one realistic change: a number changed, a
negation added or dropped, a qualifier removed ("about", "only", 约, 約, 약…), a word swapped
for a near-synonym, or a name swapped for another name of the same page. A change that
leaves text the page holds is thrown away: a pass on it would not be a false pass.
"""

# ruff: noqa: RUF001, RUF003 - the forms are the look-alike characters themselves
from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable

# ------------------------------------------------------------------------------ the page key

_MARKS = "\"'\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a" \
         "\u300c\u300d\u300e\u300f\uff02\uff07\u301d\u301e\u301f"
# Arabic vowel signs and tatweel, Hebrew points: written or left out at will.
_DIACRITICS = "".join(chr(c) for c in [*range(0x064B, 0x0660), 0x0640, 0x0670,
                                       *range(0x0591, 0x05BE)])
_KEY_MAP = str.maketrans({**{c: None for c in _MARKS + _DIACRITICS}, "\u2013": "-",
                          "\u2014": "-", "\u2212": "-", "\u00ad": None, "\u200b": None})


def key(text: str) -> str:
    """An independent, deliberately simple normal form to decide whether a passage is on a
    page at all (not the module under test): NFKC, case, marks and whitespace removed."""
    text = unicodedata.normalize("NFKC", text).casefold().translate(_KEY_MAP)
    return re.sub(r"\s+", "", text)


# --------------------------------------------------------------------------------- scripts

_HAN = re.compile("[\u4e00-\u9fff\u3400-\u4dbf]")
_KANA = re.compile("[\u3040-\u30ff]")
_HANGUL = re.compile("[\uac00-\ud7a3]")


def script_of(text: str) -> str:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "other"
    counts = {
        "han/kana": sum(1 for c in letters if _HAN.match(c) or _KANA.match(c)),
        "hangul": sum(1 for c in letters if _HANGUL.match(c)),
        "cyrillic": sum(1 for c in letters if "\u0400" <= c <= "\u04ff"),
        "arabic": sum(1 for c in letters if "\u0600" <= c <= "\u06ff"),
        "thai": sum(1 for c in letters if "\u0e00" <= c <= "\u0e7f"),
        "latin": sum(1 for c in letters if c.isascii() or "\u00c0" <= c <= "\u024f"
                     or "\u1e00" <= c <= "\u1eff"),
    }
    return max(counts, key=lambda k: counts[k])


def unspaced(text: str) -> bool:
    return script_of(text) in ("han/kana", "thai")


# ------------------------------------------------------------------------- passages to quote

_SENTENCE = re.compile(r"(?<=[.!?])[\"”»]?\s+|(?<=[。！？])[」』”]?\s*")


def sentences(text: str) -> list[str]:
    """Sentences of a page's text (a line is never crossed), long enough to quote."""
    from readreceipt.quotes.scripts import latin_length

    out = []
    for line in text.split("\n"):
        for s in _SENTENCE.split(line.strip()):
            s = s.strip()
            edited = re.search(r"\.\.\.|…|[\[\]]", s)
            if latin_length(s) >= 34 and len(s) <= 240 and not edited \
                    and (" " in s or unspaced(s)):
                out.append(s)
    return out


_LIST_LIKE = re.compile(r"\s*(?:[-*+\u2014\u2013•]|\d{1,3}[.)]\s|#|\|)")
_SINGLES = re.compile("[\u2018\u2019\u201a\u2039\u203a]")


def quotable(passage: str, form: str) -> bool:
    """Whether a writer could quote ``passage`` in ``form`` unambiguously: its own marks
    paired (a passage that opens a quotation and does not close it is not quoted whole), no
    single marks of its own inside single marks, and as a block no list item."""
    depth = 0
    for mark in _INNER.findall(passage):
        depth += -1 if mark in _CLOSING else 1 if mark in _OPENING else (1 if depth == 0 else -1)
        if depth < 0:
            return False  # closes a quotation opened before the passage
    if depth:
        return False
    if form in ("single curly", "single guillemets", "low-9") and _SINGLES.search(passage):
        return False
    return not (form == "block" and _LIST_LIKE.match(passage))


def fragment(sentence: str, rng: random.Random) -> str:
    """The sentence, or a clause of it cut where a reader would cut: at a comma or, in
    Chinese and Japanese, at a clause mark (never beside a negation)."""
    from readreceipt.quotes.scripts import latin_length

    cuts = [m.end() for m in re.finditer(r"[,;:]\s+|[，、；：]\s*", sentence)]
    if not cuts or rng.random() < 0.5:
        return sentence
    at = rng.choice(cuts)
    part = sentence[at:] if rng.random() < 0.5 else sentence[:at].rstrip(" ,，、;；:：")
    return part if latin_length(part) >= 34 else sentence


# ----------------------------------------------------------------------------- misquotes

# Per language: (negation added: word -> negated), (qualifiers), (near-synonyms).
NEGATE: dict[str, list[tuple[str, str]]] = {
    "en": [(r"\b(is|was|are|were|will|can|has|have|had|did|does|would|should)\b",
            r"\1 not")],
    "de": [(r"\b(ist|war|sind|waren|wird|hat|hatte|kann|haben)\b", r"\1 nicht")],
    "fr": [(r"\b(est|était|a|sont|sera)\b", r"n'\1 pas")],
    "es": [(r"\b(es|era|está|ha|son|fue|será)\b", r"no \1")],
    "pt": [(r"\b(é|foi|está|tem|são|será)\b", r"não \1")],
    "it": [(r"\b(è|era|ha|sono|sarà)\b", r"non \1")],
    "cs": [(r"\bje\b", "není"), (r"\b(byl|byla|bude|má|mají)\b", r"ne\1")],
    "pl": [(r"\b(jest|był|była|będzie|ma|są)\b", r"nie \1")],
    "ru": [(r"(?<!\w)(был|была|было|будет|является|может)(?!\w)", r"не \1")],
    "zh": [("(是|有|会|能|将|已经)", r"不\1")],
    "ja": [("した", "しなかった"), ("です", "ではありません"), ("ある", "ない"),
           ("いる", "いない")],
    "ko": [("했다", "하지 않았다"), ("있다", "없다"), ("된다", "되지 않는다")],
    "th": [("(สามารถ|เห็นด้วย|อนุมัติ|ยอมรับ)", r"ไม่\1")],
    "ar": [("(يوافق|ترتفع|قال)", r"لا \1")],
}
DENEGATE: dict[str, list[tuple[str, str]]] = {
    "en": [(r"\b(not|never) ", ""), (r"n't\b", "")],
    "de": [(r"\bnicht ", ""), (r"\bkeine? ", "eine ")],
    "fr": [(r"\bn[e']\s?(\w+) pas\b", r"\1"), (r"\bn'(\w+) (pas|aucune?)\b", r"\1")],
    "es": [(r"\bno ", "")], "pt": [(r"\bnão ", "")], "it": [(r"\bnon ", "")],
    "pl": [(r"\bnie ", "")], "ru": [(r"(?<!\w)не ", "")], "cs": [(r"\bne(\w)", r"\1")],
    "zh": [("没有", "有"), ("不", ""), ("未", "已"), ("沒有", "有"), ("尚未", "已")],
    "ja": [("しなかった", "した"), ("ない", "る"), ("ません", "ます")],
    "ko": [("않", "하"), ("없", "있"), ("아직 ", "")],
    "th": [("ไม่", "")], "ar": [("لم ", ""), ("لن ", "")],
}
QUALIFIERS: dict[str, list[str]] = {
    "en": ["about ", "only ", "nearly ", "almost ", "more than ", "at least ", "up to ",
           "around ", "some ", "most "],
    "de": ["etwa ", "nur ", "fast ", "rund ", "mehr als ", "mindestens ", "bis zu ", "knapp "],
    "fr": ["près de ", "environ ", "seulement ", "presque ", "plus de ", "au moins "],
    "es": ["unos ", "casi ", "solo ", "sólo ", "más de ", "al menos ", "hasta "],
    "pt": ["cerca de ", "quase ", "apenas ", "mais de ", "pelo menos "],
    "it": ["circa ", "quasi ", "solo ", "più di ", "almeno "],
    "pl": ["około ", "prawie ", "tylko ", "ponad ", "co najmniej "],
    "cs": ["asi ", "téměř ", "jen ", "více než ", "nejméně "],
    "ru": ["около ", "почти ", "только ", "более ", "не менее "],
    "zh": ["约", "大约", "近", "只", "仅", "超过", "至少", "最多", "略"],
    "ja": ["約", "およそ", "ほぼ", "最大", "だけ", "以上"],
    "ko": ["약 ", "거의 ", "최대 ", "이상"],
    "th": ["เกือบ", "กว่า", "ทั้งสิ้น"], "ar": ["نحو ", "قرابة "],
}
SYNONYMS: dict[str, list[tuple[str, str]]] = {
    "en": [("said", "stated"), ("big", "large"), ("rise", "increase"), ("began", "started"),
           ("help", "assist"), ("buy", "purchase"), ("show", "reveal"), ("people", "persons"),
           ("also", "too"), ("new", "novel"), ("chief", "head"), ("quickly", "rapidly"),
           ("make", "create"), ("use", "utilize"), ("company", "firm"), ("city", "town")],
    "de": [("sagte", "erklärte"), ("Stadt", "Gemeinde"), ("groß", "riesig"),
           ("begann", "startete"), ("Jahr", "Jahres"), ("neue", "moderne")],
    "fr": [("a déclaré", "a affirmé"), ("ville", "commune"), ("grand", "important"),
           ("travaux", "chantier"), ("a expliqué", "a précisé")],
    "es": [("dijo", "afirmó"), ("ciudad", "localidad"), ("grande", "enorme"),
           ("empresa", "compañía")],
    "pt": [("disse", "afirmou"), ("cidade", "município"), ("empresa", "companhia")],
    "it": [("ha detto", "ha affermato"), ("città", "comune")],
    "pl": [("powiedział", "stwierdził"), ("szpital", "lecznica"), ("budowa", "inwestycja")],
    "cs": [("řekl", "uvedl"), ("město", "obec")],
    "ru": [("сказал", "заявил"), ("город", "населённый пункт"), ("большой", "крупный")],
    "zh": [("增加", "增长"), ("政府", "当局"), ("表示", "指出"), ("完成", "完工"),
           ("工程", "项目"), ("认为", "指出"), ("下降", "减少"), ("市民", "居民")],
    "ja": [("発表", "公表"), ("会社", "企業"), ("増加", "増大"), ("説明", "解説"),
           ("工事", "工程"), ("市長", "知事"), ("減少", "低下")],
    "ko": [("밝혔다", "말했다"), ("지적했다", "비판했다"), ("주민", "시민"), ("예산", "비용")],
}
_CJK_NUMERAL_NEXT = {"一": "二", "二": "三", "三": "四", "四": "五", "五": "六", "六": "七",
                     "七": "八", "八": "九", "九": "一", "两": "三", "兩": "三"}
_ENTITY = re.compile(r"(?<=[a-z,] )[A-Z][a-zà-ÿ]{2,}|[\u30a0-\u30ff]{3,}")


def alter(passage: str, lang: str, page_text: str,
          rng: random.Random) -> tuple[str, str] | None:
    """One realistic misquote of ``passage`` and its kind, or None when none applies."""
    kinds = ["number", "negation", "qualifier", "synonym", "entity"]
    rng.shuffle(kinds)
    for kind in kinds:
        changed = _ALTER[kind](passage, lang, page_text, rng)
        if changed is not None and changed != passage:
            return changed, kind
    return None


def _number(passage: str, lang: str, page: str, rng: random.Random) -> str | None:
    digits = [m.start() for m in re.finditer(r"\d", passage)]
    numerals = [i for i, c in enumerate(passage) if c in _CJK_NUMERAL_NEXT]
    if not digits and not numerals:
        return None
    i = rng.choice(digits or numerals)
    new = str((int(passage[i]) + rng.randint(1, 8)) % 10) if passage[i].isdigit() \
        else _CJK_NUMERAL_NEXT[passage[i]]
    return passage[:i] + new + passage[i + 1 :]


def _negation(passage: str, lang: str, page: str, rng: random.Random) -> str | None:
    tables = [DENEGATE.get(lang, []), NEGATE.get(lang, [])]
    if rng.random() < 0.5:
        tables.reverse()
    for table in tables:
        options = [(p, r) for p, r in table if re.search(p, passage)]
        if options:
            pattern, repl = rng.choice(options)
            return re.sub(pattern, repl, passage, count=1)
    return None


def _qualifier(passage: str, lang: str, page: str, rng: random.Random) -> str | None:
    present = [q for q in QUALIFIERS.get(lang, []) if q in passage[1:]]
    if not present:
        return None
    q = rng.choice(present)
    at = passage.index(q, 1)
    return passage[:at] + passage[at + len(q) :]


def _synonym(passage: str, lang: str, page: str, rng: random.Random) -> str | None:
    options = [(a, b) for a, b in SYNONYMS.get(lang, []) if re.search(_word(a), passage)]
    options += [(b, a) for a, b in SYNONYMS.get(lang, []) if re.search(_word(b), passage)]
    if not options:
        return None
    a, b = rng.choice(options)
    return re.sub(_word(a), b, passage, count=1)


def _word(word: str) -> str:
    return re.escape(word) if _HAN.search(word) or _KANA.search(word) else \
        rf"(?<!\w){re.escape(word)}(?!\w)"


def _entity(passage: str, lang: str, page: str, rng: random.Random) -> str | None:
    names = [m.group() for m in _ENTITY.finditer(passage)]
    others = sorted({m.group() for m in _ENTITY.finditer(page)} - set(names))
    if not names or not others:
        return None
    name = rng.choice(names)
    return passage.replace(name, rng.choice(others), 1)


_ALTER: dict[str, Callable[[str, str, str, random.Random], str | None]] = {
    "number": _number, "negation": _negation, "qualifier": _qualifier, "synonym": _synonym,
    "entity": _entity,
}

# --------------------------------------------------------------------------------- the forms

# (opening, closing, nested opening, nested closing) of each form of marks.
MARKS: dict[str, list[tuple[str, str, str, str]]] = {
    "straight": [('"', '"', "'", "'")],
    "curly": [("\u201c", "\u201d", "\u2018", "\u2019")],
    "guillemets": [("\u00ab", "\u00bb", "\u201c", "\u201d"),
                   ("\u00ab ", " \u00bb", "\u2039 ", " \u203a"),
                   ("\u00ab\u00a0", "\u00a0\u00bb", "\u201c", "\u201d"),
                   ("\u00ab\u202f", "\u202f\u00bb", "\u00ab\u202f", "\u202f\u00bb")],
    "single guillemets": [("\u2039", "\u203a", "\u201c", "\u201d"),
                          ("\u2039 ", " \u203a", "\u00ab", "\u00bb")],
    "low-9": [("\u201e", "\u201c", "\u201a", "\u2018"), ("\u201e", "\u201d", "\u00ab", "\u00bb"),
              ("\u201a", "\u2018", "\u201e", "\u201c")],
    "nordic": [("\u201d", "\u201d", "\u2019", "\u2019"), ("\u00bb", "\u00ab", "\u203a", "\u2039"),
               ("\u00bb", "\u00bb", "\u2019", "\u2019")],
    "single curly": [("\u2018", "\u2019", "\u201c", "\u201d")],
    "corner": [("\u300c", "\u300d", "\u300e", "\u300f")],
    "white corner": [("\u300e", "\u300f", "\u300c", "\u300d")],
    "full-width": [("\uff02", "\uff02", "\u300c", "\u300d"),
                   ("\uff62", "\uff63", "\u300e", "\u300f"),
                   ("\u301d", "\u301f", "\u300c", "\u300d")],
}
_MARKS_OF_LANG = {"de": "low-9", "cs": "low-9", "pl": "low-9", "fr": "guillemets",
                  "ru": "guillemets", "es": "guillemets", "it": "guillemets", "pt": "curly",
                  "zh": "curly", "ja": "corner", "ko": "straight"}
FORMS = [*MARKS, "block", "elided", "bracketed"]
_INNER = re.compile("[\"\u201c\u201d\u201e\u00ab\u00bb\u300c\u300d\u300e\u300f]")
_OPENING = frozenset("\u201c\u201e\u00ab\u300c\u300e")
_CLOSING = frozenset("\u201d\u00bb\u300d\u300f")


def vary(passage: str, rng: random.Random) -> str:
    """The passage as a writer's hand changes it without changing its words: a small first
    letter, the closing full stop dropped, a word in bold, a no-break or double space, a line
    wrap."""
    p = passage
    if rng.random() < 0.3 and p[:1].isupper() and p[1:2].islower():
        p = p[0].lower() + p[1:]
    if rng.random() < 0.3 and not re.search(r"(?:\.\s?\.\s?\.|…)$", p):
        p = p.rstrip(".\u3002").rstrip()
    if rng.random() < 0.2:
        words = p.split(" ")
        spots = [i for i, w in enumerate(words) if re.fullmatch(r"[^\W\d_]{4,}", w)]
        if spots:
            i = rng.choice(spots)
            words[i] = f"**{words[i]}**"
            p = " ".join(words)
    if rng.random() < 0.15:
        p = p.replace(" ", "\u00a0", 1)
    elif rng.random() < 0.1:
        p = p.replace(" ", "  ", 1)
    if rng.random() < 0.2 and len(p) > 90 and " " in p[60:]:
        at = p.index(" ", 60)
        p = p[:at] + "\n" + p[at + 1 :]
    return p


def typeset(passage: str, form: str, lang: str, rng: random.Random) -> tuple[str, str]:
    """(the answer, the form actually used): ``passage`` quoted in ``form``."""
    passage = vary(passage, rng)
    if form == "block":
        passage = passage.replace("\n", "\n> ")
        return f"The page puts it this way:\n\n> {passage}\n\nThat is the passage.", form
    marks = MARKS.get(form) or MARKS[_MARKS_OF_LANG.get(lang, "curly")]
    opening, closing, inner_open, inner_close = rng.choice(marks)
    body = _nest(passage, inner_open, inner_close)
    if unspaced(passage):
        return f"报道写道{opening}{body}{closing}。", form
    return f"The page says {opening}{body}{closing} and goes on.", form


def _nest(passage: str, opening: str, closing: str) -> str:
    """The page's own quotation marks inside the passage, in the nested form."""
    out, depth = [], 0
    for ch in passage:
        if _INNER.match(ch):
            out.append(opening if depth == 0 else closing)
            depth = 1 - depth
        else:
            out.append(ch)
    return "".join(out)


ELISIONS = ["...", "\u2026", "[...]", "[\u2026]", "(...)", ". . ."]


_NEGATING = re.compile(r"(?<!\w)(?:not|no|never|neither|nor|none|nobody|nothing|nicht|kein\w*|"
                       r"nie\w*|ne|n'|pas|non|nie|не|нет|ни|nem|não|nunca|jamais|ningún|sin|"
                       r"sans|senza|without|cannot)(?!\w)|n['’ʼ]t|[不没沒未无無非别別莫勿]|ない|ません|않|못|없|아니"
                       r"|\u0e44\u0e21\u0e48|(?<!\w)(?:لم|لن|لا)(?!\w)",
                       re.I)
# Where a reader of Chinese or Japanese cuts: after a clause mark or a particle.
_CJK_CUT = re.compile("(?<=[，、。的了是在和与及はがをにでとも])")


def elide(passage: str, rng: random.Random, marks: list[str] | None = None) -> str | None:
    """The passage with a stretch left out: at its start, in the middle or at its end. The
    stretch never begins or ends with a negation (leaving one out would be a misquote)."""
    spaced = not unspaced(passage)
    if spaced:
        cuts = [m.start() for m in re.finditer(" ", passage)]
    else:
        cuts = [m.start() for m in _CJK_CUT.finditer(passage) if 0 < m.start() < len(passage)]
    if len(cuts) < (7 if spaced else 3):
        return None
    mark = rng.choice(marks or ELISIONS)
    where = rng.choice(["start", "middle", "end"])
    third = len(cuts) // 3
    last = cuts[min(len(cuts) - 1, third + max(1, len(cuts) // 4))]
    a, b = {"start": (0, cuts[third]), "end": (cuts[-third - 1], len(passage)),
            "middle": (cuts[third], last)}[where]
    left, gone, right = passage[:a].strip(), passage[a:b].strip(), passage[b:].strip()
    edges = " ".join(gone.split(" ")[:2] + gone.split(" ")[-2:]) if spaced else gone[:3] + gone[-3:]
    if _NEGATING.search(edges) or (not spaced and _NEGATING.match(right)):
        return None
    if spaced:
        return " ".join(part for part in (left, mark, right) if part)
    return f"{left}{mark}{right}"


_PRONOUN = {
    "en": r"\b(he|she|it|they|his|her|its|their)\b", "de": r"\b(er|sie|es|sein|seine|ihr|ihre)\b",
    "fr": r"\b(il|elle|ils|elles|son|sa|ses|leur)\b", "es": r"\b(él|ella|su|sus)\b",
    "pt": r"\b(ele|ela|seu|sua)\b", "it": r"\b(lui|lei|suo|sua)\b", "pl": r"\b(on|ona|jego|jej)\b",
    "zh": "(他|她|它|他们)", "ja": "(彼女|彼ら|彼|同社)",
}


def bracket(passage: str, lang: str, rng: random.Random) -> str | None:
    """The passage with an editorial mark: [sic], [emphasis added], [T]he or a stand-in."""
    kinds = ["sic", "emphasis", "capital", "standin"]
    rng.shuffle(kinds)
    spaced = not unspaced(passage)
    for kind in kinds:
        if kind == "sic" and spaced:
            words = passage.split(" ")
            i = rng.randrange(1, len(words))
            return " ".join([*words[:i], "[sic]", *words[i:]])
        if kind == "emphasis":
            return f"{passage} [emphasis added]" if spaced else f"{passage}[强调为引者所加]"
        if kind == "capital" and spaced and passage[:1].isalpha() and passage[1:2].islower():
            first = passage[0].lower() if passage[0].isupper() else passage[0].upper()
            return f"[{first}]{passage[1:]}"
        if kind == "standin":
            m = re.search(_PRONOUN.get(lang, "$^"), passage)
            if m and m.start() > 0:
                name = {"zh": "市长", "ja": "同市"}.get(lang, "the official")
                return passage[: m.start()] + f"[{name}]" + passage[m.end() :]
    return None


# ------------------------------------------------------------------- the local conventions

# Forms measured apart (with a random stream of their own, so the cases of the forms above do
# not change): how people in each language elide, bracket and type, and the one misquote
# only scripts without spaces allow.
LOCAL_FORMS = ["mixed marks", "elided (local)", "bracketed (full-width)", "typography",
               "negation at the edge"]
#: Elision marks by language: Japanese (中略) and ・・・, Chinese …… and （略）, Russian <...>.
LOCAL_ELISIONS: dict[str, list[str]] = {
    "ja": ["\uff08\u4e2d\u7565\uff09", "\u30fb\u30fb\u30fb", "(\u4e2d\u7565)", "\u2026"],
    "zh": ["\u2026\u2026", "\uff08\u7565\uff09", "(\u7565)", "\u22ef\u22ef"],
    "ru": ["<...>", "<\u2026>", "(...)"], "pl": ["(...)", "[...]", "(\u2026)"],
    "fr": ["[\u2026]", "(\u2026)", " \u2026 "], "de": ["[\u2026]", "(\u2026)", "\u2026"],
}
_TYPOGRAPHY_GROUPS = re.compile("(?<=\\d)[\u00a0\u202f\u2009](?=\\d{3}(?!\\d))")
_TYPOGRAPHY_MARKS = re.compile(f"[{_DIACRITICS}]")
# A negation a quotation may start (Chinese, Thai) or end (Japanese) right beside.
_EDGE_NEGATION = {"zh": re.compile("[不没未]"), "th": re.compile("\u0e44\u0e21\u0e48"),
                  "ja": re.compile("(?:ない|ません|なかった)")}


def local_case(passage: str, form: str, lang: str, kind: str,
               rng: random.Random) -> tuple[str, str | None] | None:
    """(the quotation as typed in ``form``, the change made) for a faithful or an altered
    case; None when the form does not apply to the passage or its language."""
    change = None
    if form == "negation at the edge":
        found = _EDGE_NEGATION.get(lang)
        if kind == "faithful":
            return (passage, None) if found is not None else None
        m = found.search(passage, 1) if found is not None else None
        if m is None:
            return None
        cut = passage[: m.start()] if lang == "ja" else passage[m.end():]
        return cut, "negation"
    if kind == "altered":
        altered = alter(passage, lang, passage, rng)
        if altered is None:
            return None
        passage, change = altered
    if form == "mixed marks":
        return passage, change
    if form == "elided (local)":
        marks = LOCAL_ELISIONS.get(lang)
        edited = elide(passage, rng, marks) if marks else None
        return (edited, change) if edited else None
    if form == "bracketed (full-width)":
        m = re.search(_PRONOUN.get(lang, "$^"), passage) if lang in ("zh", "ja") else None
        if m is None or m.start() == 0:
            return None
        opening, closing = rng.choice([("\uff3b", "\uff3d"), ("\u3014", "\u3015")])
        name = {"zh": "市长", "ja": "同市"}[lang]
        return passage[: m.start()] + f"{opening}{name}{closing}" + passage[m.end():], change
    if form == "typography":
        typed = _TYPOGRAPHY_MARKS.sub("", _TYPOGRAPHY_GROUPS.sub("", passage))
        return (typed, change) if typed != passage else None
    raise ValueError(form)


def typeset_local(passage: str, form: str, lang: str, rng: random.Random) -> str:
    """The answer quoting ``passage`` in a local form (mixed marks: opened curly or low,
    closed straight, as a phone's keyboard leaves them)."""
    if form == "mixed marks":
        opening = rng.choice(["\u201c", "\u201e"])
        body = _nest(vary(passage, rng), "\u2018", "\u2019")
        return f"The page says {opening}{body}\" and goes on."
    return typeset(passage, _MARKS_OF_LANG.get(lang, "curly"), lang, rng)[0]
