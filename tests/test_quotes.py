"""The quotation check: which passages an answer quotes, and whether the page holds them."""

# ruff: noqa: RUF001 - the pages and answers in other scripts are typeset as they are
from __future__ import annotations

import gzip
import json
import random
import re

import pytest

from conftest import CORPUS
from readreceipt.quotes import quotations
from readreceipt.quotes.quotations import (
    LONG_ANSWER_CHARS,
    MIN_QUOTATION_CHARS,
    THIN_PAGE_CHARS,
    AnswerCheck,
    PassageResult,
    answer_without_page_text,
    check_answer_text,
    find_quotations,
    flag_message,
    not_run,
)

PAGE = (
    "Skip to content\n\nNews\n\nThe outage\n\n"
    "The service retried twice before giving up, according to the incident report. "
    "“We will not stop until the job is done,” the operator said on Tuesday. "
    "Growth was 3.5 percent in 2019, up from 2.1 percent the year before.\n\n"
    "Related: Engineers say the new cluster will be ready by spring at the earliest.\n"
)
MAIN = (
    "The service retried twice before giving up, according to the incident report. "
    "“We will not stop until the job is done,” the operator said on Tuesday. "
    "Growth was 3.5 percent in 2019, up from 2.1 percent the year before."
)


def check(answer: str, **kw: object) -> AnswerCheck:
    args: dict[str, object] = {"main_text": MAIN, "page_text": PAGE, **kw}
    return check_answer_text(answer, **args)  # type: ignore[arg-type]


# ------------------------------------------------------------------------ which passages


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ('It says "the service retried twice before giving up" today.',
         ["the service retried twice before giving up"]),
        ("It says “the service retried twice before giving up” today.",
         ["the service retried twice before giving up"]),
        ("It says:\n\n> The service retried twice before giving up.\n\nSo it failed.",
         ["The service retried twice before giving up."]),
        # Over a line end, inside a paragraph.
        ('It says "the service retried\ntwice before giving up" today.',
         ["the service retried twice before giving up"]),
        # Two quotations in one paragraph are two passages, not the prose between them.
        ('First "the service retried twice before giving up" and then "the operator said '
         'on Tuesday that it was over" too.',
         ["the service retried twice before giving up",
          "the operator said on Tuesday that it was over"]),
        # Single quotation marks are never read: the apostrophe is the same character.
        ("The page's claim is 'the service retried twice before giving up' and it's so.", []),
        # Inches and the like do not open anything.
        ('A 5" by 7" print of the service retried twice before giving up photo.', []),
        # A quotation left open at a paragraph's end pairs with nothing.
        ('He said "the service retried twice before\n\ngiving up" later.', []),
        # Fenced code is a reproduced document, not a quotation.
        ('```\nprint("the service retried twice before giving up")\n```', []),
        # Emphasis wrapping a whole quotation is the answer's.
        ('It says "*the service retried twice before giving up*".',
         ["the service retried twice before giving up"]),
        # The same passage twice is one passage.
        ('"the service retried twice before giving up" and "the service retried twice '
         'before giving up"', ["the service retried twice before giving up"]),
    ],
)
def test_find_quotations(answer: str, expected: list[str]) -> None:
    assert find_quotations(answer)[0] == expected


def test_length_threshold() -> None:
    short = "a" * (MIN_QUOTATION_CHARS - 6) + " word"  # one short of the minimum
    assert len(short) == MIN_QUOTATION_CHARS - 1
    assert find_quotations(f'It says "{short}".') == ([], [])
    assert find_quotations(f'It says "{short}x".')[0] == [short + "x"]
    # A long string without a space is a URL or an identifier.
    assert find_quotations('See "https://example.com/a/very/long/path/to/a/page".') == ([], [])


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ('<img alt="a diagram of the service retrying twice" src="x.png">', "attribute"),
        ('<a title = "the service retried twice before giving up">', "attribute"),
        ("> # The outage report\n> The service retried twice before giving up.",
         "structured_blockquote"),
        ("> - the service retried twice before giving up\n> - and then it stopped",
         "structured_blockquote"),
        ("> | column | other column |\n> | the service retried | twice before |",
         "structured_blockquote"),
    ],
)
def test_skipped_with_why(answer: str, why: str) -> None:
    passages, skipped = find_quotations(answer)
    assert passages == []
    assert [w for _, w in skipped] == [why]


def test_words_of_the_prompt_are_not_looked_for() -> None:
    prompt = "Does the page say the service failed over to the backup region at night?"
    answer = ('The page does not say "the service failed over to the backup region", but '
              'it does say "the service retried twice before giving up".')
    passages, skipped = find_quotations(answer, prompt)
    assert passages == ["the service retried twice before giving up"]
    assert skipped == [("the service failed over to the backup region", "in_prompt")]
    # The prompt repeated whole, as a redirect notice does.
    notice = f'REDIRECT DETECTED. Use WebFetch again with prompt: "{prompt}"'
    assert find_quotations(notice, prompt) == ([], [(prompt, "in_prompt")])


def test_block_quote_with_attribution_and_inner_quotation() -> None:
    answer = ("> “We will not stop until the job is done,” the operator said on Tuesday.\n"
              "> — the incident report\n")
    assert find_quotations(answer)[0] == [
        "“We will not stop until the job is done,” the operator said on Tuesday."]
    result = check(answer)
    assert result.outcome == "found"
    # The same block, altered outside its marks, is not on the page.
    altered = answer.replace("the operator", "the manager")
    assert check(altered).outcome == "not_found"


def test_an_edited_block_is_checked_whole_and_says_so() -> None:
    answer = "> “We will not stop until the job is done,” the operator said … on Tuesday.\n"
    passages, skipped = find_quotations(answer)
    assert passages == [answer[2:].strip()]
    assert skipped == []
    (passage,) = check(answer).passages
    assert (passage.found, passage.edited) == (True, True)
    (passage,) = check(answer.replace("on Tuesday", "on Friday")).passages
    assert (passage.found, passage.edited) == (False, True)
    # "on Friday." is too short to stand alone: it is named with the piece it joins.
    assert passage.missing is not None and passage.missing.endswith("\u2026 on Friday.")
    assert passage.missing.startswith("“We will not stop")


def test_inner_quotations_are_checked_when_the_block_is_not() -> None:
    block = "- the operator said “we will not stop until the job is done” on Tuesday"
    passages, skipped = find_quotations(f"> {block}\n")
    assert skipped == [(block, "structured_blockquote")]
    assert passages == ["we will not stop until the job is done"]


def test_each_paragraph_of_a_block_quote_is_a_passage() -> None:
    answer = ("> The service retried twice before giving up.\n>\n"
              "> Growth was 3.5 percent in 2019, up from 2.1 percent.\n")
    assert find_quotations(answer)[0] == [
        "The service retried twice before giving up.",
        "Growth was 3.5 percent in 2019, up from 2.1 percent."]
    assert check(answer).outcome == "found"


# ---------------------------------------------------------------------------- the check


def test_found_in_main_content() -> None:
    result = check("The report says “the service retried twice before giving up”.")
    assert result.outcome == "found"
    assert result.reason is None
    assert result.passages == (PassageResult(
        "the service retried twice before giving up", True, "main", None, None),)


def test_found_only_in_the_whole_page_says_so() -> None:
    result = check('A sidebar says "the new cluster will be ready by spring at the earliest".')
    assert result.outcome == "found"
    assert result.passages[0].tier == "page"


def test_not_found_names_what_the_page_says() -> None:
    result = check('It says the service "retried three times before giving up, according '
                   'to the incident report".')
    assert result.outcome == "not_found"
    (passage,) = result.passages
    assert not passage.found
    assert passage.tier is None
    assert passage.nearest == "retried twice before giving up, according to the incident report."
    assert passage.similarity is not None and 80 < passage.similarity < 100


def test_one_missing_passage_makes_the_answer_not_found() -> None:
    result = check('"The service retried twice before giving up" and "growth was 3.6 percent '
                   'in 2019, up from 2.1 percent".')
    assert result.outcome == "not_found"
    assert [p.found for p in result.passages] == [True, False]
    assert result.passages[1].nearest is not None
    assert "3.5 percent" in result.passages[1].nearest


@pytest.mark.parametrize(
    "quoted",
    [
        "Growth was 3.6 percent in 2019, up from 2.1 percent",  # a digit
        "Growth was 35 percent in 2019, up from 2.1 percent",  # a decimal point
        "Growth was 3.5 percent in 2018, up from 2.1 percent",  # a year
        "The service retried twice before not giving up",  # a negation added
        "We will stop until the job is done, the operator said",  # a negation removed
        "The service retried before giving up, according to the incident",  # a word dropped
        "The service twice retried before giving up, according to the",  # two words swapped
        "The system retried twice before giving up, according to the",  # a word replaced
    ],
)
def test_altered_quotations_are_flagged(quoted: str) -> None:
    assert check(f'It says "{quoted}".').outcome == "not_found"


@pytest.mark.parametrize(
    "quoted",
    [
        '"the service retried twice before giving up."',
        '"The Service Retried Twice Before Giving Up,"',
        '"the service retried **twice** before giving up"',
        '"the service retried  twice\nbefore giving up"',
        '"We will not stop until the job is done,\' the operator said on Tuesday"',
        "“We will not stop until the job is done,” the operator said on Tuesday",
        '"Growth was 3.5 percent in 2019, up from 2.1 percent the year before."',
        '"growth was 3.5&nbsp;percent in 2019, up from 2.1 percent"',
    ],
)
def test_faithful_quotations_are_found(quoted: str) -> None:
    assert check(f"It says {quoted} and more.").outcome == "found"


def test_no_quotation_is_not_run_never_a_pass() -> None:
    result = check("The page explains that the service gave up after two retries.")
    assert result == AnswerCheck("not_run", "no_quotation", ())
    prompt = "Is it true that the service retried twice before giving up?"
    skipped = check('It says "the service retried twice before giving up".', prompt=prompt)
    assert skipped.outcome == "not_run"
    assert skipped.reason == "no_quotation"
    assert skipped.skipped == (("the service retried twice before giving up", "in_prompt"),)


def test_empty_page_is_not_run() -> None:
    result = check_answer_text('"the service retried twice before giving up"',
                               main_text="", page_text=" \n ")
    assert (result.outcome, result.reason) == ("not_run", "thin_text")


def test_not_run_reason() -> None:
    assert not_run("wall") == AnswerCheck("not_run", "wall", ())
    assert not_run("http_403").to_dict() == {
        "outcome": "not_run", "reason": "http_403", "passages": [], "skipped": []}


def test_to_dict_is_json_and_holds_only_the_passages() -> None:
    secret = "my private reasoning about the account number 4111"
    answer = f'{secret}. It says "the service retried three times before giving up".'
    data = check(answer, prompt="what happened?").to_dict()
    text = json.dumps(data)
    assert secret not in text
    assert data["outcome"] == "not_found"
    assert set(data["passages"][0]) == {"text", "found", "tier", "nearest", "similarity",
                                        "edited", "missing"}


def test_pdf_hyphenation_and_tex_on_the_page() -> None:
    pdf = "Our method reaches a har-\nmonic mean of 0.91 on the bench-\nmark suite."
    answer = 'It reports "a harmonic mean of 0.91 on the benchmark suite".'
    assert check_answer_text(answer, main_text=pdf, page_text=pdf, is_pdf=True).outcome == \
        "found"
    listing = r"We measure agreement of $\kappa = 0.36$ across \emph{six models} in total."
    answer = 'The abstract says "agreement of κ = 0.36 across six models in total".'
    assert check_answer_text(answer, main_text="", page_text=listing).outcome == "found"
    answer = 'The abstract says "agreement of κ = 0.63 across six models in total".'
    assert check_answer_text(answer, main_text="", page_text=listing).outcome == "not_found"


def test_nearest_is_in_the_pages_own_characters() -> None:
    page = "Le café “Chez Léon” — ouvert\u00a0en 1950 — a fermé hier soir après 70 ans."
    result = check_answer_text('Il dit "Le café Chez Léon, ouvert en 1951, a fermé hier soir".',
                               main_text="", page_text=page)
    (passage,) = result.passages
    assert not passage.found
    assert passage.nearest is not None
    assert "“Chez Léon”" in passage.nearest and "ouvert en 1950" in passage.nearest


def test_nearest_for_a_long_block_quote() -> None:
    sentences = [f"Paragraph {i} tells of the harbour, the ships and the {i} sailors there."
                 for i in range(60)]
    page = " ".join(sentences)
    original = " ".join(sentences[30:35])
    altered = original.replace("the 32 sailors", "the 23 sailors")
    result = check_answer_text(f"> {altered}\n", main_text="", page_text=page)
    (passage,) = result.passages
    assert not passage.found
    assert passage.nearest == original
    assert passage.similarity is not None and 95 < passage.similarity < 100


def test_page_text_is_folded_once_per_text() -> None:
    quotations._page_text.cache_clear()
    check('"the service retried twice before giving up"')
    check('"growth was 3.5 percent in 2019, up from 2.1 percent"')
    info = quotations._page_text.cache_info()
    assert info.misses == 2  # main and page text, once each
    assert info.hits >= 2


# ------------------------------------------------------------------- answer without text


@pytest.mark.parametrize(
    ("answer_chars", "page_chars", "content_type", "status", "expected"),
    [
        (LONG_ANSWER_CHARS, THIN_PAGE_CHARS - 1, "text/html; charset=utf-8", 200, True),
        (LONG_ANSWER_CHARS - 1, THIN_PAGE_CHARS - 1, "text/html", 200, False),
        (LONG_ANSWER_CHARS, THIN_PAGE_CHARS, "text/html", 200, False),
        (LONG_ANSWER_CHARS, 0, "text/plain", 200, True),
        (LONG_ANSWER_CHARS, 0, "application/xhtml+xml", 204, True),
        (LONG_ANSWER_CHARS, 0, "text/html", 404, False),
        (LONG_ANSWER_CHARS, 0, "text/html", 301, False),
        (LONG_ANSWER_CHARS, 0, "application/pdf", 200, False),
        (LONG_ANSWER_CHARS, 0, "application/json", 200, False),
    ],
)
def test_answer_without_page_text(answer_chars: int, page_chars: int, content_type: str,
                                  status: int, expected: bool) -> None:
    assert answer_without_page_text("x" * answer_chars, page_chars, content_type, status) is \
        expected


# ------------------------------------------------------------------------------ messages


def test_flag_message_is_one_plain_sentence() -> None:
    (passage,) = check('It says "the service retried three times before giving up".').passages
    message = flag_message("https://example.com/outage", passage)
    assert "\n" not in message
    assert message.count(". ") == 0 and message.endswith(".")
    assert "https://example.com/outage" in message
    assert "the service retried three times before giving up" in message
    assert passage.nearest is not None and passage.nearest in message
    assert "fetched the page again independently" in message
    assert "can differ from what the fetch tool read" in message


def test_flag_message_clips_and_flattens() -> None:
    passage = PassageResult("word " * 200 + "\x1b[31m", False, None, None, None)
    message = flag_message("https://example.com/x", passage)
    assert "\x1b" not in message
    assert len(message) < quotations.MESSAGE_PASSAGE_CHARS + 250
    assert "holds nothing close to it" in message


# -------------------------------------------------------------- real pages of the corpus

ARTICLES = CORPUS / "articles"


@pytest.mark.skipif(not ARTICLES.is_dir(), reason="the evidence corpus is not on this machine")
def test_real_pages_faithful_found_and_altered_flagged() -> None:
    from readreceipt.reading.extract import extract

    truth = json.loads((ARTICLES / "ground-truth.json").read_text("utf-8"))
    rng = random.Random(3)  # noqa: S311 - a reproducible sample, not a secret
    checked = 0
    for name in sorted(truth)[:12]:
        body = gzip.decompress((ARTICLES / "html" / f"{name}.html.gz").read_bytes())
        got = extract(body, "text/html", None)
        flat = re.sub(r"\s+", " ", got.page_text + " " + got.main_text)
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", truth[name]["articleBody"])
                     if 50 <= len(s) <= 200 and '"' not in s and "\u201c" not in s
                     and "\u2026" not in s and "[" not in s and s in flat]
        for sentence in rng.sample(sentences, min(2, len(sentences))):
            result = check_answer_text(f"The article says “{sentence}”.",
                                       main_text=got.main_text, page_text=got.page_text)
            assert result.outcome == "found", sentence
            words = sentence.split(" ")
            i = len(words) // 2
            altered = " ".join([*words[:i], words[i + 1], words[i], *words[i + 2 :]])
            if words[i].lower() == words[i + 1].lower() or altered in flat:
                continue
            result = check_answer_text(f"The article says “{altered}”.",
                                       main_text=got.main_text, page_text=got.page_text)
            assert result.outcome == "not_found", altered
            checked += 1
    assert checked >= 10


def test_nearest_runs_on_to_what_the_page_says_instead() -> None:
    page = ('Residents were told in March. "We did not make the bridge stronger, we made it '
            'more forgiving," said the chief engineer at the reopening of the crossing.')
    answer = 'The engineer said "We did not make the bridge stronger, we made it safer."'
    result = quotations.check_answer_text(answer, main_text=page, page_text=page)
    passage = result.passages[0]
    assert not passage.found
    assert passage.nearest is not None
    assert "we made it more forgiving" in passage.nearest
    assert "Residents were told" not in passage.nearest


# ------------------------------------------------------------ every script, whole checks

WORLD = (
    "Die Stadt hat Wort gehalten, sagte Bürgermeister Klaus Weber am Montag. Die Sanierung "
    "kostete rund 48 Millionen Euro und dauerte nicht länger als geplant.\n\n"
    "« Nous n’avons pas rendu le pont plus solide, nous l’avons rendu plus souple », a "
    "expliqué l’ingénieure Claire Dubois. Les travaux ont coûté près de 48 millions d’euros.\n\n"
    "„Nie budowaliśmy szpitala dla urzędników, tylko dla pacjentów” – powiedział dyrektor "
    "Marek Nowak. Szpital ma 540 łóżek i około 14 sal operacyjnych.\n\n"
    "项目负责人李明说：“我们没有让大桥变得更坚固，而是让它变得更有韧性。”工程共耗资三千五百万元，其中约四成来自"
    "中央财政补贴。市长不同意这个计划的第二部分。\n\n"
    "鉄道会社は「工事の遅れは地盤の状態が想定より悪かったためで、安全上の問題はなかった」と説明した。"
    "工事費は約四十二億円となった。\n\n"
    "시 관계자는 \"당초 계획보다 공사 기간이 1년 늘어났지만 예산은 초과하지 않았다\"고 말했다. "
    "도서관에는 장서 약 50만 권이 비치된다.\n"
)

WORLD_FAITHFUL = [
    "Er sagte: „Die Stadt hat Wort gehalten, sagte Bürgermeister Klaus Weber“.",
    "Er sagte: »Die Sanierung kostete rund 48 Millionen Euro«.",
    "Elle a dit : «\u202fNous n’avons pas rendu le pont plus solide\u202f».",
    "Elle a dit : « nous l’avons rendu plus souple », a expliqué l’ingénieure Claire Dubois.",
    "Powiedział: „Nie budowaliśmy szpitala dla urzędników, tylko dla pacjentów”.",
    "他说：“我们没有让大桥变得更坚固，而是让它变得更有韧性。”",
    "报道称「工程共耗资3500万元，其中约四成来自中央财政补贴」。",
    "会社は「工事の遅れは地盤の状態が想定より悪かったため」と説明した。",
    "会社は『地盤の状態が想定より悪かったためで、安全上の問題はなかった』と説明した。",
    '관계자는 "당초 계획보다 공사 기간이 1년 늘어났지만"이라고 말했다.',
    "Il a dit : « Nous n’avons pas rendu le pont […] plus souple ».",
    "他说：“我们没有让大桥变得更坚固……更有韧性。”",
    "报道说市长“不同意这个计划的第二部分”。",
]

# One realistic change each: a number, a negation added or dropped, a qualifier removed, a
# near-synonym, another name of the page.
WORLD_ALTERED = [
    "Er sagte: „Die Stadt hat Wort gehalten, sagte Bürgermeister Marek Weber“.",  # name
    "Er sagte: »Die Sanierung kostete rund 46 Millionen Euro«.",  # number
    "Er sagte: »Die Sanierung kostete 48 Millionen Euro und dauerte nicht länger«.",  # rund
    "Elle a dit : «\u202fNous avons rendu le pont plus solide\u202f».",  # negation dropped
    "Elle a dit : « nous l’avons rendu plus flexible », a expliqué l’ingénieure.",  # synonym
    "Powiedział: „Nie budowaliśmy szpitala dla pacjentów, tylko dla urzędników”.",  # swapped
    "Szpital: „Szpital ma 540 łóżek i 14 sal operacyjnych”.",  # około dropped
    "他说：“我们让大桥变得更坚固，而是让它变得更有韧性。”",  # 没有 dropped
    "报道称「工程共耗资3600万元，其中约四成来自中央财政补贴」。",  # number
    "报道称「工程共耗资三千五百万元，其中四成来自中央财政补贴」。",  # 约 dropped
    "会社は「工事の遅れは地盤の状態が想定より良かったため」と説明した。",  # word
    "会社は『地盤の状態が想定より悪かったためで、安全上の問題があった』と説明した。",  # negation
    "会社は「工事費は四十二億円となった」と説明した。",  # 約 dropped
    '관계자는 "당초 계획보다 공사 기간이 2년 늘어났지만"이라고 말했다.',  # number
    '관계자는 "당초 계획보다 공사 기간이 1년 늘어났지만 예산은 초과했다"고 말했다.',  # negation
    "Il a dit : « Nous avons rendu le pont […] plus souple ».",  # negation in a piece
    "他说：“我们让大桥变得更坚固……更有韧性。”",  # negation in a piece
    "报道说市长“同意这个计划的第二部分”。",  # 不 left outside the marks
]


@pytest.mark.parametrize("answer", WORLD_FAITHFUL)
def test_every_script_faithful_is_found(answer: str) -> None:
    result = check_answer_text(answer, main_text=WORLD, page_text=WORLD)
    assert result.outcome == "found", result


@pytest.mark.parametrize("answer", WORLD_ALTERED)
def test_every_script_altered_is_flagged(answer: str) -> None:
    result = check_answer_text(answer, main_text=WORLD, page_text=WORLD)
    assert result.outcome == "not_found", result


def test_the_nearest_passage_covers_the_whole_stretch_the_quotation_answers_to() -> None:
    """Issue 19, item 13: the nearest passage dropped the words that differ ("The retrofit
    of"), and kept the page's own quotation marks and the comma ending its clause, which
    show doubled between the marks every adapter puts around it."""
    from conftest import article_html
    from readreceipt.reading.extract import extract

    page = extract(article_html().encode(), "text/html")
    cases = {
        '"the retrofit took four years and was finished in 2026"':
            "The retrofit of the harbour bridge took four years and was finished in the "
            "spring of 2026",
        '"We did not make the bridge stronger, we made it far more rigid"':
            "We did not make the bridge stronger, we made it more forgiving",
    }
    for quoted, nearest in cases.items():
        check = check_answer_text(f"The page says {quoted}.", main_text=page.main_text,
                                  page_text=page.page_text)
        [passage] = check.passages
        assert (passage.found, passage.nearest) == (False, nearest)
