"""Folding and matching: what must match, what must never, and the map back to the source."""

# ruff: noqa: RUF001 - the look-alike characters are what these tables are about
from __future__ import annotations

import random

import pytest

from readreceipt.quotes import foldchars, textfold
from readreceipt.quotes.pagereadings import folded_readings, source_readings, tex_rendered
from readreceipt.quotes.textfold import LazyFolded, fold, fold_mapped, fold_text
from readreceipt.quotes.textmatch import (
    Needle,
    PageText,
    boundaries_hold,
    squeeze,
    squeezed_pattern,
)


def found(passage: str, page: str, *, pdf: bool = False) -> bool:
    """Found the way the check finds it: plainly in the text or a reading, or squeezed."""
    return Needle(passage, pdf).found_in(PageText(page, pdf))


# (page says, answer quotes): the same words, typeset differently.
MUST_MATCH = [
    ("He said “we will act now” today.", 'He said "we will act now" today'),
    ("the company’s own report", "the company's own report"),
    ("a result—clear and final", "a result -- clear and final"),
    ("a result—clear and final", "a result - clear and final"),
    ("from 2010–2015 only", "from 2010-2015 only"),
    ("a temperature of −5 degrees", "a temperature of -5 degrees"),
    ("AT&amp;T agreed to the deal", "AT&T agreed to the deal"),
    ("AT&T agreed to the deal", "AT&amp;T agreed to the deal"),
    ("the company&#8217;s report", "the company’s report"),
    ("an extra\u00adordinary claim", "an extraordinary claim"),
    ("zero\u200bwidth joins here", "zerowidth joins here"),
    ("spaced\u00a0out  words\n\nacross lines", "spaced out words across lines"),
    ("THE CAPITALS ARE HERE", "the capitals are here"),
    ("ﬁnal ﬁgures were ﬁne", "final figures were fine"),
    ("Straße is a street", "STRASSE is a street"),
    ("full-width ＡＢＣ １２３ text", "full-width ABC 123 text"),
    ("he waited… and waited", "he waited... and waited"),
    ("the results were clear.", "the results were clear."),
    ("the results were clear, and final", "the results were clear,"),
    ("the *only* way forward", "the only way forward"),
    ("the only way forward", "the *only* way forward"),
    ("the only way forward", "the **only** way forward"),
    ("the only way forward", "the _only_ way forward"),
    ('he called it "a disaster" for us', "he called it 'a disaster' for us"),
    ("the word\ns split by a tag", "the words split by a tag"),  # an extractor split a word
    ("the report , which was late", "the report, which was late"),
    ("area of 10² square metres", "area of 10^2 square metres"),
    ("area of 10² square metres", "area of 10² square metres"),
    ("about 1½ million people", "about 1 1/2 million people"),
    ("a cafe\u0301 on the corner", "a café on the corner"),
    ("Привет, мир — это тест", "привет, мир - это тест"),
    # readings: footnote markers, screen-reader text
    ("the war ended in 1945.[12] Peace followed", "the war ended in 1945. Peace followed"),
    ("the war ended in victory¹ for them", "the war ended in victory for them"),
    ("read the report (opens in a new tab) before voting", "read the report before voting"),
    ("a statement[citation needed] was issued", "a statement was issued"),
    # CJK: full-width and half-width forms, spaces between characters, corner brackets as
    # quotation marks, the wave dash, no word boundaries, numbers written in numerals.
    ("売上は２０２５年に３割増えた", "売上は2025年に3割増えた"),
    ("ｶﾀｶﾅで書かれた社名", "カタカナで書かれた社名"),
    ("政 府 は 予 算 案 を 決 定 し た", "政府は予算案を決定した"),
    ("市長は「橋の工事は遅れた」と述べた", "市長は『橋の工事は遅れた』と述べた"),
    ("他说“我们会在年底前完成”", "他说「我们会在年底前完成」"),
    ("工期は3〜5年の見込み", "工期は3~5年の見込み"),
    ("昨日政府は予算案を決定した", "政府は予算案を決定した"),
    ("政府は予算案を決定した。", "政府は予算案を決定した"),
    ("市はずっと予算案を検討してきた", "市は"),
    ("工程耗资三千五百万元", "工程耗资3500万元"),
    ("二〇二五年三月に完成した", "2025年3月に完成した"),
    ("2025年3月に完成した", "二〇二五年三月に完成した"),
    ("全桥四百八十个支座中的二百一十二个", "全桥480个支座中的212个"),
    ("三百零五人参加", "305人参加"),
    ("그는 회의에 안 갔다고 말했다", "회의에 안 갔다고 말했다"),
    ("시장은 다리 공사가 늦어졌다고 밝혔다", "시장은 다리 공사가 늦어졌다고"),
    ("« la ville a tenu parole »", '"la ville a tenu parole"'),
    ("„Die Stadt hat Wort gehalten“", '"Die Stadt hat Wort gehalten"'),
    # Thousands grouped by a typographic space (no-break, narrow no-break, thin), and
    # grouped in the answer where the page writes the digits together.
    ("les travaux ont coûté 1\u202f200\u202f000 euros", "les travaux ont coûté 1200000 euros"),
    ("обошёлся в 2\u00a0300 миллионов рублей", "обошёлся в 2300 миллионов рублей"),
    ("les travaux ont coûté 1200000 euros", "les travaux ont coûté 1\u202f200\u202f000 euros"),
    # Thai ไม่ glued to a verb negates it, but ใหม่ ("new") and ไม้ ("wood") are other words,
    # and after "หรือไม่ " ("or not") a clause starts afresh.
    ("ประตูระบายน้ำแห่งใหม่ที่คลองบางเขนเปิดใช้แล้ว", "ที่คลองบางเขนเปิดใช้แล้ว"),
    ("สะพานไม้เก่าที่คลองบางเขนถูกรื้อถอนแล้ว", "เก่าที่คลองบางเขนถูกรื้อถอนแล้ว"),
    ("ยังไม่ทราบว่าจะเปิดใช้ทันฤดูฝนหรือไม่ ผู้อำนวยการกล่าวว่าจะช่วยลดระดับน้ำ",
     "ผู้อำนวยการกล่าวว่าจะช่วยลดระดับน้ำ"),
    # Arabic vowel signs and tatweel, Hebrew points: written on one side only.
    ("لَقَدْ وَفَتِ المدينةُ بوعدِها", "لقد وفت المدينة بوعدها"),
    ("لقد وفت المديـــنة بوعدها", "لقد وفت المدينة بوعدها"),
    ("הָעִיר עָמְדָה בְּהַבְטָחָתָהּ", "העיר עמדה בהבטחתה"),
]


@pytest.mark.parametrize(("page", "passage"), MUST_MATCH)
def test_must_match(page: str, passage: str) -> None:
    assert found(passage, page)


# (page says, answer quotes): a different word, number or sign; never found.
MUST_NOT_MATCH = [
    ("growth was 3.5 percent", "growth was 35 percent"),
    ("growth was 3.5 percent", "growth was 3 percent"),
    ("growth was 3.5 percent", "growth was 3."),
    ("it cost 2.5 million", "it cost 5 million"),
    ("a temperature of -5 degrees", "a temperature of 5 degrees"),
    ("a temperature of −5 degrees", "a temperature of 5 degrees"),
    ("a change of ±2 points", "a change of 2 points"),
    ("values x ≤ 10 only", "values x < 10 only"),
    ("values x ≥ 10 only", "values x > 10 only"),
    ("values x < 10 only", "values x ≤ 10 only"),
    ("area of 10² square metres", "area of 102 square metres"),
    ("about 1½ million people", "about 11/2 million people"),
    ("a rise of 5% overall", "a rise of 5 overall"),
    ("about 1,500 people came", "about 1 people came"),
    ("the 3 5-year plans", "the 35-year plans"),
    ("the 35-year plans", "the 3 5-year plans"),
    ("the service retried twice", "the service retried three times"),
    ("the plan was approved", "the plan was not approved"),
    ("the plan was not approved", "the plan was approved"),
    ("ten people came to the meeting", "often people came to the meeting"),
    ("often people came to the meeting", "ten people came to the meeting"),
    ("the threefold rise in prices", "the three rise in prices"),
    ("in 2019 the rate rose", "in 2018 the rate rose"),
    ("version 10.2 is out now", "version 10 is out now"),
    ("he won 60 percent of votes", "he won 6 percent of votes"),
    ("he won 6 percent of votes", "he won 60 percent of votes"),
    ("quick brown fox jumps", "brown quick fox jumps"),
    # No word boundaries in Chinese and Japanese, but never past a negation: 不 没 未 before
    # the words, ない ません after them; Korean 안 못 before, 않 못 없 아니 after.
    ("他不同意这个计划的第二部分", "同意这个计划的第二部分"),
    ("他没有完成这项工程", "有完成这项工程"),
    ("市议会尚未批准下一阶段的改造计划", "批准下一阶段的改造计划"),
    ("这座桥非常安全，并非危险", "危险"),
    ("市長は計画に同意しなかった", "市長は計画に同意し"),
    ("市長は計画に同意しない方針だ", "市長は計画に同意"),
    ("この問題は重要ではない", "この問題は重要"),
    ("駅前広場の整備は終わっていません", "駅前広場の整備は終わっていま"),
    ("駅前広場の整備は終わっていない", "駅前広場の整備は終わって"),
    ("この料理は食べられない", "この料理は食べ"),
    ("来年度の予算がない", "来年度の予算"),
    ("그는 회의에 안 갔다고 말했다", "갔다고 말했다"),
    ("그는 회의에 못 갔다고 말했다", "갔다고 말했다"),
    ("그는 회의에 가지 않았다고 말했다", "그는 회의에 가지"),
    ("도서관에는 주차 공간이 없다", "도서관에는 주차 공간이"),
    ("그는 학생이 아니다", "그는 학생이"),
    # A different number in CJK numerals or full-width digits never matches.
    ("工程耗资三千五百万元", "工程耗资3600万元"),
    ("工程耗资3500万元", "工程耗资三千六百万元"),
    ("二〇二五年三月に完成した", "2024年3月に完成した"),
    ("五六个人参加了会议", "56个人参加了会议"),  # five or six, not 56
    ("工期三十年", "工期3年"),
    ("工期十三年", "工期10年"),
    ("工期三年", "工期4年"),
    ("売上は２０２５年に", "売上は2026年に"),
    ("価格は35円", "価格は3。"),
    ("市長は「橋の工事は2年遅れた」", "市長は『橋の工事は3年遅れた』"),
    ("工期は3〜5年の見込み", "工期は3~6年の見込み"),
    ("« la ville a tenu parole en 2024 »", '"la ville a tenu parole en 2025"'),
    # The Arabic marks folded away end where the Arabic-Indic digits begin (U+0660, the digit zero).
    ("بلغت التكلفة ٤٥٠ مليون دينار", "بلغت التكلفة ٤٥ مليون دينار"),
    # Thai, Lao and Khmer write their negation glued to the verb: never cut off.
    ("ชาวบ้านบางส่วนไม่เห็นด้วยกับการปิดถนนเลียบคลอง", "เห็นด้วยกับการปิดถนนเลียบคลอง"),
    ("ຊາວບ້ານບໍ່ເຫັນດີກັບການປິດຖະໜົນ", "ເຫັນດີກັບການປິດຖະໜົນ"),
    ("អ្នកភូមិមិនយល់ព្រមនឹងការបិទផ្លូវ", "យល់ព្រមនឹងការបិទផ្លូវ"),
    ("អ្នកភូមិពុំយល់ព្រមនឹងការបិទផ្លូវ", "យល់ព្រមនឹងការបិទផ្លូវ"),
    # Thousands grouped by a typographic space lose the space, nothing else: never a digit
    # changed, never two numbers joined (a four-digit year before a group of three), never
    # a group after a decimal point.
    ("les travaux ont coûté 1\u202f200\u202f000 euros", "les travaux ont coûté 1300000 euros"),
    ("les travaux ont coûté 1\u202f200\u202f000 euros", "les travaux ont coûté 1200 000 euros"),
    ("en 2019\u00a0300 personnes sont venues", "en 2019300 personnes sont venues"),
    ("en 2019300 personnes sont venues", "en 2019\u00a0300 personnes sont venues"),
    ("un indice de 12.345\u00a0678 points", "un indice de 12.345678 points"),
    ("un total de 1\u00a0234\u00a05678 votes", "un total de 1234 5678 votes"),
]


@pytest.mark.parametrize(("page", "passage"), MUST_NOT_MATCH)
def test_must_not_match(page: str, passage: str) -> None:
    assert not found(passage, page)


def test_pdf_line_end_hyphen_is_ignored_on_both_sides() -> None:
    page = "the har-\nbour was well-\nknown to all sailors"
    assert found("the harbour was well-known to all sailors", page, pdf=True)
    assert found("the harbour was wellknown to all sailors", page, pdf=True)
    # Not in a web page, and never beside a digit.
    assert not found("the harbour was well-known to all sailors", page, pdf=False)
    assert not found("a range of 510 units", "a range of 5-\n10 units", pdf=True)


def test_tex_reads_as_rendered() -> None:
    page = r"We find $\kappa = 0.36$ and $\alpha \leq 0.5$ for \textbf{six models}."
    assert found("We find κ = 0.36 and α ≤ 0.5 for six models", page)
    assert not found("We find κ = 0.35 and α ≤ 0.5 for six models", page)
    assert not found("We find κ = 0.36 and α < 0.5 for six models", page)
    rendered = tex_rendered(r"$10^{3}$ and $30^\circ$ and $\unknown{x}$")
    assert rendered == r"10^3 and 30° and \unknownx"
    # An amount in dollars is not TeX and stays as typed.
    assert tex_rendered("it cost $5 and then $10") == "it cost $5 and then $10"


def test_fold_keeps_signs_digits_and_relations() -> None:
    text = "−5 +3 ±2 ≤ ≥ < > 3.5 10² 1½ 50% ≠ ≈"
    assert fold(text) == "-5 +3 ±2 ≤ ≥ < > 3.5 10^2 1 1/2 50% ≠ ≈"


def test_squeeze_keeps_numbers_apart_and_signs() -> None:
    assert squeeze(fold('He said: "3 5-year plans" *now*'), digit_gaps=True) == \
        "hesaid:3\x005-yearplansnow"
    assert squeeze(fold('He said: "3 5-year plans" *now*')) == "hesaid:35-yearplansnow"
    assert squeeze(fold("a well-known 5-10 range"), pdf=True) == "awellknown5-10range"


def test_squeezed_pattern_checks_word_ends() -> None:
    hay = fold("often people came to the meeting")
    assert squeezed_pattern(squeeze(fold("ten people came"))).search(hay) is None
    assert squeezed_pattern(squeeze(fold("often people came"))).search(hay) is not None
    hay = fold("growth of 3.5 percent")
    assert squeezed_pattern(squeeze(fold("growth of 3"))).search(hay) is None
    hay = fold("the 3 5-year plans")
    assert squeezed_pattern(squeeze(fold("the 35-year plans"))).search(hay) is None
    marked = squeeze(fold("the 3 5-year plans"), digit_gaps=True)
    assert squeezed_pattern(marked).search(hay) is not None
    assert squeezed_pattern(marked).search(fold("the 35-year plans")) is None


@pytest.mark.parametrize(
    ("hay", "span", "holds"),
    [
        ("ten people", (0, 3), True),
        ("often people", (2, 5), False),
        ("rose 3.5 points", (5, 6), False),
        ("rose 13 points", (6, 7), False),
        ("fell -5 points", (6, 7), False),
        ("rose 5% points", (5, 6), False),
        ("rose 5. points", (5, 6), True),
        ("1,500 people", (2, 5), False),
    ],
)
def test_boundaries(hay: str, span: tuple[int, int], holds: bool) -> None:
    assert boundaries_hold(hay, *span) is holds


SAMPLE = "abcXYZ  \n\t-—–&;#0123456789.,\"“”’'…½²ﬁßΐé\u0301\u00adПривет¼ "
PIECES = [*SAMPLE, "&amp;", "&nbsp;", "&NBSP;", "&#8217;", "&eacute;", "--", "&bogus;",
          "&Prime;", "&prime;", "&#45;", "&hellip;", "&#32;", "&Tab;"]


def random_texts(count: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)  # noqa: S311 - reproducible test input, not a secret
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40))) for _ in range(count)]


def test_fast_path_and_general_path_agree() -> None:
    checked = 0
    for text in random_texts(4000):
        work = textfold._OTHER_SPACE.sub(" ", text.replace("\n", " "))
        cased = textfold._cased_one_to_one(work)
        if cased is not None:
            checked += 1
            assert textfold._fold_simple(text, cased).text == \
                foldchars.fold_general(text, work).text, text
    assert checked > 100


def test_fold_without_a_map_is_the_same_fold() -> None:
    for text in random_texts(4000, seed=11):
        assert fold_text(text) == fold_mapped(text).text, text


def test_long_texts_are_folded_in_pieces_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [" ".join(random_texts(60, seed=seed)) for seed in range(20)]
    whole = [(fold_mapped(t), fold_text(t)) for t in texts]
    monkeypatch.setattr(textfold, "PIECE_CHARS", 40)
    monkeypatch.setattr(textfold, "SMALL_PIECE_CHARS", 8)
    for text, (mapped, plain) in zip(texts, whole, strict=True):
        pieces = fold_mapped(text)
        assert pieces.text == mapped.text == fold_text(text) == plain
        for i in range(0, len(pieces.text), 7):
            assert pieces.source_span(i, i + 5) == mapped.source_span(i, i + 5)


def test_lazy_map_is_the_map(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textfold, "PIECE_CHARS", 40)
    monkeypatch.setattr(textfold, "SMALL_PIECE_CHARS", 8)
    for seed in range(10):
        text = " ".join(random_texts(50, seed=seed))
        lazy, mapped = LazyFolded(text), fold_mapped(text)
        assert lazy.text == mapped.text
        for i in range(0, len(lazy.text), 5):
            assert lazy.source_span(i, i + 9) == mapped.source_span(i, i + 9)
    assert LazyFolded("").text == ""


def test_map_points_at_the_characters_that_folded() -> None:
    for text in random_texts(3000, seed=9):
        folded = fold_mapped(text)
        assert folded.text.strip() == fold(text)
        for i in range(len(folded.text)):
            a, b = folded.source_span(i, i + 1)
            assert 0 <= a < b <= len(text)
            # The source characters fold to (at least) this character.
            assert folded.text[i] in fold_mapped(text[a:b]).text or folded.text[i] == " ", (
                text, i)


def test_map_on_a_real_paragraph() -> None:
    text = "Le café “Chez Léon” — ouvert\u00a0en 1950 — a fermé&nbsp;hier. Voilà ﬁni…"
    folded = fold_mapped(text)
    at = folded.text.index("ouvert en 1950")
    a, b = folded.source_span(at, at + len("ouvert en 1950"))
    assert text[a:b] == "ouvert\u00a0en 1950"
    at = folded.text.index("fini...")
    a, b = folded.source_span(at, at + len("fini..."))
    assert text[a:b] == "ﬁni…"
    at = folded.text.index("fermé hier")
    a, b = folded.source_span(at, at + len("fermé hier"))
    assert text[a:b] == "fermé&nbsp;hier"


def test_every_unicode_space_is_a_space() -> None:
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    assert {ch for ch in spaces if textfold._OTHER_SPACE.match(ch)} == set(spaces) - {" ", "\n"}
    assert fold("a" + "".join(spaces) + "b") == "a b"
    for ch in spaces:
        assert fold(f"a{ch}b") == "a b"


def test_readings_only_when_they_differ() -> None:
    assert folded_readings(fold("plain text with nothing to remove")) == []
    assert folded_readings(fold("a claim[3] here")) == ["a claim here"]
    assert source_readings("plain text, no TeX, not a PDF", pdf=True) == []
