"""Two not-found wordings (tables/notfound.py): "page 404" as the whole title, and a forum's
or CMS's "this post does not exist" on a bare page. Beside each, the page that carries the
same words without being a not-found page: a paginated thread's page 404, an article saying
that an article has no copyright problem ("文章不存在版权问题")."""

# ruff: noqa: RUF001 - the pages are written in their own alphabets and marks
from __future__ import annotations

from judged import judged


def _reason(html: str) -> str:
    got = judged(html)
    return "ok" if got is None else got[0]


_SITE = "".join(f'<li><a href="/{p}">{p}</a></li>' for p in ("home", "prices", "contact"))


def test_page_404_as_the_whole_title_is_a_soft_404() -> None:
    page = (f"<html><head><title>Страница 404</title></head><body><nav><ul>{_SITE}</ul></nav>"
            "<header>Упс! Такой страницы у нас нет</header><p>Приносим извинения.</p>"
            "<a href='/'>На главную</a></body></html>")
    assert _reason(page) == "soft_404"


def test_a_paginated_threads_page_404_is_not() -> None:
    posts = "".join(f"<div class='post'><p>Сообщение {i}: про поплавки, леску и погоду на "
                    f"озере, где мы ловили в прошлые выходные окуня и щуку.</p></div>"
                    for i in range(12))
    page = (f"<html><head><title>Рыбалка на Селигере - Страница 404</title></head><body>"
            f"<nav><ul>{_SITE}</ul></nav><h1>Рыбалка на Селигере</h1>{posts}</body></html>")
    assert _reason(page) == "ok"


def test_a_bare_post_does_not_exist_page_is_a_soft_404() -> None:
    page = ("<html><body>饮水思源 - 文章阅读<br>ERROR: 此文不存在<br>"
            "<a href='javascript:history.go(-1)'>快速返回</a></body></html>")
    assert _reason(page) == "soft_404"


def test_an_article_saying_an_article_has_no_copyright_problem_is_not() -> None:
    body = "".join(f"<p>第{i}段：编辑部确认，该文章不存在版权问题，作者已授权转载，"
                   f"读者可以放心分享。我们也会继续核实其他稿件的来源与授权情况，"
                   f"并在此处更新说明。</p>" for i in range(8))
    page = f"<html><head><title>转载说明</title></head><body><h1>转载说明</h1>{body}</body></html>"
    assert _reason(page) == "ok"
