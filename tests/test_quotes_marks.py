"""Quotation marks of every script, and the minimum length of each script."""

# ruff: noqa: RUF001, RUF003 - the look-alike marks are what these tables are about
from __future__ import annotations

import pytest

from readreceipt.quotes.quotations import find_quotations
from readreceipt.quotes.scripts import MIN_QUOTATION_CHARS, latin_length, long_enough

DE = "Die Stadt hat Wort gehalten, sagte der Bürgermeister"
FR = "la ville a tenu parole après quatre années de travaux"
JA = "政府は来年度の予算案を決定した"
ZH = "我们将在年底前完成这项工程的全部内容"


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # German, Czech, Slovak: „…“; Polish, Hungarian, Romanian: „…”.
        (f"Er sagte: „{DE}“.", [DE]),
        (f"Powiedział: „{DE}” wczoraj.", [DE]),
        # French guillemets, with or without inner spaces (U+0020, U+00A0, U+202F).
        (f"Il a dit : « {FR} ».", [FR]),
        (f"Il a dit : «\u00a0{FR}\u00a0».", [FR]),
        (f"Il a dit : «\u202f{FR}\u202f».", [FR]),
        (f"Dijo: «{FR}».", [FR]),
        # German and Danish »…«; Swedish and Finnish »…» and ”…”.
        (f"Er sagte: »{DE}«.", [DE]),
        (f"Han sa: »{DE}» i går.", [DE]),
        (f"Han sa: ”{DE}” i går.", [DE]),
        # Single forms: ‹…›, ‚…‘, and ‘…’ where neither mark can be an apostrophe.
        (f"Il a dit : ‹ {FR} ›.", [FR]),
        (f"Er sagte: ‚{DE}‘.", [DE]),
        (f"He said ‘{DE}’ yesterday.", [DE]),
        (f"The workers’ union said ‘{DE}’ and left.", [DE]),
        (f"He said ‘{DE} in the workers’ union hall’ and left.",
         [f"{DE} in the workers’ union hall"]),
        (f"In the ’90s he said ‘{DE}’ often.", [DE]),
        ("Ele disse ‘Em 2021, ele foi eleito presidente do Senado’ ontem.",
         ["Em 2021, ele foi eleito presidente do Senado"]),
        (f"He sang ‘em all, and said ‘{DE}’.", [DE]),
        (f"In the ‘90s the bridge was rebuilt, and he said “{DE}” then.", [DE]),
        (f"It’s what he said ‘{DE}’, isn’t it.", [DE]),
        # Japanese and Chinese corner brackets, Chinese curly marks, full-width forms.
        (f"記事は「{JA}」と伝えた。", [JA]),
        (f"記事は『{JA}』と伝えた。", [JA]),
        (f"他说“{ZH}”。", [ZH]),
        (f"他说＂{ZH}＂。", [ZH]),
        (f"記事は｢{JA}｣と伝えた。", [JA]),
        (f"他说〝{ZH}〟。", [ZH]),
        (f'他说"{ZH}"。', [ZH]),
        # Korean glues its particle to the closing mark.
        ('기사는 "시장은 다리 공사가 이 년 늦어졌다고 밝혔다"고 전했다.',
         ["시장은 다리 공사가 이 년 늦어졌다고 밝혔다"]),
        # Nested marks stay part of the passage, whatever the script.
        (f"Er sagte: „{DE}, ‚wie versprochen‘ und pünktlich“.",
         [f"{DE}, ‚wie versprochen‘ und pünktlich"]),
        (f"Er sagte: „{DE}, “wie versprochen” und pünktlich“.",
         [f"{DE}, “wie versprochen” und pünktlich"]),
        (f"Il a dit : « {FR}, « comme promis » disait-il ».",
         [f"{FR}, « comme promis » disait-il"]),
        (f"市長は「{JA}、『予定通り』と述べた」と伝えた。", [f"{JA}、『予定通り』と述べた"]),
        (f"He said “{DE} ‘as promised’ today”.", [f"{DE} ‘as promised’ today"]),
        # A closing “ after a space (a spaced ellipsis) still closes „…“: nothing follows it.
        (f"Er sagte: „{DE} . . . “ und ging.", [f"{DE} . . ."]),
        # Mixed marks: opened curly or low, closed straight (a keyboard's habit). Still a
        # quotation to check, never skipped; a straight pair nested inside still nests.
        (f'Er sagte: „{DE}".', [DE]),
        (f'He said “{DE}" on Tuesday.', [DE]),
        (f'He said “{DE}, "as promised" today" and left.', [f'{DE}, "as promised" today']),
        (f'He said "{DE}" and “{FR}”.', [DE, FR]),
        (f'Er sagte: „{DE}" und dann „{FR}“.', [DE, FR]),
        # ...but a straight mark followed by the opener's own closing mark is inches, not
        # the end: the whole passage is checked, not its first words.
        (f'He said “{DE}, the 12" pipes under the bridge” today.',
         [f'{DE}, the 12" pipes under the bridge']),
        (f'Er sagte: „{DE}, die 12" Rohre unter der Brücke“ und ging.',
         [f'{DE}, die 12" Rohre unter der Brücke']),
        # Not quotations: straight single quotes (every one can be an apostrophe), a closing
        # mark with nothing open, a breadcrumb's guillemets.
        (f"He said '{DE}' today.", []),
        (f"Home » News » {DE} » Today", []),
        (f"He said {DE}” today.", []),
    ],
)
def test_marks_of_every_script(answer: str, expected: list[str]) -> None:
    assert find_quotations(answer)[0] == expected


def test_minimum_length_per_script() -> None:
    assert MIN_QUOTATION_CHARS == 30
    # 10 Han or kana characters are a passage, 9 are not.
    assert long_enough("政府は来年度の予算案")  # 10
    assert not long_enough("政府は来年度の予算")  # 9
    assert find_quotations("首相は「政府は来年度の予算案」と述べた。")[0] == [
        "政府は来年度の予算案"]
    assert find_quotations("首相は「政府は来年度の予算」と述べた。") == ([], [])
    # Korean: syllables weigh 3, spaces one.
    assert latin_length("시장은 다리 공사가") == 8 * 3 + 2
    assert long_enough("시장은 다리 공사가 늦어")
    assert not long_enough("시장은 다리 공사가")
    # A mixed passage is weighed character by character; Latin is unchanged.
    assert latin_length("iPhone 15の発売日") == len("iPhone 15") + 4 * 3
    assert long_enough("a" * 24 + " words") and not long_enough("a" * 23 + " words")
    # One unbroken Latin token is an identifier, not a passage; a CJK one is a passage.
    assert not long_enough("https://example.com/a/very/long/path/to/a/page")
    assert long_enough("我们将在年底前完成这项工程")
    # Japanese with Latin names and no space is a passage; an address with a CJK slug is not.
    assert long_enough("ubilinux（Debian）やUbuntu、YoctoなどさまざまなOSが動作する")
    assert not long_enough("https://ja.wikipedia.org/wiki/東京都庁舎の歴史")


def test_a_long_dash_line_under_a_block_is_the_quotation_wrapped() -> None:
    block = ("> il titolo provvisorio è “Knights of the Zodiac\n"
             "> – Saint Pegasus” e la prima stagione dovrebbe essere di 12 episodi, che "
             "conterranno il periodo della Guerra Galattica\n")
    (passage,) = find_quotations(block)[0]
    assert passage.endswith("della Guerra Galattica")
    signed = "> il titolo provvisorio è Knights of the Zodiac, Saint Pegasus\n> — Netflix Italia\n"
    assert find_quotations(signed)[0] == [
        "il titolo provvisorio è Knights of the Zodiac, Saint Pegasus"]
