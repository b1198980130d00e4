"""The wall table's words for walls a site puts up on purpose: sign-in walls, paywalls, consent
walls and interstitials (waiting rooms, maintenance pages, geo-blocks, access gates).

Part of the wall table (walls.py assembles it, in this order after the bot checks); the
invariants of every table are in entries.py.
"""

from __future__ import annotations

from readreceipt.reading.tables.entries import Entry, alt, lit, rx
from readreceipt.reading.tables.terms import evidence_of, heading_entry, title_alternation

__all__ = ["CONSENT", "INTERSTITIAL", "LOGIN", "PAYWALL"]

_GO = "Google"

_LG = "login"
# "You must be logged in to post a comment" and "Please log in using one of these methods to
# post your comment" sit under many articles (articles 95301fb7, c467d507, 21486419):
# signing in to take part is not signing in to read.
# A noun of taking part further on counts too ("log in using one of these methods to post your
# comment"), but not "replies" as a thing to see ("sign in to see posts and replies": a
# social profile's wall, tests/pages/login/social_profile_sign_in_to_view.html).
_TAKE_PART = (r"post|comment|reply|leave|vote|like|rate|add|write|follow|save|join|submit|"
              r"report|download|bookmark|react|publish")
# The same in the other languages of the table, and the parts of a page one signs in for
# without the page being walled (attachments): "Melden Sie sich an, um Rezepte zu speichern",
# "you must be logged in to view attachments" (tests/pages/hard_negative/de_recipe_*,
# forum_thread_logged_in_to_view_attachments.html).
_TAKE_PART_ELSEWHERE = (
    r"comment|comments|review|reviews|vote|attachments?|anhänge?|pièces jointes|allegati|"
    r"adjuntos|anexos|bijlagen|kommentier|kommentar|speichern|merken|bewerten|antworten|"
    r"commenter|réagir|enregistrer|sauvegarder|répondre|comentar|guardar|valorar|responder|"
    r"commentare|salvare|votare|rispondere|salvar|avaliar|reageren|opslaan|beantwoorden|"
    r"コメント|保存|댓글|저장|评论|評論|收藏")
_NOT_TO_TAKE_PART = (rf"(?! (to|and|or) ({_TAKE_PART}))"
                     rf"(?![^.!?\n]{{0,60}}(\bto ({_TAKE_PART})\b|\b({_TAKE_PART_ELSEWHERE})))")
# (The bare words "Anmelden", "Connexion", "Iniciar sesión", "Registrieren", "ログイン",
# "注册" and the like are the maintained vocabularies' 'sign_in' and 'sign_up' terms, the
# next entry, in over thirty languages; written here only what no vocabulary read has.)
_SIGN_IN_WORD = (r"((log ?in|sign ?in)( (to|into|with) [^|]{1,30})?|log into [^|]{1,30}|"
                 r"(?!to )\w+ log ?in|signin|signup|iniciar sesion|registrate|accesso|"
                 r"会員登録)")
# Title separators: bar, hyphen, en and em dash, colon, middle dot, bullet.
_SEP = "[|\\-\u2013\u2014:\u00b7\u2022]"
#: A registration wall, looked for on a short page anywhere and at the end of a long one.
_REGISTER_TO_READ = alt(
    r"(log ?in|sign ?in) or (create|register) (an?|your)( free)?( [\w.]+)? account to "
    r"(continue|keep reading|read)",
    r"create a free account to (continue|keep) reading",
    r"register (for free )?to (continue|keep) reading")

_SIGN_IN_EV, _SIGN_IN_LICENCE = (" and ".join(x) for x in zip(evidence_of("sign_in"),
                                                              evidence_of("sign_up"),
                                                              strict=True))

LOGIN: tuple[Entry, ...] = (
    # (A password field, a user-name field with one button, identity providers' buttons:
    # the page's structure, reading/signin.py, checked before this table.)
    lit(_LG, "markup", '"playabilitystatus":{"status":"login_required"', vendor="YouTube",
         name="player status LOGIN_REQUIRED", ev="YouTube age-gated and private videos"),
    rx(_LG, "title", rf"(^|{_SEP} ?){_SIGN_IN_WORD}( ?{_SEP}|$)", "a title that is a sign-in word",
        ev="walls/login/aol_* ('AOL - login'), ca_dmv_* ('Login'); 'Sign in to X', 'Sign Up'"),
    # The same with the terms frameworks and CMSs translate "Log in" / "Login" / "Sign In" and
    # "Register" / "Sign Up" into (vocabulary.py: Laravel, Django's admin, django-allauth,
    # WordPress, MediaWiki, Keycloak).
    rx(_LG, "title", rf"(^|{_SEP} ?)(?:{title_alternation('sign_in')}|"
        rf"{title_alternation('sign_up')})( ?{_SEP}|$)",
        "a title that is a sign-in word (vocabulary)", licence=_SIGN_IN_LICENCE,
        ev=_SIGN_IN_EV),
    # MediaWiki's "Login required" (loginreqtitle), as the page's whole heading.
    heading_entry(_LG, "sign_in_required", "sign-in required (vocabulary)"),
    # Keycloak's "Sign in to your account", and the sign-in words themselves, as the whole
    # heading of a page with next to nothing else (its form built by script): on a longer
    # page such a heading is a help article's ("Sign in to your account: step 1 ...").
    heading_entry(_LG, "sign_in_heading", "sign in to your account (vocabulary)", gate="bare"),
    heading_entry(_LG, "sign_in", "a heading that is a sign-in word (vocabulary)",
                  gate="bare"),
    # HTTP 401's own title, as frameworks and web servers translate it ("Unauthorized",
    # "Authentication required"), as the page's whole heading: the page asks for
    # credentials instead of showing itself (vocabulary.py).
    heading_entry(_LG, "unauthorized", "unauthorized (vocabulary)"),
    rx(_LG, "text", r"(login|log-in|sign-in) page is (opening|loading)|"
        r"redirect(ed|ing)? to the (login|sign-in) page", "redirecting to the login page",
        ev="walls/login/captive_portal_*"),
    rx(_LG, "text", alt(
        r"(log ?in|sign ?in) (required|to continue|to view|to see|to access)",
        # (not an instruction to sign in somewhere else to do something there: "please sign
        # in to the dashboard to rotate a key", tests/pages/hard_negative/docs_authentication_*)
        r"please (log|sign) ?in\b(?! to (the|your|our) [^.!?]{1,40}? to (?!(view|see|read|"
        r"access|continue|open|watch)\b))",
        r"you (must|need to) (be logged in|log ?in|sign ?in)",
        r"(login|authentication) required",
        r"requires? you to (be )?(registered and )?(logged in|log ?in|sign ?in)") +
        _NOT_TO_TAKE_PART,
        "sign in to continue", ev="sign-in walls (en); comment forms excluded"),
    rx(_LG, "text", alt(
        r"melden sie sich an", r"bitte anmelden", r"anmelden, um", r"anmeldung erforderlich",
        r"veuillez vous connecter", r"connectez-vous pour", r"connexion requise",
        r"inicia sesión para", r"debes iniciar sesión", r"necesitas iniciar sesión",
        r"accedi per (continuare|visualizzare)", r"effettua l'accesso per",
        r"faça (o )?login para", r"inicie sessão para", r"entre para continuar",
        r"devi (essere registrato|effettuare l'accesso|aver effettuato l'accesso|accedere)",
        r"log in om (verder|door) te gaan", r"(je|u) moet ingelogd zijn",
        r"ログインしてください", r"ログインが必要", r"로그인이 필요", r"로그인 후 이용",
        r"请登录", r"请先登录", r"登录后查看", r"請登入", r"請先登入") + _NOT_TO_TAKE_PART,
        "sign in to continue (de, fr, es, it, pt, nl, ja, ko, zh)", ev="the same, translated"),
    # "For registered readers only": a registration wall's label, in the languages of the
    # rest of the table (tests/pages/login/fr_registration_wall_*; the Nature wall's English).
    rx(_LG, "text", alt(
        r"réservée? aux (inscrits|abonnés inscrits|utilisateurs inscrits|membres inscrits)",
        r"inscrivez-vous( gratuitement)? pour (lire|continuer)",
        r"(for|to) registered (users|readers|members) only", r"nur für registrierte (nutzer|leser)",
        r"(solo|exclusivo) para usuarios registrados", r"riservato agli utenti registrati",
        r"exclusivo para (usuários|leitores) cadastrados", r"alleen voor geregistreerde"),
        "for registered readers only", gate="teaser",
        ev="tests/pages/login/fr_registration_wall_*; walls/login/nature_* (en)"),
    # A registration wall: on a short page anywhere, on a long one at the end of the article.
    rx(_LG, "text", _REGISTER_TO_READ, "log in or create an account to continue",
        gate="teaser", ev="walls/login/nature_log_in_or_create_account_*"),
    rx(_LG, "tail", _REGISTER_TO_READ, "log in or create an account to continue",
        gate="tail", ev="walls/login/nature_log_in_or_create_account_*"),
)

_PW = "paywall"
PAYWALL: tuple[Entry, ...] = (
    # A label saying the piece is for subscribers, on a page carrying only a teaser. (The
    # WSJ teasers in the article corpus say only "To Read the Full Story: Subscribe", which
    # is why that call to action is not an entry: the benchmark counts those teasers read.)
    # A label saying the piece is for subscribers, standing on its own line as labels do
    # ("Subscriber Only", "Exklusiv für Abonnenten": every one in the corpus is a line of its
    # own). In a sentence these words are news ("a members-only preview evening", "we tried
    # subscriber-only labels": tests/pages/hard_negative/press_release_members_only.html,
    # article_about_paywalls.html).
    rx(_PW, "label", alt(
        r"\bsubscribers?[- ]only\b", r"\bsubscriber exclusive\b", r"\bmembers?[- ]only\b",
        r"\bexclusive (to|for) (subscribers|members)\b"),
        "subscriber-only label", gate="teaser",
        ev="walls/paywall/bloomberg_subscriber_only_*, wsj_pro_members_only_*"),
    rx(_PW, "label", alt(
        r"exklusiv für abonnenten", r"nur für abonnenten", r"réservée? aux abonnés",
        r"article réservé", r"(solo|exclusivo) para (suscriptores|socios)",
        r"riservato agli abbonati", r"solo per (gli )?abbonati", r"exclusivo para assinantes",
        r"alleen voor abonnees", r"exclusief voor abonnees",
        r"유료 회원 전용", r"구독자 전용", r"付费阅读", r"会员专享", r"訂戶專屬", r"付費閱讀"),
        "subscriber-only label (de, fr, es, it, pt, nl, ko, zh)", gate="teaser",
        ev="walls/paywall/zeit_exklusiv_*; the same, translated"),
    # Japanese: the sentence a locked article carries, not the word alone, which membership
    # promotions under full articles use (walls2/hard_negative/asahi_*, nikkei_*).
    rx(_PW, "text", r"(この|本)記事は[^。]{0,12}(会員限定|有料)", "members-only article (ja)",
        gate="teaser", ev="the Japanese locked article's own sentence"),
    # The count of what is left to read, the Japanese papers' own way to cut a locked article
    # ("残り1460文字", then the whole article's count), at the end of the text however long
    # the teaser; and the label "読者会員限定" (a development-set page of each,
    # bench/devset3_labels.tsv: Mainichi's and Yomiuri's locked articles).
    rx(_PW, "tail", "残り ?[\\d,\uff0c]{1,7} ?文字", "characters left to read (ja)", gate="tail",
        ev="a Japanese locked article's 'N characters left' line"),
    # (Not "会員限定" alone: a site's menu links its members' corner so.)
    rx(_PW, "label", r"(読者|有料|プレミアム)会員限定", "members-only label (ja)", gate="teaser",
        ev="a Japanese locked article's label"),
    rx(_PW, "text", alt(
        r"to (continue|keep) reading,? (please )?(log ?in|sign ?in|subscribe|register)",
        r"(subscribe|log ?in|sign ?in|sign up|register)( now)? to (continue|keep) reading",
        r"you('ve| have) (reached|used) (your|all your) (free )?(article|story|monthly)",
        r"you('ve| have) read (all (of )?your|your last) free",
        r"you('ve| have) (reached|hit) (your|the) (monthly |free )?(article |story )?limit",
        r"subscribe to (unlock|read) (this|the full)",
        r"unlock this (article|story) (with|by subscribing)",
        # Newsletter platforms' locked posts (tests/pages/paywall/substack_paid_post.html).
        r"(this|the) (post|article|story|episode|issue) is (only )?(for|available to|available "
        r"for) paid (subscribers|members)",
        r"(keep|continue) reading with a (free trial|subscription|\d+-day)"),
        "subscribe to continue reading", gate="teaser",
        ev="walls/paywall/boston_globe_*; metered walls"),
    rx(_PW, "text", alt(
        r"(wählen sie ihren zugang|abonnieren sie) und lesen sie weiter", r"um weiterzulesen",
        r"mit (z\+|plus|abo) weiterlesen", r"weiterlesen mit [\w-]+ ?(\+|plus\b)",
        r"mit [\w-]+ ?(\+|plus) weiterlesen", r"(gleich|sofort) (können sie )?weiterlesen",
        r"(den )?(ganzen|vollständigen|kompletten|gesamten) (artikel|beitrag) (lesen sie )?"
        r"(mit|im) [\w-]+ ?(\+|plus\b|abo\b)",
        r"pour (lire|continuer à lire) la suite", r"la suite (de cet article )?est réservée",
        r"il vous reste \d+ ?% de (cet|l') article à lire",
        r"para (seguir|continuar) leyendo,? (suscr|inicia)", r"suscríbete para (seguir|continuar)",
        r"(suscr[ií]b|suscriptor|reg[ií]str)[^.]{0,40}para (seguir|continuar) leyendo",
        r"per continuare a leggere,? (abbonati|accedi)", r"abbonati per continuare",
        r"para continuar (lendo|a ler),? (assine|faça login)", r"assine para continuar",
        r"(word abonnee|log in) om verder te lezen", r"lees verder met een abonnement",
        r"続きを読むには", r"この記事の続きは",
        r"계속 읽으려면", r"전체 기사를 보려면", r"订阅后继续阅读"),
        "subscribe to read on (de, fr, es, it, pt, nl, ja, ko, zh)", gate="teaser",
        ev="walls/paywall/zeit_exklusiv_*; the same, translated"),
    # A paywall at the end of an otherwise long article.
    rx(_PW, "tail", r"to (continue|keep) reading,? (please )?(log ?in|sign ?in|subscribe)|"
        r"subscribe( now)? to (continue|keep) reading", "subscribe to continue reading",
        gate="tail", ev="walls/paywall/boston_globe_* layout, on a longer teaser"),
)

_CO = "consent"
CONSENT: tuple[Entry, ...] = (
    lit(_CO, "markup", "consent.google.", vendor=_GO, ev="Google consent wall form target"),
    lit(_CO, "markup", "consent.youtube.com", vendor=_GO, ev="walls/consent/youtube_consent_*"),
    rx(_CO, "markup", r"(consent|guce)\.yahoo\.com/(?:[^\"'/]*/){0,8}[^\"'/]*consent",
       "Yahoo consent form",
        vendor="Yahoo", anchor="yahoo.com/", ev="walls/consent/yahoo_oath_*"),
    # A page that only sends the reader on to a consent service, by a refresh or a script's
    # redirect (Google's, YouTube's consent.<host>, Yahoo's and AOL's guce.<host>): nothing to
    # read, the consent step is where the reader is sent.
    rx(_CO, "markup", r"(?:http-equiv=[\"']?refresh[^<>]{0,200}?url=|location(?:\.href)?\s{0,3}="
       r"\s{0,3}[\"']|location\.(?:replace|assign)\(\s{0,3}[\"'])[\"']?https?://"
       r"(?:consent|guce)\.[a-z0-9.-]{1,100}", "a redirect to a consent service", gate="bare",
       vendor="a consent service", anchor="://", ev="consent.google.com, consent.youtube.com, "
       "guce.yahoo.com, guce.aol.com: the consent step a site sends the reader to"),
    rx(_CO, "heading", alt(
        r"before you continue", r"bevor sie (zu .{1,40} )?weitergehen",
        r"avant (de continuer|d'accéder)", r"antes de (continuar|ir a|acceder|prosseguir)",
        r"prima di (continuare|procedere)", r"voordat (je|u) verder ?gaat",
        r"続行する前に", r"계속하기 전에", r"继续之前", r"繼續之前"),
        "before you continue", ev="walls/consent/yahoo_oath_*, youtube_consent_de_*"),
    # Either word order: Dutch and German put the verb first after an adverb ("daarvoor
    # hebben we je toestemming nodig": tests/pages/consent/nl_consent_page_toestemming.html).
    rx(_CO, "text", alt(
        r"(need|ask for|require) your consent",
        r"(wir benötigen|benötigen wir|wir brauchen|brauchen wir) ihre (zustimmung|einwilligung)",
        r"besoin de votre consentement", r"necesitamos (tu|su) consentimiento",
        r"abbiamo bisogno del (tuo|suo) consenso", r"precisamos do seu consentimento",
        r"(we hebben|hebben we|wij hebben|hebben wij) (je|uw|jouw) toestemming nodig"),
        "we need your consent", ev="walls/consent/yahoo_oath_*"),
    # The consent platforms' own sentence, in every language they ship: "we and our partners"
    # store or read something on the device (tests/pages/consent/*). A cookie banner beside
    # an article says it too: only where the page holds nothing else (evidence.py).
    rx(_CO, "text", alt(
        r"(we and our|wir und unsere|nous et nos|nosotros y nuestros|noi e i nostri|"
        r"nós e os nossos|wij en onze) (\d+ )?(partners|partner|partenaires|socios|parceiros)"
        r"[^.]{0,100}(cookies?|device|gerät|endgerät|appareil|dispositivo|apparaat|"
        r"personal data|personenbezogene daten|ihre daten|données personnelles|"
        r"datos personales|dati personali|dados pessoais|persoonsgegevens)"),
        "we and our partners store or access information",
        ev="tests/pages/consent/fr_didomi_full_page.html, onetrust_only_dialog.html, "
           "es_consent_page.html (TCF wording of the common consent platforms)"),
    rx(_CO, "text", r"(accept|agree to) (all )?cookies to (continue|proceed|access)|"
        r"cookies (akzeptieren|zustimmen),? um fortzufahren|"
        r"mit werbung (und|&) tracking (weiter|lesen)|(zustimmen|akzeptieren) und weiter(lesen)?|"
        r"(weiter|weiterlesen|lesen) mit werbung|werbefrei (lesen|weiterlesen|nutzen)",
        "accept cookies to continue",
        ev="cookie walls; German pay-or-okay walls (tests/pages/consent/de_pay_or_ok.html)"),
)

_IN = "interstitial"
_ERROR = "an error page: the site did not serve the page"
_WAIT, _MAINT, _GEO = "a waiting room", "a maintenance page", "a geo-block"
#: A site speaking of itself: "this site", "our service", or its own domain name ("example.com
#: is ..."). News speaks of a site in the third person ("the bank's website is ...").
_SELF = (r"((this|our) (site|website|web site|service|services|page|portal|system|server|app|"
         r"application|platform|store|shop|online shop|webshop|online banking)|"
         r"\b[a-z0-9-]{1,63}\.[a-z]{2,6}\b\W{0,3})")
INTERSTITIAL: tuple[Entry, ...] = (
    # The terms frameworks and web servers translate "Service Unavailable" into, as the
    # page's whole heading (vocabulary.py).
    heading_entry(_IN, "unavailable", "service unavailable (vocabulary)", what=_MAINT),
    # The same for a server's error (500, 502) and an expired session's page (Laravel's
    # 419): the site answered with its error template, not the page (vocabulary.py).
    heading_entry(_IN, "server_error", "server error (vocabulary)", what=_ERROR),
    heading_entry(_IN, "bad_gateway", "bad gateway (vocabulary)", what=_ERROR),
    heading_entry(_IN, "page_expired", "page expired (vocabulary)", what=_ERROR),
    lit(_IN, "markup", "queue-it.net", vendor="Queue-it", what=_WAIT, ev="Queue-it"),
    rx(_IN, "heading", r"waiting room|warteraum|salle d'attente|sala de espera", "waiting room",
        what=_WAIT, ev="walls/other_interstitial/lenovo_waiting_room_*"),
    # A queue that holds *this reader*: heavy traffic *and* a wait in one sentence, or "you
    # are in the queue". The words alone are shops' and news's ("due to high demand, orders
    # may take five days"; "fila de espera" for surgery; 排队 at a library's opening:
    # tests/pages/hard_negative/product_page_high_demand.html, pt_short_news_*, zh_short_news_*).
    rx(_IN, "text", alt(
        r"(due to|because of|experiencing) (heavy|high|unusually high) (traffic|demand|volume)"
        r"[^.!?]{0,80}\b(wait|queue|in line|moment|try again|shortly|redirected)",
        r"(aufgrund|wegen) (des )?hohen (andrangs|aufkommens)[^.!?]{0,80}(warte|gedulden|moment)",
        r"you are (now )?in (the )?(line|queue)", r"your (estimated )?wait(ing)? time",
        # The reader's place kept for them by the site: a waiting room's promise, whatever
        # its vendor ("an app that lets you keep your place in the queue" is news:
        # tests/pages/hard_negative/short_news_clinic_queue_app.html).
        r"we('ve| have| are| will|'ll|'re)? (saved|holding|hold|keep|keeping|reserved|secured) "
        r"your (place|spot) in (the )?(line|queue)",
        r"your (place|spot)( in (the )?(line|queue))? (is|has been) (saved|held|reserved|"
        r"secured)",
        r"(ihr|dein)en? platz in der warteschlange", r"votre place dans la file",
        r"(su|tu) lugar en la (fila|cola)", r"il (tuo|suo) posto in (coda|fila)",
        r"(seu|teu) lugar na fila", r"(je|uw) plaats in de wachtrij",
        r"please wait briefly", r"visitor prioriti[sz]ation",
        r"sie (sind|befinden sich) (jetzt )?in (der|einer) warteschlange",
        r"vous êtes (maintenant )?dans (la )?file d'attente",
        r"(estás|está usted|você está|está) (ahora )?(en|na) (la )?(fila|cola)"
        r"( de espera| virtual)?",
        r"(je|u) (bent|staat) (nu )?in de wachtrij", r"sei (ora )?in coda",
        r"待機列に並んで", r"順番にご案内", r"대기열에 (있|진입)", r"접속 대기",
        r"正在排队", r"排队中", r"您前面还有"),
        "heavy traffic, please wait", what=_WAIT,
        ev="walls/other_interstitial/lenovo_waiting_room_*; queue pages' wording"),
    # A service that is down for a while, in the words banks and shops use for it.
    # An access gate: the site refuses this way in, not this page (walls2/other_interstitial/
    # jobstreet_*: "unable to access page ... through an unauthorised source").
    rx(_IN, "text", alt(r"(sorry,? )?(unable to|cannot|can't) access (this|the) page",
                          r"through an unauthori[sz]ed (source|link|referr?er|channel)"),
        "unable to access this page", what="an access gate",
        ev="walls2/other_interstitial/jobstreet_*; referrer gates of job and ticket sites"),
    # The *site or service* unavailable for now. "Temporarily unavailable" alone is every
    # shop's stock label ("Artikel vorübergehend nicht verfügbar", "Tijdelijk niet beschikbaar",
    # "Produto temporariamente indisponível": tests/pages/hard_negative/*product*).
    rx(_IN, "text",
        r"(please )?try (again )?(after|in) (some|a little|a few|a short) (time|while|minutes)",
        "try again later", what=_MAINT, ev="walls2/other_interstitial/bankofindia_*"),
    # Said by the site of itself, on a page as short as a wall's.
    rx(_IN, "text", alt(
        _SELF + r" (is|are) (currently |temporarily |now ){0,3}(unavailable|not available|down|"
        r"offline|inaccessible)\b",
        r"we('re| are) (currently |temporarily ){1,3}(unavailable|offline|down)\b"),
        "this site is unavailable", what=_MAINT,
        ev="503 and outage pages' wording; tests/pages/other_interstitial/"
           "outage_this_site_unavailable_with_chrome.html"),
    # Said of the site in the third person, the same words are news about an outage ("the
    # service is currently unavailable for customers in the north", "de website is tijdelijk
    # niet bereikbaar door een storing": tests/pages/hard_negative/short_news_service_*,
    # nl_news_website_storing.html): only on a bare page.
    rx(_IN, "text", alt(
        r"(service|site|website|web site|page|server|system|portal|online banking|app) (is|are) "
        r"(currently |temporarily ){1,3}(unavailable|not available|down)\b",
        r"(service|site|website|server) temporarily unavailable",
        r"(seite|website|webseite|dienst|service|server|online-banking|portal|shop|system) "
        r"(ist |sind )?(derzeit |aktuell |momentan |leider ){0,4}vorübergehend nicht "
        r"(verfügbar|erreichbar)",
        r"(site|service|page|serveur|boutique) (est )?(actuellement |momentanément )?"
        r"(temporairement )?(indisponible|inaccessible)",
        r"(sitio|servicio|página|web|servidor|tienda) (está |se encuentra )?"
        r"(temporalmente|momentáneamente) (no disponible|fuera de servicio|inaccesible)",
        r"(sito|servizio|pagina|negozio) (è )?(temporaneamente|momentaneamente) non disponibile",
        r"(site|serviço|página|sistema|loja) (está )?(temporariamente|momentaneamente) "
        r"indispon[ií]vel",
        r"(website|site|dienst|pagina|webshop) is (tijdelijk|momenteel) niet (beschikbaar|"
        r"bereikbaar)",
        r"一時的にご利用いただけません", r"일시적으로 사용할 수 없습니다", r"暂时无法访问"),
        "temporarily unavailable", what=_MAINT, gate="bare",
        ev="503 pages' wording; tests/pages/other_interstitial/*"),
    # Maintenance of *this site*, said by the site ("we are", "the site is"): a bridge or a
    # pool "closed for maintenance" is news (tests/pages/hard_negative/de_short_news_*).
    rx(_IN, "text", alt(
        # ("the store is closed for maintenance", "the website is down for maintenance" are
        # news: the site only as "this", "our", "we" or its domain name; tests/pages/
        # hard_negative/short_news_store_closed_*, short_news_scheduled_maintenance_bridge.html)
        r"(we('re| are)|(this|our) (site|website|web site|page|server|system|portal|app)"
        r"( is| are)?|(this|our) (service|store|shop|online shop|webshop)( is)?|"
        r"\b[a-z0-9-]{1,63}\.[a-z]{2,6}\b\W{0,3} (is|are)) "
        r"(currently |temporarily |now ){0,3}(down|offline|closed|unavailable) (for|due to) "
        r"(scheduled |planned |routine )?maintenance",
        r"(site|website|page|service|store|shop|server|system|portal) (is )?(currently )?"
        r"(under|undergoing) (scheduled |planned )?maintenance",
        r"we('re| are) (currently )?(carrying out|performing|doing|undergoing|running) (some )?"
        r"(scheduled |planned |routine |essential )?(maintenance|upgrades)",
        r"we('re| are) (currently )?offline for", r"we('ll| will) be (right )?back (soon|shortly)",
        r"temporarily (down|offline) for",
        r"(wir führen|führen wir) (gerade |derzeit |aktuell )?(geplante )?wartungsarbeiten",
        r"wegen wartungsarbeiten (vorübergehend )?(nicht erreichbar|offline|nicht verfügbar)",
        r"wegen wartungsarbeiten (ist|sind) (die|diese|unsere|das) (seite|website|webseite|shop|"
        r"dienst|portal|app|online-banking)",
        r"(seite|website|webseite|shop|dienst|portal) (ist )?(derzeit |aktuell |gerade )?"
        r"(wegen|aufgrund von) wartungsarbeiten",
        r"wir sind (gleich|bald) wieder (da|zurück|für sie da)",
        r"(site|service|boutique|page) (est )?(actuellement |temporairement )?en (cours de )?"
        r"maintenance", r"nous (effectuons|réalisons|procédons à) (actuellement )?(une |des )?"
        r"(opérations? de |travaux de )?maintenance", r"nous serons (très )?(bientôt )?de retour",
        r"(sitio|web|página|tienda|servicio|portal) (está )?(actualmente |temporalmente )?en "
        r"mantenimiento", r"estamos (realizando|haciendo|llevando a cabo) (tareas|labores|"
        r"trabajos|operaciones) de mantenimiento", r"volveremos (pronto|en breve|enseguida)",
        r"(sito|pagina|servizio|negozio) (è )?(attualmente |temporaneamente )?in manutenzione",
        r"stiamo (effettuando|eseguendo) (dei |degli )?(lavori|interventi|operazioni) di "
        r"manutenzione", r"torneremo (presto|a breve)",
        r"(site|página|loja|serviço|portal) (está )?(atualmente |temporariamente )?em manutenção",
        r"estamos (realizando|fazendo) (uma )?manutenção", r"voltaremos (em breve|logo)",
        r"(website|site|webshop|pagina) is (tijdelijk |momenteel )?(offline|niet bereikbaar) "
        r"wegens onderhoud", r"(we voeren|voeren we) (momenteel )?onderhoud uit",
        r"(ただいま|現在)(システム)?メンテナンス中", r"メンテナンスを(実施|行って)(おり|い)",
        r"(서비스|시스템|사이트) (정기 )?점검 중", r"系统(正在)?维护中?", r"正在进行(系统)?维护",
        r"(系統|網站)(正在)?維護中"),
        "down for maintenance", what=_MAINT,
        ev="walls/other_interstitial/advanceautoparts_maintenance_*; tests/pages/"
           "other_interstitial/es_mantenimiento.html, en_scheduled_maintenance_bank.html"),
    # An age gate: the site asks the reader's age before it shows anything. Questions and
    # conditions of entry only; "20歳以上の方" on a sake shop's product page is a sales rule
    # (tests/pages/other_interstitial/age_gate_*).
    rx(_IN, "text", alt(
        r"are you (of legal (drinking )?age|over (the age of )?(1[89]|2[01])|(1[89]|2[01]) "
        r"(years of age )?or (older|over)|at least (1[89]|2[01]))",
        r"you must be (of legal (drinking )?age|(1[89]|2[01])( years)?( of age| old)?( or "
        r"(older|over))?) to (enter|access|visit|view|use) (this|the|our) (site|website|page|"
        r"content)",
        r"(enter|confirm|verify) your (date of birth|birth ?date|age) to (enter|continue|access|"
        r"proceed)",
        r"(bist du|sind sie) (mindestens|über|schon) (1[68]|2[01]) jahre",
        r"(musst du|müssen sie) (mindestens |über )?(1[68]|2[01]) jahre alt sein",
        r"(avez-vous|vous avez) (plus de |au moins )?18 ans ?\?",
        r"vous devez (avoir|être) (l'âge légal|majeur)", r"êtes-vous majeur",
        r"(eres|es usted) mayor de (edad|18)", r"(tienes|tiene) (más de |al menos )?18 años ?\?",
        r"(sei maggiorenne|hai (almeno |più di )?18 anni ?\?)",
        r"(você )?(é|tem) maior de (idade|18)", r"(você )?tem (mais de |pelo menos )?18 anos ?\?",
        r"ben (je|u) (18|ouder dan 18|minimaal 18)", r"(18|21) jaar of ouder\?",
        r"(18|20)歳以上ですか", r"(年齢|生年月日)を(確認|入力)してください",
        r"您是否(已)?(年)?满18岁",
        r"(19|만 ?19)세 이상(입니까|이신가요)"),
        "are you of legal age", what="an age gate",
        ev="tests/pages/other_interstitial/age_gate_en, _de, _fr, _ja (wineries', brewers' "
           "and distillers' gates)"),
    # The gate's one question, on a line of its own (a sign-up form asks it inside a longer
    # form; tests/pages/other_interstitial/age_gate_enter_dob.html).
    rx(_IN, "label", "(?m)" + alt(
        r"^(please )?(enter|confirm|select|verify) your (date of birth|birth ?date|year of birth|"
        r"age)\W*$", r"^(bitte )?(gib|geben sie) (dein|ihr) geburtsdatum ein\W*$",
        r"^(veuillez )?(saisir|entrer|indiquer|saisissez|entrez|indiquez) votre date de "
        r"naissance\W*$", r"^(introduce|introduzca|indica) tu fecha de nacimiento\W*$",
        r"^inserisci (la tua )?data di nascita\W*$",
        r"^(digite|informe|insira) (a )?sua data de nascimento\W*$",
        r"^(voer|vul) (je|uw) geboortedatum in\W*$", r"^生年月日を(入力|選択)してください\W*$"),
        "enter your date of birth", what="an age gate",
        ev="tests/pages/other_interstitial/age_gate_enter_dob.html"),
    # "Only available in <country>" also sells products ("only available in stores"): only on
    # a page that says little else (walls/other_interstitial/9now_*: 43 letters).
    rx(_IN, "text", r"(is|are) (only|exclusively) available (in|to (users|viewers|visitors) in) ",
        "only available in", gate="bare", what=_GEO,
        ev="walls/other_interstitial/9now_only_in_australia_*"),
    rx(_IN, "text", alt(
        r"(not|isn't|is not) available in your (country|region|location|area)",
        # A business that says whom it serves instead of the page (walls2/other_interstitial/
        # esurance_*, publix_*, wholefoods_*: three shops, three wordings of one thing).
        r"(do|does)(n't| not) (do business|operate|ship|deliver|sell) in your "
        r"(area|country|region|state|location)",
        r"(not able to|unable to|cannot|can't) (serve|service|accept) (customers|users|"
        r"visitors|orders) (outside|from outside|in your)",
        r"(site|website|store|shop|page|(?<!\S)\S+\.\w{2,3}) (which )?is intended (only )?for "
        r"(customers|users|visitors|residents) (in|of|from|outside)",
        r"unavailable in your (country|region|location)", r"geo-?(blocked|restricted)",
        # The site itself (or its domain name) not for readers where this one is: "example.com
        # is not available to customers located outside ...". Not a product's or an offer's
        # terms beside it (tests/pages/hard_negative/product_page_not_available_outside_*).
        r"(this content|" + _SELF + r") (is|are) (currently )?"
        r"(not|only) (available|accessible|offered|intended) (to|for) (customers|users|visitors|"
        r"residents|patients|players|people|persons|members|anyone)\b[^.]{0,60}\b(located|based|"
        r"residing|living|outside|from)\b",
        # The reader addressed where they are: "you may be accessing the site from a country
        # that ...", "you appear to be located outside ...".
        r"you (may be|are|appear to be|seem to be|might be)( currently)? (accessing|visiting|"
        r"using|browsing|connecting to) [^.]{0,60}from (a|an|your) (country|region|location|"
        r"territory|jurisdiction)",
        r"you (appear to be|seem to be|are|may be)( currently)? (located|based|connecting|"
        r"browsing) (from )?outside",
        r"(zugriff|zugreifen|greifen sie|besuchen sie)[^.]{0,60}aus einem land",
        r"(accédez|accéder|connectez)[^.]{0,60}depuis un pays",
        r"(accediendo|accedes|accede|acceder)[^.]{0,60}desde un país",
        r"(accedendo|accedi|accedere)[^.]{0,60}da un paese",
        r"(acessando|acessar|aceder|acedendo)[^.]{0,60}de um país",
        r"(bezoekt|toegang|opent)[^.]{0,60}vanuit een land",
        r"(is|are) (currently )?unavailable (in|to) (visitors|users|readers) (from|in)",
        r"(is|are) (currently )?unavailable in (most )?european",
        r"in (deinem|ihrem) land nicht verfügbar", r"pas disponible dans votre (pays|région)",
        r"no está disponible en tu (país|región)", r"non è disponibile nel tuo paese",
        r"não está disponível (no seu país|na sua região)",
        r"niet beschikbaar in (jouw|uw) (land|regio)", r"お住まいの地域では", r"해당 국가에서는",
        # Russian: the reader's own address named as the reason access is restricted
        # (bench/devset3_labels.tsv ru_geoblock_01: "ваш IP-адрес принадлежит Российской
        # Федерации, поэтому ограничили доступ"; a news brief says "for users from Russia",
        # not "your address"), or not available in the reader's country.
        r"ваш ip[- ]?адрес[^.]{0,80}(ограничи|заблокирова)",
        r"недоступ[а-я]{0,3} в вашей (стране|регионе)",  # noqa: RUF001 - Cyrillic letters
        r"您所在的(国家|地区)"),
        "not available in your country", what=_GEO,
        ev="walls/other_interstitial/9now_only_in_australia_*"),
    rx(_IN, "markup", r'"playabilitystatus":\{"status":"unplayable","reason":"[^"]{0,120}'
        r'(country|region)', "player status: not available in your country", what=_GEO,
        vendor="YouTube", anchor='"playabilitystatus":{"status":"unplayable"',
        ev="YouTube's geo-block in its player status"),
)
