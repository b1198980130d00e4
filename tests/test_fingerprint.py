"""Content fingerprints on small synthetic pages: one per vendor and phrase family, and the
pages that must never be called anything (an article about captchas, a vendor's script on a
full article, a cookie banner, a "not found" phrase in running text, a comment sign-in form).

Pages go through the real extraction (``readreceipt.reading.extract``), as in the pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

from readreceipt.reading.basics import WIDE_LETTER_WEIGHT
from readreceipt.reading.extract import extract
from readreceipt.reading.fingerprint import (
    BLOCK_MAX_MAIN_LETTERS,
    TAIL_CHARS,
    THIN_RATIO_MAX_PAGE_LETTERS,
    ContentSignal,
    PageView,
    fold,
    judge_content,
    letters,
)


def view(html: str, *, headers: Mapping[str, str] | None = None, status: int = 200,
         content_type: str = "text/html") -> PageView:
    body = html.encode("utf-8")
    ex = extract(body, content_type, "utf-8")
    return PageView(url="https://example.test/a", final_url="https://example.test/a",
                    status=status, headers=dict(headers or {}), content_type=content_type,
                    html=ex.html, main_text=ex.main_text, page_text=ex.page_text,
                    body_bytes=len(body))


def judge(html: str, **kw: object) -> ContentSignal | None:
    return judge_content(view(html, **kw))  # type: ignore[arg-type]


def page(body: str, title: str = "", head: str = "") -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>{head}"
            f"</head><body>{body}</body></html>")


_SENTENCES = (
    "The council met on Tuesday evening to discuss the new budget for the harbour district.",
    "Residents had raised concerns about the cost of repairs to the old sea wall last winter.",
    "Engineers presented three options, each with a different balance of price and risk.",
    "The cheapest plan would patch the worst sections and leave the rest for another decade.",
    "A second plan rebuilt the northern half, where the storms of January did most damage.",
    "The most expensive option replaced the whole wall and added a walkway along the top.",
    "Several speakers asked how long the work would close the fish market near the quay.",
    "The chair said traders would be consulted before any contract was signed this spring.",
    "Members voted to ask for detailed costings and to return to the question next month.",
    "Local businesses welcomed the delay, saying the summer season mattered most to them.",
)


def article(extra: str = "", *, paragraphs: int = 8, title: str = "Harbour wall plans") -> str:
    """A plain news article of about 3,000 letters, with ``extra`` in its middle."""
    paras = [" ".join(_SENTENCES[(i + j) % len(_SENTENCES)] for j in range(4))
             for i in range(paragraphs)]
    paras.insert(paragraphs // 2, extra)
    body = "".join(f"<p>{p}</p>" for p in paras if p)
    return page(f"<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
                f"<article><h1>{title}</h1>{body}</article><footer>© Example News</footer>",
                title=f"{title} | Example News")


def short_article(extra: str = "", head: str = "") -> str:
    """A real but short article (about 400 letters, like the shortest in the corpus)."""
    text = " ".join(_SENTENCES[:5])
    return page(f"<header><a href='/'>Example News</a></header><article><h1>Budget talks</h1>"
                f"<p>{text}</p>{extra}</article>", title="Budget talks", head=head)


def test_helpers_make_what_they_say() -> None:
    assert letters(view(article()).main_text) > 2000
    assert 300 < letters(view(short_article()).main_text) < BLOCK_MAX_MAIN_LETTERS
    assert judge(article()) is None
    assert judge(short_article()) is None
    assert fold("  Don\u2019t\n  STOP ") == "don't stop"


# --- bot checks, by vendor ---------------------------------------------------------------

CHALLENGES = {
    "cloudflare managed": (
        page("<div id='challenge-running'>Verifying you are human. This may take a few "
             "seconds.</div><script>window._cf_chl_opt={cType:'managed'};</script>",
             title="Just a moment..."), {}, "Cloudflare"),
    "cloudflare blocked": (
        page("<h1>Sorry, you have been blocked</h1><p>You are unable to access example.test"
             "</p><p>Cloudflare Ray ID: 8a1b2c3d4e5f</p>", title="Attention Required!"),
        {"server": "cloudflare", "cf-ray": "8a1b2c3d4e5f-AMS"}, "Cloudflare"),
    "akamai entities": (
        "<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>"
        "You don't have permission to access \"http&#58;&#47;&#47;example&#46;test&#47;\" "
        "on this server.<P>Reference&#32;&#35;18&#46;2f1a2b3c&#46;1700000000&#46;1a2b3c4"
        "</BODY></HTML>", {}, "Akamai"),
    "perimeterx": (
        page("<h1>Robot or human?</h1><p>Activate and hold the button to confirm that you're "
             "human. Thank You!</p><div id='px-captcha'></div>", title="Robot or human?"),
        {}, "PerimeterX (HUMAN)"),
    "datadome": (
        page("<p id='cmsg'>Please enable JS and disable any ad blocker</p><script>var dd="
             "{'rt':'c','host':'geo.captcha-delivery.com'}</script>", title="example.test"),
        {}, "DataDome"),
    "cloudflare bot fight mode": (
        "<html><head><script async src='/cdn-cgi/bm/cv/664825181/api.js'></script></head><body>"
        "<script>(function(){window['__CF$cv$params']={r:'60aada8e9833a421'}})();</script>"
        "</body></html>", {}, "Cloudflare"),
    "imperva empty": (
        "<html><head><meta name='robots' content='noindex,nofollow'><script src='/_Incapsula_"
        "Resource?SWJIYLWA=5074a744e2e3d891814e9a2dace20bd4'></script></head><body></body>"
        "</html>", {}, "Imperva"),
    "imperva incident": (
        page("<p>Request unsuccessful. Incapsula incident ID: 123000450067890123-456</p>"),
        {}, "Imperva"),
    "sucuri": (
        page("<h2>Access Denied - Sucuri Website Firewall</h2><p>If you are the site owner, "
             "please contact us.</p>", title="Sucuri WebSite Firewall - Access Denied"),
        {}, "Sucuri"),
    "f5 asm": (
        page("The requested URL was rejected. Please consult with your administrator.<br>"
             "Your support ID is: 1234567890123456789", title="Request Rejected"), {}, "F5"),
    "reblaze": (
        "<html><head><script>window.rbzns={bereshit:'1',seed:'abc'};winsocks(true);</script>"
        "</head><body></body></html>", {}, "Reblaze"),
    "distil": (
        page("<h1>Pardon Our Interruption...</h1><p>As you were browsing, something about "
             "your browser made us think you were a bot.</p>", title="Pardon Our Interruption"),
        {}, "Distil"),
    "anubis": (
        page("<h1 id='title'>Making sure you're not a bot!</h1><script id='anubis_challenge' "
             "type='application/json'>{}</script>", title="Making sure you're not a bot!"),
        {}, "Anubis"),
    "google sorry": (
        page("<p>Our systems have detected unusual traffic from your computer network. This "
             "page checks to see if it's really you sending the requests, and not a robot.</p>"
             "<form action='index'><div class='g-recaptcha'></div></form>",
             title="https://www.google.com/search"), {}, "Google"),
    "aws waf header": (
        page("<h1>Genesis</h1><p>Discover your library</p><script>window.gokuProps={}"
             "</script>"), {"x-amzn-waf-action": "captcha"}, "AWS WAF"),
    "ddos-guard": (
        page("<h1>Checking your browser before accessing example.test</h1><script src="
             "'https://check.ddos-guard.net/check.js'></script>", title="DDoS-Guard"),
        {}, "DDoS-Guard"),
    "shieldsquare": (
        page("<p>We apologize for the inconvenience...</p><script src='https://validate."
             "perfdrive.com/captcha.js'></script>", title="Captcha"), {},
        "ShieldSquare (Radware)"),
    "amazon robot check": (
        page("<h4>Enter the characters you see below</h4><p>Sorry, we just need to make sure "
             "you're not a robot.</p><form action='/errors/validateCaptcha'><input name='f'>"
             "</form>", title="Amazon.com"), {"server": "Server"}, "Amazon"),
    "vercel": (
        page("<h1>Vercel Security Checkpoint</h1><p>We're verifying your browser</p>",
             title="Vercel Security Checkpoint"), {"x-vercel-mitigated": "challenge"}, "Vercel"),
    "stackpath": (
        page("<h1>Please enable cookies</h1><p>This website is using a security service to "
             "protect itself from online attacks.</p><p>Security services provided by StackPath"
             "</p>", title="StackPath"), {}, "StackPath"),
}


@pytest.mark.parametrize("name", sorted(CHALLENGES))
def test_bot_checks_are_named_with_their_vendor(name: str) -> None:
    html, headers, vendor = CHALLENGES[name]
    signal = judge(html, headers=headers)
    assert signal is not None
    assert (signal.reason, signal.wall, signal.vendor) == ("wall:challenge", "challenge", vendor)
    assert signal.rule and (vendor is None or vendor in signal.detail)


def test_a_title_about_signing_in_is_not_a_sign_in_title() -> None:
    assert judge(short_article().replace("<title>Budget talks", "<title>How to log in")) is None


def test_the_cloudflare_header_alone_names_a_challenge() -> None:
    signal = judge(page("<p>One moment.</p>"), headers={"cf-mitigated": "challenge"})
    assert signal is not None and signal.rule == "vendor:header cf-mitigated=challenge"
    assert signal.vendor == "Cloudflare"


def test_a_block_page_keeps_its_name_when_served_with_403() -> None:
    html, headers, _ = CHALLENGES["cloudflare blocked"]
    signal = judge(html, headers=headers, status=403)
    assert signal is not None and signal.wall == "challenge"


def test_a_generic_phrase_borrows_the_vendor_from_the_headers() -> None:
    signal = judge(page("<p>Please verify you are a human to continue.</p>"),
                   headers={"x-iinfo": "5-2434707-0 0NNN"})
    assert signal is not None and signal.vendor == "Imperva"
    assert signal.rule == "wording:phrase verify you are a human (in the content)"


@pytest.mark.parametrize("words", [
    "Bitte bestätigen Sie, dass Sie ein Mensch sind.",
    "Vérifiez que vous êtes un humain.",
    "Confirma que eres un ser humano.",
    "Conferma che sei un essere umano.",
    "Verifique que você é humano.",
    "Bevestig dat je een mens bent.",
    "ロボットではないことを確認してください。",
    "로봇이 아닙니다를 확인해 주세요.",
    "请完成安全验证后继续访问。",
])
def test_bot_check_phrases_in_other_languages(words: str) -> None:
    signal = judge(page(f"<p>{words}</p>"))
    assert signal is not None and signal.wall == "challenge"


def test_a_tiny_cookie_and_reload_script_is_a_bot_check() -> None:
    html = ("<html><head><script>document.cookie='k=1;path=/';location.reload(true);"
            "</script></head><body></body></html>")
    signal = judge(html)
    assert signal is not None and signal.rule == "structure:cookie-and-reload script"


# --- other walls ---------------------------------------------------------------------------

WALLS = {
    "login form": (page("<h1>Welcome back</h1><form><input name='u'><input type='password' "
                        "name='p'><button>Continue</button></form>", title="Example"), "login"),
    "login title": (page("<p>Use your account.</p>", title="Sign in \u2022 Example"), "login"),
    "login title to": (page("<p>Use your account.</p>", title="Sign in to Example \u00b7 Example"),
                       "login"),
    "signup title": (page("<p>Join the network.</p>", title="Sign Up | Example"), "login"),
    "login phrase": (page("<p>Please log in to continue.</p>"), "login"),
    "login de": (page("<p>Bitte melden Sie sich an, um diesen Inhalt zu sehen.</p>"), "login"),
    "login ja": (page("<p>このページを見るにはログインしてください。</p>"), "login"),
    "consent google": (page("<h1>Before you continue to Google</h1><form action='https://"
                            "consent.google.com/save'><button>Accept all</button></form>",
                            title="Before you continue"), "consent"),
    "consent fr": (page("<h1>Avant d'accéder à Example</h1><p>Nous utilisons des cookies.</p>",
                        title="Example"), "consent"),
    "consent phrase": (page("<p>We and our partners need your consent to use your data.</p>"),
                       "consent"),
    "paywall label": (short_article("<p>Subscribers only: get full access for $1.</p>"),
                      "paywall"),
    "paywall continue": (short_article("<p>To continue reading, please subscribe.</p>"),
                         "paywall"),
    "paywall fr": (short_article("<p>Cet article est réservé aux abonnés.</p>"), "paywall"),
    "regwall": (short_article("<p>Log in or create a free Example account to continue reading."
                              "</p>"), "login"),
    "paywall de": (short_article("<p>Exklusiv für Abonnenten</p>"), "paywall"),
    "paywall plus": (short_article("<p>Weiterlesen mit Example+</p>"), "paywall"),
    "member-only story": (short_article("<p>Member-only story</p>"), "paywall"),
    "waiting room": (page("<p>You are now in line. Your estimated wait time is 4 minutes.</p>"
                          "<script src='https://static.queue-it.net/script/queueclient.js'>"
                          "</script>", title="Queue"), "interstitial"),
    "maintenance": (page("<h1>We'll be back soon!</h1><p>Sorry for the inconvenience.</p>",
                         title="Maintenance"), "interstitial"),
    "maintenance de": (page("<p>Wegen Wartungsarbeiten ist die Seite nicht erreichbar.</p>"),
                       "interstitial"),
    "geo": (page("<h1>Sorry</h1><p>This video is not available in your country.</p>"),
            "interstitial"),
    "geo es": (page("<p>Este contenido no está disponible en tu país.</p>"), "interstitial"),
    "geo gdpr": (page("<p>Unfortunately, our website is currently unavailable in most European "
                      "countries.</p>"), "interstitial"),
}


@pytest.mark.parametrize("name", sorted(WALLS))
def test_walls_are_named(name: str) -> None:
    html, kind = WALLS[name]
    signal = judge(html)
    assert signal is not None, name
    assert (signal.reason, signal.wall) == (f"wall:{kind}", kind)
    assert signal.rule.split(":", 1)[0] in ("vendor", "wording", "structure")


def test_a_long_article_cut_off_by_its_wall_is_a_wall() -> None:
    cut = article().replace("</article>", "<div class='wall'><h2>Enjoying our journalism?</h2>"
                            "<p>Log in or create a free account to continue reading.</p></div>"
                            "</article>")
    signal = judge(cut)
    assert signal is not None and signal.wall == "login"
    assert signal.rule.startswith("wording:phrase-at-end ")


def test_a_wall_phrase_inside_a_long_article_is_not_a_wall() -> None:
    html = article("<p>Readers told us they hate being asked to log in or create an account "
                   "to continue reading, so we stopped.</p>", paragraphs=12)
    assert judge(html) is None
    tail = fold(view(html).main_text)[-TAIL_CHARS:]
    assert "create an account" not in tail


# --- shells, soft 404s, parked, thin -------------------------------------------------------

SHELLS = {
    "react mount": page("<div id='root'></div><script src='/static/js/main.1a2b.js'></script>"),
    "angular": page("<app-root></app-root><script src='main.js'></script>", title="Shop"),
    "nothing but scripts": page("<script>boot()</script><script src='/app.js'></script>"),
    "noscript notice": page("<noscript>You need to enable JavaScript to run this app."
                            "</noscript><div id='mount'></div><script src='/a.js'></script>"),
    "templates": page("<div ng-app='x'><p>{{ article.title }}</p><p>{{ article.body }}</p>"
                      "</div><script src='angular.js'></script>"),
}


@pytest.mark.parametrize("name", sorted(SHELLS))
def test_javascript_shells(name: str) -> None:
    signal = judge(SHELLS[name])
    assert signal is not None and signal.reason == "js_shell"
    assert signal.wall is None and "JavaScript shell" in signal.detail


def test_a_plain_short_page_without_scripts_is_not_a_shell() -> None:
    signal = judge(page("<p>Hello.</p>"))
    assert signal is not None and signal.reason == "thin_text"


NOT_FOUND_TITLES = [
    "404 Not Found", "Page not found | Example", "Seite nicht gefunden", "Página no encontrada",
    "Page introuvable", "Pagina non trovata", "Página não encontrada", "Pagina niet gevonden",
    "ページが見つかりません", "페이지를 찾을 수 없습니다", "页面不存在",
    "This video isn't available", "This account doesn't exist",
]


@pytest.mark.parametrize("title", NOT_FOUND_TITLES)
def test_soft_404_by_title_in_many_languages(title: str) -> None:
    html = page("<nav><a href='/'>Home</a> <a href='/shop'>Shop</a> <a href='/help'>Help</a>"
                "</nav><p>Try the search box, or go back to the start.</p>", title=title)
    signal = judge(html)
    assert signal is not None and signal.reason == "soft_404", title
    assert signal.detail == "a 'not found' page served as success"


def youtube_watch(status: str, reason: str) -> str:
    footer = "".join(f"<a href='/t/{i}'>About Press Copyright Contact</a>" for i in range(6))
    state = ('var ytInitialPlayerResponse = {"responseContext":{},"playabilityStatus":'
             f'{{"status":"{status}","reason":"{reason}"}}}};')
    return page(f"<ytd-app></ytd-app><footer>{footer}</footer><script>{state}</script>",
                title=" - YouTube")


@pytest.mark.parametrize(("status", "reason", "expected"), [
    ("ERROR", "Video unavailable", "soft_404"),
    ("UNPLAYABLE", "Video unavailable", "soft_404"),
    ("LOGIN_REQUIRED", "Sign in to confirm your age", "wall:login"),
    ("LOGIN_REQUIRED", "Sign in to confirm you\u2019re not a bot", "wall:challenge"),
    ("UNPLAYABLE", "The uploader has not made this video available in your country",
     "wall:interstitial"),
    ("OK", "", "thin_text"),  # a playable video's page is judged by its text: here, a footer
])
def test_youtube_player_status(status: str, reason: str, expected: str | None) -> None:
    signal = judge(youtube_watch(status, reason))
    assert (signal.reason if signal else None) == expected


def test_soft_404_by_app_state() -> None:
    shop = "".join(f"<a href='/c/{i}'>Department number {i} of the shop</a>" for i in range(9))
    html = page(f"<div id='__next'><nav>{shop}</nav><p>Nothing here.</p></div>"
                "<script id='__NEXT_DATA__' type='application/json'>{\"page\":\"/404\"}"
                "</script>")
    signal = judge(html)
    assert signal is not None and signal.reason == "soft_404"
    assert signal.rule == "vendor:marker Next.js 404 page"


def test_a_server_rendered_framework_404_is_a_soft_404_not_a_shell() -> None:
    html = page("<div id='__next'><div><h1 class='next-error-h1'>404</h1><div><h2>This page "
                "could not be found<!-- -->.</h2></div></div></div><script id='__NEXT_DATA__' "
                "type='application/json'>{\"props\":{},\"page\":\"/_error\"}</script>"
                "<script src='/_next/static/chunks/main.js'></script>",
                title="404: This page could not be found")
    signal = judge(html)
    assert signal is not None and signal.reason == "soft_404"


def test_an_empty_mount_point_is_named_with_its_framework() -> None:
    signal = judge(page("<div id=\"__next\"></div><script src='/_next/static/main.js'></script>"))
    assert signal is not None and signal.rule == "structure:empty #__next mount point"
    assert "Next.js" in signal.detail


def test_a_not_found_page_with_a_cookie_banner_is_a_soft_404_not_a_consent_wall() -> None:
    html = page("<div class='cookie'>This site uses cookies. By continuing to browse this site,"
                " you agree to this use. Accept all cookies</div><h1>Page Not Found</h1>"
                "<p>Sorry about that.</p>", title="Page Not Found")
    signal = judge(html)
    assert signal is not None and signal.reason == "soft_404"


@pytest.mark.parametrize("html", [
    page("<h1>example.test</h1><p>This domain is for sale! Make an offer today.</p>"),
    page("<p>Related searches</p><script src='https://www.sedoparking.com/js/p.js'></script>"),
    page("<p>Dieser Domainname: Diese Domain steht zum Verkauf.</p>"),
])
def test_parked_domains(html: str) -> None:
    signal = judge(html)
    assert signal is not None and signal.reason == "parked"


def test_thin_text_by_characters_and_by_ratio() -> None:
    # ("Coming soon." alone is a placeholder's notice: barenotice.py names it.)
    signal = judge(page("<p>Hello there.</p>"))
    assert signal is not None and signal.reason == "thin_text"
    assert signal.rule.startswith("structure:length ")
    # A 500-letter page buried in 2 MB of markup is a sliver of a page. The padding is 6,000
    # elements of 330 bytes (1.98 MB), well within markup.MAX_ELEMENTS, so the whole page is
    # read and the main text is there to be weighed against the bytes (60,000 small elements
    # would pass the element cap: the page is read from its beginning, without its text).
    padding = ("<div class='x' data-a='" + "1" * 299 + "'></div>") * 6000
    assert len(padding) == 1_980_000
    html = page(padding + f"<p>{' '.join(_SENTENCES[:6])}</p>")
    signal = judge(html)
    assert signal is not None and signal.reason == "thin_text"
    assert signal.rule.startswith("structure:ratio ")


def test_letters_are_counted_alike_in_ascii_and_beyond() -> None:
    """An ASCII text is counted by a byte table (fast on a page's whole text), any other by
    the pattern: both count the letters the pattern keeps, wide characters twice."""
    every_ascii = "".join(map(chr, range(128)))
    assert letters(every_ascii) == len(re.sub(r"[\W\d_]+", "", every_ascii)) == 52
    assert letters("x_1 y-2\tz") == 3
    assert letters("\u00e9t\u00e9 \u00e0 Z\u00fcrich 42") == 10
    assert letters("\u65b0\u95fb ab") == 2 * WIDE_LETTER_WEIGHT + 2


# --- strictness ----------------------------------------------------------------------------


def test_a_wall_beats_a_shell_and_a_soft_404() -> None:
    html = page("<div id='root'></div><script>window._cf_chl_opt={}</script>",
                title="Page not found")
    signal = judge(html)
    assert signal is not None and signal.reason == "wall:challenge"


def test_a_shell_beats_a_soft_404_title() -> None:
    html = page("<div id='app'></div><script src='/app.js'></script>", title="404")
    signal = judge(html)
    assert signal is not None and signal.reason == "js_shell"


def test_not_html_is_not_judged_here() -> None:
    v = view("Access Denied. Verify you are human.", content_type="text/plain")
    assert v.html is None
    assert judge_content(v) is None


# --- must never fire -----------------------------------------------------------------------

MUST_NOT_FIRE = {
    "article about captchas": article(
        "<p>Sites show a captcha, a 'Just a moment' page or 'Access Denied' when they think you "
        "are a bot; they ask you to verify you are human, press and hold a button, or say "
        "'Checking your browser before accessing'. Cloudflare, Akamai, PerimeterX and "
        "DataDome sell these. Sometimes the answer is: sorry, you have been blocked.</p>"),
    "vendor scripts on a full article": article(
        "<script>window._pxAppId='PX1234';</script><script src='/cdn-cgi/challenge-platform/"
        "scripts/jsd/main.js'></script><script src='https://js.datadome.co/tags.js'></script>"
        "<script src='/_Incapsula_Resource?SWJIYLWA=719d34d3'></script>"
        "<script src='https://www.google.com/recaptcha/api.js'></script>"),
    "cookie banner on an article": article(
        "<div id='cmp'><h2>We value your privacy</h2><p>We and our partners need your consent "
        "to store cookies. Before you continue, choose Accept all or Manage options.</p>"
        "<button>Accept all cookies</button></div>"),
    "not found in a long article": article(
        "<h2>Page not found: why links break</h2><p>A 404 page not found error tells you the "
        "page you are looking for is gone; we could not find the old report either.</p>"),
    "sign-in nudges on an article": article(
        "<p>Please log in to comment. Subscribe to our newsletter. Sign in to save articles."
        "</p><form><input type='password'></form>"),
    "comment form on a short article": short_article(
        "<p>Leave a reply. You must be logged in to post a comment.</p>"),
    "password field in a short article's header": short_article(
        "", head="").replace("<header>", "<header><form><input name='login'><input "
                             "type='password' name='pw'></form>"),
    "captcha under a short article's comment form": short_article(
        "<form id='comments'><textarea></textarea><div class='g-recaptcha'></div></form>"),
    "vendor script on a short article": short_article(
        "<script>window._pxAppId='PX1';</script>"),
    "subscribe links on a short article": short_article(
        "<p>Subscribe | Sign In | Subscriber Agreement & Terms of Use</p>"),
    "news that says not found": short_article(
        "<h2>Missing hiker not found after three days</h2>"),
    "a comment sign-in on a short article": short_article(
        "<p>Please log in using one of these methods to post your comment.</p>"),
    "a maintenance notice on a short article": short_article(
        "<p>The forum will be taken down for maintenance on Friday night.</p>"),
    "cloudflare's invisible check on a short article": short_article(
        "<script>let u = new URL('/cdn-cgi/l/chk_captcha_v3?req_id=1', location.href);</script>"),
}


@pytest.mark.parametrize("name", sorted(MUST_NOT_FIRE))
def test_must_not_fire(name: str) -> None:
    assert judge(MUST_NOT_FIRE[name]) is None


def test_the_must_not_fire_pages_do_carry_the_words() -> None:
    # So the test above is not passing on pages that lost their bait in extraction.
    text = view(MUST_NOT_FIRE["article about captchas"]).main_text.lower()
    assert "verify you are human" in text and "access denied" in text
    text = view(MUST_NOT_FIRE["comment form on a short article"]).page_text.lower()
    assert "must be logged in" in text


def test_thin_by_ratio_is_not_a_page_of_tens_of_thousands_of_letters() -> None:
    """A forum's link post whose main text is its title, in 2 MB of markup beside tens of
    thousands of letters of comments, is a page; the same title alone in 2 MB is a sliver."""
    title = " ".join(_SENTENCES[:3])
    html = page(f"<h1>{title}</h1>")

    def signal(page_text: str) -> ContentSignal | None:
        return judge_content(PageView("http://a.test/p", "http://a.test/p", 200, {},
                                      "text/html", html, title, page_text, 2_000_000))

    thin = signal(title)
    assert thin is not None and thin.rule.startswith("structure:ratio "), thin
    comments = "\n".join(_SENTENCES * 200)
    assert letters(comments) > THIN_RATIO_MAX_PAGE_LETTERS
    assert signal(title + "\n" + comments) is None
