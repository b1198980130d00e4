"""Edited quotations: elisions, editorial notes and bracketed stand-ins, in several scripts."""

# ruff: noqa: RUF001, RUF003 - pages and comments are typeset as their languages are
from __future__ import annotations

import pytest

from readreceipt.quotes.edits import ELISION_GAP_CHARS, JOIN_GAP_CHARS, parse
from readreceipt.quotes.quotations import PassageResult, check_answer_text, flag_message

PAGE = (
    "The retrofit of the harbour bridge took four years and was finished in the spring of "
    "2026, two years later than promised. Engineers replaced 212 of the 480 bearings, and "
    "the council said it was not worried about the delay. \"We did not make the bridge "
    "stronger, we made it more forgiving,\" said the chief engineer, Ana Ruiz.\n\n"
    "Traffic returned within a week. No one was hurt during the works. About 60,000 vehicles "
    "cross it every day, and the limit "
    "will rise from 50 to 70 km/h once the safety review ends in March.\n\n"
    "La rénovation du pont s’est achevée mardi. « Nous n’avons pas rendu le pont plus "
    "solide, nous l’avons rendu plus souple », a expliqué l’ingénieure en chef.\n\n"
    "南江大桥加固工程昨日正式完工，比原计划晚了两年。市政府表示，工程共耗资三千五百万元，其中约四成来自"
    "中央财政补贴。他说，大桥在未来五十年内不需要再次大规模维修。\n\n"
    "北浜駅の改良工事が完了し、新しい駅舎の利用が始まった。鉄道会社は「工事の遅れは地盤の状態が想定より"
    "悪かったためで、安全上の問題はなかった」と説明した。\n\n"
    "Мэр заявил, что город сдержал слово, хотя ремонт моста занял больше времени, чем "
    "планировалось, и обошёлся в 35 миллионов рублей.\n\n"
    "กรุงเทพมหานครเปิดใช้ประตูระบายน้ำแห่งใหม่ที่คลองบางเขน ชาวบ้านบางส่วนไม่เห็นด้วยกับการปิดถนน "
    "เพราะต้องใช้เวลาเดินทางเพิ่มขึ้น สำนักงานเขตยอมรับว่าแผนเดิมต้องปรับปรุงเส้นทางเลี่ยง"
)


def check(quoted: str) -> PassageResult:
    result = check_answer_text(f"The page says “{quoted}” and more.", main_text=PAGE,
                               page_text=PAGE)
    assert result.outcome != "not_run", quoted
    (passage,) = result.passages
    return passage


# (the quotation as edited, found): faithful edits are found and say edited; a misquote
# hidden in or by an edit is not found.
EDITED = [
    # Elisions: every mark, at the start, in the middle, at the end.
    ("took four years … two years later than promised", True),
    ("took four years ... two years later than promised", True),
    ("took four years [...] two years later than promised", True),
    ("took four years […] two years later than promised", True),
    ("took four years (...) two years later than promised", True),
    ("took four years . . . two years later than promised", True),
    ("… was finished in the spring of 2026, two years later than promised", True),
    ("The retrofit of the harbour bridge took four years and was finished …", True),
    ("The retrofit of the harbour bridge took four years … Engineers replaced 212 of the "
     "480 bearings", True),
    ("took four years … later than promised", True),  # two short pieces, one sentence
    ("南江大桥加固工程昨日正式完工……工程共耗资三千五百万元", True),
    ("北浜駅の改良工事が完了し…新しい駅舎の利用が始まった", True),
    ("Nous n’avons pas rendu le pont plus solide […] plus souple", True),
    # Each language's own conventions: Japanese (中略) and ・・・, Chinese （略）, Russian <…>,
    # and full-width or tortoise-shell brackets around a stand-in (［同社は］, 〔市は〕).
    ("北浜駅の改良工事が完了し（中略）新しい駅舎の利用が始まった", True),
    ("北浜駅の改良工事が完了し(中略)新しい駅舎の利用が始まった", True),
    ("北浜駅の改良工事が完了し・・・新しい駅舎の利用が始まった", True),
    ("南江大桥加固工程昨日正式完工（略）工程共耗资三千五百万元", True),
    ("город сдержал слово <...> обошёлся в 35 миллионов рублей", True),
    ("город сдержал слово <…> обошёлся в 35 миллионов рублей", True),
    ("［鉄道会社は］工事の遅れは地盤の状態が想定より悪かったためで", True),
    ("〔鉄道会社は〕工事の遅れは地盤の状態が想定より悪かったためで", True),
    # Editorial notes dropped; a bracketed capital; a bracketed stand-in.
    ("took four years [sic] and was finished in the spring of 2026", True),
    ("took four years and was finished in the spring of 2026 [emphasis added]", True),
    ("[T]he retrofit of the harbour bridge took four years", True),
    ("[t]raffic returned within a week. No one was hurt during the works", True),
    ("Engineers replaced 212 of the [bridge's] 480 bearings", True),
    ("About 60,000 vehicles cross [the bridge] every day", True),
    ("[The council] said it was not worried about the delay", True),
    ("We did not make the bridge stronger, we made [the bridge more flexible].", True),
    # Misquotes in a piece: a number, a negation, a word.
    ("took four years … three years later than promised", False),
    ("took five years … two years later than promised", False),
    ("… was finished in the spring of 2025, two years later than promised", False),
    ("the council said it was worried [sic] about the delay", False),
    ("Engineers replaced 212 of the [bridge's] 840 bearings", False),
    ("南江大桥加固工程昨日正式完工……工程共耗资三千六百万元", False),
    ("Nous avons rendu le pont plus solide […] plus souple", False),
    ("北浜駅の改良工事が完了し（中略）古い駅舎の利用が始まった", False),
    ("南江大桥加固工程昨日正式完工（略）工程共耗资三千六百万元", False),
    ("город сдержал слово <...> обошёлся в 53 миллиона рублей", False),
    ("［鉄道会社は］工事の遅れは地盤の状態が想定より良かったためで", False),
    # Pieces out of order, or further apart than a paragraph.
    ("two years later than promised … took four years and was finished", False),
    # An elision or a stand-in may not hide a negation, nor a stand-in a number.
    ("We did … make the bridge stronger, we made it more forgiving", False),
    ("the council said it was … worried about the delay", False),
    ("the council said it [was] worried about the delay", False),
    ("Engineers replaced [the] 480 bearings, and the council said", False),
    ("Engineers replaced [about half] of the 480 bearings", False),
    ("大桥在未来五十年内……需要再次大规模维修", False),
    # Thai: the stretch left out may hold a negation inside a clause (not at its edges),
    # but may not drop the ไม่ glued to the quoted verb.
    ("กรุงเทพมหานครเปิดใช้ประตูระบายน้ำแห่งใหม่ที่คลองบางเขน … "
     "สำนักงานเขตยอมรับว่าแผนเดิมต้องปรับปรุงเส้นทางเลี่ยง", True),
    ("ชาวบ้านบางส่วน…เห็นด้วยกับการปิดถนน เพราะต้องใช้เวลาเดินทางเพิ่มขึ้น", False),
    # ...nor may a stand-in cover it, unless the stand-in negates too.
    ("ชาวบ้านบางส่วน[เห็นด้วย]กับการปิดถนน เพราะต้องใช้เวลาเดินทางเพิ่มขึ้น", False),
    ("ชาวบ้านบางส่วน[ไม่พอใจ]กับการปิดถนน เพราะต้องใช้เวลาเดินทางเพิ่มขึ้น", True),
    # …but a whole sentence that starts with a negation may be left out.
    ("Traffic returned within a week. … About 60,000 vehicles cross it every day", True),
    ("Traffic returned within a week … About 60,000 vehicles cross it every day", True),
    # A stand-in covers a few words, not a clause.
    ("took four years [and it was] two years later than promised", False),
]


@pytest.mark.parametrize(("quoted", "found"), EDITED)
def test_edited_quotations(quoted: str, found: bool) -> None:
    passage = check(quoted)
    assert passage.found is found
    assert passage.edited


def test_a_quotation_that_reproduces_the_pages_own_marks_is_not_edited() -> None:
    page = "He waited… and waited [for hours] before the bridge opened again to traffic."
    answer = 'He wrote "He waited… and waited [for hours] before the bridge opened again".'
    (passage,) = check_answer_text(answer, main_text=page, page_text=page).passages
    assert (passage.found, passage.edited) == (True, False)


def test_not_found_names_the_missing_piece_and_its_nearest_passage() -> None:
    passage = check("The retrofit of the harbour bridge took four years … Engineers replaced "
                    "312 of the 480 bearings")
    assert not passage.found
    assert passage.missing == "Engineers replaced 312 of the 480 bearings"
    assert passage.nearest is not None and "replaced 212 of the 480 bearings" in passage.nearest
    message = flag_message("https://example.org/bridge", passage)
    assert 'its piece "Engineers replaced 312 of the 480 bearings" is not there' in message
    # A short piece is named with the neighbour it was checked with.
    passage = check("The retrofit of the harbour bridge took four years … three years late")
    assert passage.missing == ("The retrofit of the harbour bridge took four years \u2026 "
                               "three years late")


def test_pieces_must_be_close_together() -> None:
    filler = " ".join(["The river ran quietly past the town that year."] * 30)
    page = f"The first piece of the story is here. {filler} The second piece comes much later."
    assert len(filler) > ELISION_GAP_CHARS
    answer = 'It says "The first piece of the story is here … The second piece comes much later".'
    (passage,) = check_answer_text(answer, main_text=page, page_text=page).passages
    assert not passage.found
    near = page.replace(filler, filler[: ELISION_GAP_CHARS // 2])
    (passage,) = check_answer_text(answer, main_text=near, page_text=near).passages
    assert passage.found
    # A piece too short to stand alone must sit within a sentence's reach of its neighbour.
    gap = " ".join(["and then the river rose"] * (JOIN_GAP_CHARS // 20))
    page = f"The flood came on the second day of March {gap} at last."
    answer = 'It says "The flood came on the second day of March … at last".'
    (passage,) = check_answer_text(answer, main_text=page, page_text=page).passages
    assert not passage.found
    page = "The flood came on the second day of March and then the river rose at last."
    (passage,) = check_answer_text(answer, main_text=page, page_text=page).passages
    assert passage.found


def test_parse() -> None:
    edited = parse("[T]he bridge [sic] took … four [the bridge's] years [...] [emphasis added]")
    assert edited.pieces == ("The bridge took", "four", "years")
    assert edited.gaps == (None, "[the bridge's]")
    assert edited.verbatim == "The bridge took four years"
    # A bracket glued to a word stands in for the whole word; a markdown link is its text.
    assert parse("the bridge[s] were closed for a year").gaps == ("bridge[s]",)
    assert parse("see [the report](https://example.org/r) for the figures").pieces == (
        "see the report for the figures",)
