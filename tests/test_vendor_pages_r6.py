"""Two vendors' templates named by their own marks (tables/walls.py, tables/blocks.py):
Cloudflare's block page in any language, by its heading's translation key; Microsoft's
office proxies' (ISA Server, Forefront TMG) block page, by the sentence naming the product.
Beside each, the page that carries the same name without being the template."""

from __future__ import annotations

from judged import judged

_CF_RU = """<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8">
<title>Требуется внимание!</title></head><body><div id="cf-wrapper">
<h1 data-translate="block_headline">Извините, вы были заблокированы.</h1>
<h2><span data-translate="unable_to_access">Вы не можете получить доступ к</span> shop.example</h2>
<h2 data-translate="blocked_why_headline">Почему я был заблокирован?</h2>
<p data-translate="blocked_why_detail">Этот веб-сайт использует службу безопасности для защиты
от онлайн-атак.</p><p>Ray ID: 7d1c2e3f4a5b6c7d</p></div></body></html>"""


def test_cloudflares_block_page_in_russian_is_a_challenge() -> None:
    got = judged(_CF_RU)
    assert got == ("wall:challenge", "vendor:marker Cloudflare's block page")


def test_an_article_quoting_the_key_is_not_a_wall() -> None:
    body = " ".join(["Cloudflare localises its error pages by keys such as block_headline, "
                     "which its template's heading carries as data-translate."] * 12)
    page = (f"<html><head><title>How error pages are translated</title></head><body><article>"
            f"<h1>How error pages are translated</h1><p>{body}</p>"
            f"<pre>&lt;h1 data-translate=\"block_headline\"&gt;</pre></article></body></html>")
    assert judged(page) is None


_TMG = """<html><head><title>Error Message</title></head><body>
<table><tr><td>Network Access Message: <b>Access Denied</b></td></tr>
<tr><td>Explanation: Access to this site was blocked by system administrator</td></tr>
<tr><td>Technical Information (for support personnel)</td></tr>
<tr><td>Error Code: 403 Forbidden. Forefront TMG denied the specified Uniform Resource Locator
(URL). (12202)</td></tr></table></body></html>"""


def test_forefront_tmgs_block_page_is_an_interstitial() -> None:
    got = judged(_TMG)
    assert got is not None
    assert got[0] == "wall:interstitial"
    assert got[1].startswith("vendor:")


def test_a_howto_naming_the_product_is_not_a_wall() -> None:
    body = " ".join(["When a rule blocks a site, the proxy returns its own error page; the "
                     "message says that Forefront TMG denied the specified Uniform Resource "
                     "Locator, followed by an error code such as 12202."] * 8)
    page = (f"<html><head><title>Reading TMG error codes</title></head><body><article>"
            f"<h1>Reading TMG error codes</h1><p>{body}</p></article></body></html>")
    assert judged(page) is None
