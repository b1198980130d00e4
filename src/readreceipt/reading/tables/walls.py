"""The wall table: headers, vendors' markers and the words of bot checks, sign-in walls,
consent walls, paywalls and interstitials (the last four in access.py; vendors.py holds the
headers and vendors' own pages).

Each entry (entries.py) names one thing that shows a page is not the page asked for; the
fingerprint decides *when* an entry may fire. The invariants of every table are in
entries.py: lower-case patterns against folded text, a gate per entry, evidence per entry,
nothing keyed on one site.
"""

from __future__ import annotations

from readreceipt.reading.tables.access import CONSENT, INTERSTITIAL, LOGIN, PAYWALL
from readreceipt.reading.tables.blocks import BLOCK_BY_ADDRESS, BLOCK_PAGES
from readreceipt.reading.tables.entries import Entry, HeaderRule, alt, lit, rx
from readreceipt.reading.tables.notices import NOTICES, PROXY_ERRORS
from readreceipt.reading.tables.outages import OUTAGES
from readreceipt.reading.tables.platforms import HOST_NOTICES
from readreceipt.reading.tables.terms import heading_entry, label_entry, phrase_entry
from readreceipt.reading.tables.vendors import HEADER_RULES, VENDOR_HINTS, VENDOR_PAGES
from readreceipt.reading.tables.wafs import WAF_PAGES

__all__ = ["HEADER_RULES", "VENDOR_HINTS", "WALLS", "WALLS_AFTER_SIGN_IN", "WALLS_BEFORE_SIGN_IN",
           "Entry", "HeaderRule"]

# --- walls --------------------------------------------------------------------------------
# The first entry that fires is the one reported, so vendor markers come before the
# generic phrases that would fire on the same page.

_CH = "challenge"
_CF, _AK, _PX, _DD = "Cloudflare", "Akamai", "PerimeterX (HUMAN)", "DataDome"
_IM, _SQ, _GO = "Imperva", "ShieldSquare (Radware)", "Google"


def _c(where: str, s: str, vendor: str | None = None, gate: str = "block", ev: str = "",
       name: str | None = None) -> Entry:
    return lit(_CH, where, s, vendor=vendor, gate=gate, ev=ev, name=name)


_CHALLENGE: tuple[Entry, ...] = (
    # Cloudflare: challenge pages and the cf-error block pages (1006, 1020...). Ordinary
    # pages load /cdn-cgi/challenge-platform/.../jsd/main.js (hard_negative/osthessen_*).
    _c("markup", "cf-browser-verification", _CF, ev="walls/challenge/cf_iuam_*"),
    _c("markup", "cf_chl_opt", _CF, ev="Cloudflare managed challenge"),
    _c("markup", "/cdn-cgi/l/chk_jschl", _CF, ev="walls/challenge/cf_iuam_*"),
    # (chk_captcha_v3 is Cloudflare's invisible check on ordinary pages: articles d1c57d78.)
    rx(_CH, "markup", r"/cdn-cgi/l/chk_captcha(?!_v3)", "/cdn-cgi/l/chk_captcha", vendor=_CF,
        anchor="/cdn-cgi/l/chk_captcha", ev="walls/challenge/cf_attention_required_*"),
    _c("markup", "/orchestrate/", _CF, ev="Cloudflare challenge loader (not in jsd)",
       name="challenge-platform orchestrate"),
    # (id="cf-error-details" is not an entry: Cloudflare's 5xx error pages share it.)
    _c("markup", 'id="challenge-form"', _CF, ev="walls/challenge/cf_iuam_*, cf_attention_*"),
    _c("markup", 'id="challenge-running"', _CF, ev="Cloudflare challenge (2021-)"),
    _c("markup", "/cdn-cgi/challenge-platform/", _CF, "empty", ev="hard_negative/osthessen_*"),
    # Bot Fight Mode: an empty page with only Cloudflare's check script (cloudscraper's
    # bfm fixture); the same parameters ride along on ordinary pages.
    _c("markup", "/cdn-cgi/bm/cv/", _CF, "empty", ev="Cloudflare Bot Fight Mode page"),
    _c("markup", "__cf$cv$params", _CF, "empty", ev="Cloudflare Bot Fight Mode page"),
    _c("heading", "attention required! | cloudflare", _CF, ev="walls/challenge/cf_attention_*"),
    _c("text", "used cloudflare to restrict access", _CF, ev="walls/challenge/cf_access_denied_*"),
    _c("text", "sorry, you have been blocked", _CF, ev="Cloudflare WAF block page"),
    # The block page's heading carries its translation key in whatever language the page is
    # shown (<h1 data-translate="block_headline">): Cloudflare's template, also where a
    # site copies it (bench/devset3_labels.tsv ru_challenge_01, a Russian copy).
    _c("markup", 'data-translate="block_headline"', _CF,
       ev="Cloudflare's block page template (errors 1006-1020, WAF blocks): its heading's "
          "translation key, the same in every language", name="Cloudflare's block page"),
    rx(_CH, "text", r"the owner of this website \([^)]{1,80}\) has banned", "owner has banned",
        vendor=_CF, ev="walls/challenge/cf_access_denied_* (Cloudflare error 1006-1020)"),
    # Akamai: the edge 'Access Denied' page, whose Reference number is written with HTML
    # entities (decoded by the text extraction), and Bot Manager's pages.
    _c("markup", "errors.edgesuite.net", _AK, ev="walls/challenge/akamai_*_zara_*"),
    rx(_CH, "text", r"reference #\d+\.(?=[0-9a-f]+\.\d+)", "reference #18.*", vendor=_AK,
        ev="walls/challenge/akamai_access_denied_*"),
    _c("markup", "sec-if-cpt-container", _AK, ev="Akamai Bot Manager 'sec-cpt' page"),
    _c("markup", "/_sec/cp_challenge/", _AK, ev="Akamai Bot Manager challenge"),
    _c("markup", "bmak.", _AK, "empty", ev="Akamai Bot Manager sensor script"),
    # PerimeterX / HUMAN: the block page; _pxAppId is on ordinary pages (hard_negative/jstor_*).
    _c("markup", "px-captcha", _PX, ev="PerimeterX block page (#px-captcha)"),
    _c("markup", "captcha.px-cdn.net", _PX, ev="PerimeterX captcha host"),
    # Only with the human it asks for: "press and hold the power button" is every device
    # manual's (tests/pages/hard_negative/support_press_and_hold.html).
    rx(_CH, "text", r"(press|activate|click) (&|and) hold\b[^.!?]{0,80}\b(human|robot|bot)\b",
        "press and hold", vendor=_PX, ev="PerimeterX 'Press & Hold' challenge"),
    _c("text", "access to this page has been denied", _PX, ev="PerimeterX block page"),
    _c("markup", "_pxappid", _PX, "empty", ev="hard_negative/jstor_* carries it"),
    # DataDome: the captcha host; its tag script alone is on ordinary pages.
    _c("markup", "captcha-delivery.com", _DD, ev="DataDome challenge iframe host"),
    _c("text", "please enable js and disable any ad blocker", _DD, ev="DataDome challenge"),
    _c("markup", "js.datadome.co", _DD, "empty", ev="DataDome tag script"),
    # Imperva / Incapsula.
    _c("text", "incapsula incident id", _IM, ev="Imperva block page"),
    rx(_CH, "markup", r'id="main-iframe"[^<>]{0,200}_incapsula_resource', "main-iframe",
        vendor=_IM, anchor="main-iframe", ev="Imperva challenge page layout"),
    _c("markup", "_incapsula_resource", _IM, "empty", ev="also injected into ordinary pages"),
    # Sucuri, StackPath, SiteGround, Kasada, Alibaba, Reddit.
    _c("markup", "sucuri_cloudproxy_js", "Sucuri", ev="walls/challenge/sucuri_waf_*"),
    _c("text", "sucuri website firewall", "Sucuri", ev="Sucuri block page"),
    _c("text", "security services provided by stackpath", "StackPath",
       ev="walls/challenge/stackpath_*"),
    _c("markup", "/.well-known/sgcaptcha/", "SiteGround", ev="SiteGround captcha"),
    _c("markup", "__kasada", "Kasada", "empty", ev="Kasada challenge script"),
    _c("markup", "window.kpsdk", "Kasada", "empty", ev="Kasada challenge page (KPSDK)"),
    _c("heading", "vercel security checkpoint", "Vercel", ev="Vercel challenge page"),
    _c("markup", "x5secdata", "Alibaba", ev="Alibaba 'punish' captcha page"),
    _c("text", "blocked by network security", "Reddit", ev="Reddit block page"),
    # Yandex's robot check (its captcha page's own paths), ModSecurity's, Wordfence's and
    # Imunify360's block pages (their templates' signature lines), BitNinja's captcha page.
    _c("markup", "/checkcaptcha?", "Yandex", ev="Yandex's 'are you a robot' page form action"),
    _c("markup", "/showcaptcha?", "Yandex", ev="Yandex's captcha page address"),
    _c("text", "this error was generated by mod_security", "ModSecurity",
       ev="ModSecurity's 406/403 'Not Acceptable' page (Apache's mod_security)"),
    _c("text", "generated by wordfence", "Wordfence",
       ev="Wordfence's block page footer ('Generated by Wordfence at ...')"),
    _c("text", "imunify360 bot-protection", "Imunify360",
       ev="Imunify360's 'access denied' bot-protection page"),
    _c("markup", "bitninja", "BitNinja", ev="BitNinja's captcha and block pages"),
    rx(_CH, "text", r"(request|access) (has been|was) blocked (due to|by) (a )?(network|security)",
        "request blocked by a network policy", ev="Reddit and WAF block pages"),
    # A WAF's own words for a refused request, whoever the vendor (F5, Akamai, Imperva and
    # in-house WAFs all say it so): never an article's words about itself.
    rx(_CH, "text", alt(
        r"your (request|access|connection) (has been|was|is) (blocked|rejected|denied|"
        r"not (allowed|permitted))",
        # The same, in the languages of the rest of the table.
        r"ihre anfrage (wurde|war|ist) (aus sicherheitsgründen )?(blockiert|abgelehnt|"
        r"zurückgewiesen|unzulässig|nicht zulässig)",
        r"votre (requête|demande) a été (bloquée|rejetée|refusée)",
        r"(su|tu) (solicitud|petición) (ha sido|fue) (bloqueada|rechazada|denegada)",
        r"la (tua|sua) richiesta è stata (bloccata|respinta|rifiutata)",
        r"(a )?(sua|tua) (solicitação|requisição) foi (bloqueada|rejeitada|negada)",
        r"(uw|je) (verzoek|aanvraag) (is|werd) (geblokkeerd|geweigerd)"),
        "your request has been blocked",
        ev="walls2/challenge/waf_blocked_request_carsales_*; F5 and Imperva block pages; "
           "tests/pages/challenge/waf_block_de.html, waf_block_es.html"),
    _c("text", "enter the characters you see below", "Amazon", ev="Amazon's robot check"),
    # F5 (ASM block page; TSPD bot defense), Reblaze, ShieldSquare, Distil.
    _c("markup", "/tspd/", "F5", ev="walls/challenge/f5_tspd_*"),
    _c("text", "your support id is", "F5", ev="walls/challenge/f5_tspd_*; F5 ASM block page"),
    _c("text", "the requested url was rejected", "F5", ev="F5 ASM block page"),
    _c("markup", "window.rbzns", "Reblaze", ev="walls/challenge/reblaze_*"),
    _c("markup", "shieldsquare", _SQ, ev="walls/challenge/shieldsquare_*"),
    _c("markup", "perfdrive.com", _SQ, ev="walls/challenge/shieldsquare_*"),
    _c("markup", "distil_r_captcha", "Distil", ev="Distil captcha page"),
    _c("markup", "distilidentificationblock", "Distil", ev="Distil block page"),
    _c("text", "pardon our interruption", "Distil", ev="Distil/Imperva block page"),
    # Anubis (proof-of-work gate), AWS WAF, DDoS-Guard, Google, Weibo.
    _c("markup", "anubis_challenge", "Anubis", ev="Anubis challenge page"),
    _c("markup", "/.within.website/", "Anubis", ev="Anubis static path"),
    _c("text", "making sure you're not a bot", "Anubis", ev="Anubis challenge title"),
    # Self-hosted gates' fixed markup, the same on every site they front (bench/devset6):
    # go-away's challenge templates link its home in their footer ("Protected by go-away")
    # and serve their scripts under its default base path
    # /.well-known/.git.gammaspectra.live/git/go-away (embed/templates/challenge-*.gohtml,
    # cmd/go-away/main.go); BunkerWeb's antibot pages link its site with a campaign tag no
    # other page of it carries (src/common/core/antibot/files/*.html: "utm_source=bwantibot");
    # CrowdSec's bouncers' ban and captcha pages sign off "This security check has been
    # powered by" above a link to crowdsec.net (lua-cs-bouncer and cs-haproxy-spoa-bouncer,
    # templates/ban.html and templates/captcha.html).
    _c("markup", "git.gammaspectra.live/git/go-away", "go-away",
       ev="go-away's challenge templates' footer link and default base path"),
    _c("markup", "utm_source=bwantibot", "BunkerWeb", ev="BunkerWeb antibot pages' footer link"),
    rx(_CH, "markup", r'security check has been powered by\s{0,80}</p>\s{0,80}<a href="https://'
       r'(?:www\.)?crowdsec\.net/', "CrowdSec's remediation page", vendor="CrowdSec",
       anchor="crowdsec.net", ev="CrowdSec bouncers' ban and captcha templates' signature"),
    _c("markup", "awswaf.com", "AWS WAF", ev="AWS WAF challenge script host"),
    _c("markup", "gokuprops", "AWS WAF", ev="AWS WAF challenge page"),
    _c("markup", "ddos-guard.net", "DDoS-Guard", ev="DDoS-Guard check page"),
    _c("markup", "ddos-shield.appspot.com", "Google Project Shield",
       ev="walls/challenge/google_project_shield_*"),
    _c("text", "learn about project shield", "Google Project Shield",
       ev="walls/challenge/google_project_shield_*"),
    _c("markup", "/das_captcha", _GO, ev="walls/challenge/google_sorry_youtube_*"),
    _c("markup", "google.com/sorry", _GO, ev="Google 'unusual traffic' page"),
    rx(_CH, "markup", r'"playabilitystatus":\{"status":"login_required","reason":"[^"]{0,40}'
        r'not a (ro)?bot', "player status: sign in to confirm you're not a bot", vendor="YouTube",
        anchor='"playabilitystatus":{"status":"login_required"',
        ev="YouTube's bot check in its player status (youtube-transcript-api's request_blocked)"),
    _c("heading", "sina visitor system", "Sina Weibo", ev="walls/challenge/weibo_sina_*"),
    _c("markup", "/visitor/genvisitor", "Sina Weibo", ev="walls/challenge/weibo_sina_*"),
    # Generic phrases, several languages.
    rx(_CH, "heading", r"^just a moment\b", "just a moment", ev="walls/challenge/cf_iuam_* title"),
    rx(_CH, "heading", r"^(robot or human|are you (a )?(human|robot))\??$", "robot or human?",
        ev="PerimeterX block page heading"),
    _c("text", "checking your browser before accessing", ev="walls/challenge/cf_iuam_*"),
    rx(_CH, "text", r"(we('re| are)|we need to be) (verifying|checking) (your browser|that you)",
        "verifying your browser", ev="Vercel, Cloudflare and others' challenge text"),
    _c("text", "checking if the site connection is secure", ev="Cloudflare challenge (2022-)"),
    _c("text", "review the security of your connection", ev="Cloudflare challenge (2023-)"),
    rx(_CH, "text", r"(verify|verifying|confirm) (that )?you('re| are) (a )?human",
        "verify you are human", ev="Cloudflare Turnstile, PerimeterX, generic"),
    rx(_CH, "text", r"prove (that )?you('re| are) (a )?human|prove your humanity",
        "prove you are human", ev="walls/challenge/reddit_prove_your_humanity_*"),
    rx(_CH, "text", r"you('re| are) not a (ro)?bot|you (are|were) a (ro)?bot|"
        r"are you a (ro)?bot", "not a robot",
        ev="walls/challenge/shieldsquare_*; Amazon ('make sure you're not a robot')"),
    _c("text", "complete the security check", ev="walls/challenge/cf_attention_required_*"),
    _c("text", "why do i have to complete a captcha", ev="walls/challenge/cf_recaptcha_*"),
    _c("text", "unusual traffic from your computer network", _GO, ev="Google 'sorry' page"),
    rx(_CH, "text", alt(r"(gran n[uú]mero de solicitudes|tr[aá]fico inusual) (de|desde) tu red",
                          r"ungew[oö]hnliche[rn]? (datenverkehr|zugriffe)", "trafic exceptionnel",
                          "traffico insolito", "tráfego incomum", "ongebruikelijk verkeer"),
        "unusual traffic (es, de, fr, it, pt, nl)", vendor=_GO,
        ev="walls/challenge/google_sorry_youtube_es_*; Google's page in other languages"),
    rx(_CH, "text", r"(detected|noticed) unusual (activity|traffic) from your",
        "unusual activity from your network", ev="PerimeterX (Bloomberg), Google"),
    _c("text", "security service to protect itself", ev="walls/challenge/stackpath_*"),
    # Bare: ordinary pages say the same in their <noscript> (tests/pages/hard_negative/
    # short_press_release_noscript_cookies.html); the check page says nothing else (98).
    rx(_CH, "text", r"(requires|enable) javascript and cookies", "JavaScript and cookies",
        gate="bare", ev="walls/challenge/js_cookie_reload_check_*; Cloudflare noscript text"),
    _c("text", "please enable javascript before you are allowed to see this page",
       ev="walls/challenge/sucuri_waf_*"),
    _c("text", "please enable javascript to view the page content", ev="walls/challenge/f5_*"),
    rx(_CH, "text", r"(your|this) ip( address)? (has been|was|is) (temporarily )?"
        r"(blocked|banned)|banned your ip", "your IP has been blocked",
        ev="walls/challenge/cf_access_denied_*"),
    # Only the reader's access: "Mill Road has been temporarily blocked" is local news
    # (tests/pages/hard_negative/short_news_road_blocked.html).
    rx(_CH, "text", alt(
        r"your access( to [^.]{1,80}?)? (has been|was|is) (temporarily )?(blocked|suspended|"
        r"limited|restricted)",
        r"access to this (site|website|page|resource|server) (has been|is) (temporarily )?"
        r"blocked"), "access has been blocked", ev="walls/challenge/ncbi_blocked_*"),
    # The whole heading, or before a title separator ("Access denied | site"): "Access denied:
    # voters turned away" is a headline.
    # A rate limit served as a page (429's words, whatever the status).
    rx(_CH, "heading", r"^(429 )?too many requests\b", "too many requests",
        ev="tests/pages/challenge/rate_limited_too_many_requests.html; 429 pages"),
    rx(_CH, "text", r"(you('ve| have)|we('ve| have)) (sent|made|received) too many requests|"
        r"rate limit exceeded", "too many requests", ev="rate-limit pages' wording"),
    # "Access denied", "Zugriff verweigert", "Доступ запрещён" ... as Squid's error pages
    # translate it into 29 languages, and "Forbidden" as frameworks do (the next entries,
    # vocabulary.py); written here only the two wordings no vocabulary read has.
    heading_entry(_CH, "access_denied", "access denied (vocabulary)"),
    rx(_CH, "heading", r"^(403 )?(accès refusé|toegang geweigerd)"
        r"( ?[|\-\u2013\u2014\u00b7\u2022] .*)?$", "access denied",
        ev="walls/challenge/akamai_*, ncbi_*, cf_access_denied_*; tests/pages/challenge/waf_*"),
    rx(_CH, "text", alt(
        r"(bestätigen|beweisen) sie, dass sie (ein mensch|kein roboter)",
        r"vérifi(ez|ons) que vous (êtes|n'êtes pas) (un humain|un robot)",
        r"(verifica|comprueba|confirma) que (eres|no eres) (un )?(humano|ser humano|robot)",
        r"(verifica|conferma) che (sei|non sei) (un )?(umano|essere umano|robot)",
        r"(verifique|confirme) que (você )?(é|não é) (um )?(humano|robô)",
        r"(bevestig|controleren) dat (je|u) (een mens|geen robot)",
        r"ロボットではない", r"アクセスが制限されています", r"로봇이 아닙니다",
        r"자동 입력 방지", r"비정상적인 트래픽", r"人机验证", r"安全验证", r"验证您是真人",
        r"請驗證您是真人", r"异常流量"),
        "prove you are human (de, fr, es, it, pt, nl, ja, ko, zh)", ev="the same, translated"),
    # The terms frameworks and web servers translate "Forbidden" / "Access forbidden" and
    # "Too Many Requests" into, as the page's whole heading (vocabulary.py).
    heading_entry(_CH, "forbidden", "access forbidden (vocabulary)"),
    heading_entry(_CH, "too_many_requests", "too many requests (vocabulary)"),
    # A refusal's reason on a line of its own, as Squid's ERR_ACCESS_DENIED prints it
    # ("Access Denied.", "Zugriff verweigert.", "アクセスを拒否されました。": squid-langpack).
    label_entry(_CH, "access_denied", "access denied (vocabulary)"),
    # Apache's 403 page's sentence ("You don't have permission to access the requested
    # object"), in the languages it ships.
    phrase_entry(_CH, "forbidden_text", "you don't have permission to access (vocabulary)"),
    # Captcha widgets, last: a page that names itself or its vendor is named by that. They
    # also sit under comment forms (8 articles in the corpus).
    _c("markup", "g-recaptcha", None, "bare", "walls/challenge/google_sorry_*", "reCAPTCHA"),
    _c("markup", "h-captcha", None, "bare", "hCaptcha widget", "hCaptcha"),
    _c("markup", "cf-turnstile", None, "bare", "Turnstile widget", "Turnstile"),
    _c("markup", "arkoselabs.com", None, "bare", "Arkose Labs FunCaptcha", "FunCaptcha"),
    _c("markup", "geetest", None, "bare", "GeeTest captcha", "GeeTest"),
    _c("markup", "tencentcaptcha", None, "bare", "Tencent captcha", "Tencent captcha"),
    _c("markup", "frc-captcha", None, "bare", "Friendly Captcha widget", "Friendly Captcha"),
)

# Interstitials before sign-in: a page that says the site is down, full or not for this
# country is that, whatever sign-in form its template also carries. The sign-in form's
# structure (reading/signin.py) is judged between the two halves.
# A web filter's or a regulator's block page (blocks.py) is named so before a bot check's
# generic words ("Access denied") would call it a challenge.
# A proxy's error page likewise (notices.py), and a CMS's maintenance or suspended-account
# notice before the interstitials' own words. A firewall vendor's block page (wafs.py) is
# named by its vendor before the bot checks' generic words would name it.
WALLS_BEFORE_SIGN_IN: tuple[Entry, ...] = (VENDOR_PAGES + BLOCK_PAGES + PROXY_ERRORS
                                           + WAF_PAGES + _CHALLENGE + OUTAGES + HOST_NOTICES
                                           + NOTICES + INTERSTITIAL)
WALLS_AFTER_SIGN_IN: tuple[Entry, ...] = LOGIN + CONSENT + PAYWALL + BLOCK_BY_ADDRESS
WALLS: tuple[Entry, ...] = WALLS_BEFORE_SIGN_IN + WALLS_AFTER_SIGN_IN
