"""The wall table's words for walls a site puts up on purpose: sign-in walls, paywalls, consent
walls and interstitials (waiting rooms, maintenance pages, geo-blocks, access gates).

Part of the wall table (walls.py assembles it, in this order after the bot checks); the
invariants of every table are in entries.py.
"""

from __future__ import annotations

from readreceipt.reading.entries import Entry, alt, lit, rx

__all__ = ["CONSENT", "INTERSTITIAL", "LOGIN", "PAYWALL"]

_GO = "Google"

_LG = "login"
# "You must be logged in to post a comment" and "Please log in using one of these methods to
# post your comment" sit under many articles (articles 95301fb7, c467d507, 21486419):
# signing in to take part is not signing in to read.
_NOT_TO_TAKE_PART = (r"(?! (to|and|or) (post|comment|reply|leave|vote|like|rate|add|write|"
                     r"follow|save|join|submit|report|download|bookmark|react))"
                     r"(?![^.!?\n]{0,60}\b(comment|comments|reply|replies|review|vote)\b)")
_SIGN_IN_WORD = (r"((log ?in|sign ?in)( (to|into|with) [^|]{1,30})?|log into [^|]{1,30}|"
                 r"(?!to )\w+ log ?in|sign ?up|register|anmelden|anmeldung|registrieren|"
                 r"connexion|se connecter|inscription|iniciar sesi[oó]n|reg[ií]strate|accedi|"
                 r"accesso|registrati|entrar|cadastre-se|inloggen|aanmelden|registreren|"
                 r"ログイン|会員登録|로그인|회원가입|登录|登入|注册)")
# Title separators: bar, hyphen, en and em dash, colon, middle dot, bullet.
_SEP = "[|\\-\u2013\u2014:\u00b7\u2022]"
#: A registration wall, looked for on a short page anywhere and at the end of a long one.
_REGISTER_TO_READ = alt(
    r"(log ?in|sign ?in) or (create|register) (an?|your)( free)?( [\w.]+)? account to "
    r"(continue|keep reading|read)",
    r"create a free account to (continue|keep) reading",
    r"register (for free )?to (continue|keep) reading")

LOGIN: tuple[Entry, ...] = (
    # A password field with little else: sign-in pages show 110-127 letters of main text;
    # a header sign-in form also sits on short articles (one of 530 letters in the corpus).
    rx(_LG, "markup", r"type=[\"']?password", "password field", anchor="password",
        gate="bare", ev="walls/login/aol_*, ca_dmv_*"),
    lit(_LG, "markup", '"playabilitystatus":{"status":"login_required"', vendor="YouTube",
         name="player status LOGIN_REQUIRED", ev="YouTube age-gated and private videos"),
    rx(_LG, "title", rf"(^|{_SEP} ?){_SIGN_IN_WORD}( ?{_SEP}|$)", "a title that is a sign-in word",
        ev="walls/login/aol_* ('AOL - login'), ca_dmv_* ('Login'); 'Sign in to X', 'Sign Up'"),
    rx(_LG, "text", r"(login|log-in|sign-in) page is (opening|loading)|"
        r"redirect(ed|ing)? to the (login|sign-in) page", "redirecting to the login page",
        ev="walls/login/captive_portal_*"),
    rx(_LG, "text", alt(
        r"(log ?in|sign ?in) (required|to continue|to view|to see|to access)",
        r"please (log|sign) ?in\b", r"you (must|need to) (be logged in|log ?in|sign ?in)",
        r"(login|authentication) required") + _NOT_TO_TAKE_PART,
        "sign in to continue", ev="sign-in walls (en); comment forms excluded"),
    rx(_LG, "text", alt(
        r"melden sie sich an", r"bitte anmelden", r"anmelden, um", r"anmeldung erforderlich",
        r"veuillez vous connecter", r"connectez-vous pour", r"connexion requise",
        r"inicia sesión para", r"debes iniciar sesión", r"necesitas iniciar sesión",
        r"accedi per (continuare|visualizzare)", r"effettua l'accesso per",
        r"faça (o )?login para", r"inicie sessão para", r"entre para continuar",
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
    rx(_PW, "text", alt(
        r"\bsubscribers?[- ]only\b", r"\bsubscriber exclusive\b", r"\bmembers?[- ]only\b",
        r"\bexclusive (to|for) (subscribers|members)\b"),
        "subscriber-only label", gate="teaser",
        ev="walls/paywall/bloomberg_subscriber_only_*, wsj_pro_members_only_*"),
    rx(_PW, "text", alt(
        r"exklusiv für abonnenten", r"nur für abonnenten", r"réservée? aux abonnés",
        r"article réservé", r"(solo|exclusivo) para (suscriptores|socios)",
        r"riservato agli abbonati", r"solo per (gli )?abbonati", r"exclusivo para assinantes",
        r"alleen voor abonnees", r"exclusief voor abonnees",
        # Japanese: the sentence a locked article carries, not the word alone, which
        # membership promotions under full articles use (walls2/hard_negative/asahi_*, nikkei_*)
        r"(この|本)記事は[^。]{0,12}(会員限定|有料)",
        r"유료 회원 전용", r"구독자 전용", r"付费阅读", r"会员专享", r"訂戶專屬", r"付費閱讀"),
        "subscriber-only label (de, fr, es, it, pt, nl, ja, ko, zh)", gate="teaser",
        ev="walls/paywall/zeit_exklusiv_*; the same, translated"),
    rx(_PW, "text", alt(
        r"to (continue|keep) reading,? (please )?(log ?in|sign ?in|subscribe|register)",
        r"(subscribe|log ?in|sign ?in|sign up|register)( now)? to (continue|keep) reading",
        r"you('ve| have) (reached|used) (your|all your) (free )?(article|story|monthly)",
        r"you('ve| have) read (all (of )?your|your last) free",
        r"subscribe to (unlock|read) (this|the full)",
        r"unlock this (article|story) (with|by subscribing)"),
        "subscribe to continue reading", gate="teaser",
        ev="walls/paywall/boston_globe_*; metered walls"),
    rx(_PW, "text", alt(
        r"(wählen sie ihren zugang|abonnieren sie) und lesen sie weiter", r"um weiterzulesen",
        r"mit (z\+|plus|abo) weiterlesen", r"weiterlesen mit [\w-]+ ?(\+|plus\b)",
        r"mit [\w-]+ ?(\+|plus) weiterlesen", r"(gleich|sofort) (können sie )?weiterlesen",
        r"pour (lire|continuer à lire) la suite", r"la suite (de cet article )?est réservée",
        r"para (seguir|continuar) leyendo,? (suscr|inicia)", r"suscríbete para (seguir|continuar)",
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
    rx(_CO, "markup", r"(consent|guce)\.yahoo\.com/[^\"']*consent", "Yahoo consent form",
        vendor="Yahoo", anchor="yahoo.com/", ev="walls/consent/yahoo_oath_*"),
    rx(_CO, "heading", alt(
        r"before you continue", r"bevor sie (zu .{1,40} )?weitergehen",
        r"avant (de continuer|d'accéder)", r"antes de (continuar|ir a|acceder|prosseguir)",
        r"prima di (continuare|procedere)", r"voordat (je|u) verder ?gaat",
        r"続行する前に", r"계속하기 전에", r"继续之前", r"繼續之前"),
        "before you continue", ev="walls/consent/yahoo_oath_*, youtube_consent_de_*"),
    rx(_CO, "text", alt(
        r"(need|ask for|require) your consent", r"wir benötigen ihre (zustimmung|einwilligung)",
        r"besoin de votre consentement", r"necesitamos tu consentimiento",
        r"abbiamo bisogno del tuo consenso", r"precisamos do seu consentimento",
        r"we hebben (je|uw) toestemming nodig"),
        "we need your consent", ev="walls/consent/yahoo_oath_*"),
    rx(_CO, "text", r"(accept|agree to) (all )?cookies to (continue|proceed|access)|"
        r"cookies (akzeptieren|zustimmen),? um fortzufahren|"
        r"mit werbung (und|&) tracking (weiter|lesen)|zustimmen und weiter(lesen)?",
        "accept cookies to continue", ev="cookie walls; German pay-or-okay walls"),
)

_IN = "interstitial"
_WAIT, _MAINT, _GEO = "a waiting room", "a maintenance page", "a geo-block"
INTERSTITIAL: tuple[Entry, ...] = (
    lit(_IN, "markup", "queue-it.net", vendor="Queue-it", what=_WAIT, ev="Queue-it"),
    rx(_IN, "heading", r"waiting room|warteraum|salle d'attente|sala de espera", "waiting room",
        what=_WAIT, ev="walls/other_interstitial/lenovo_waiting_room_*"),
    rx(_IN, "text", alt(
        r"(due to|because of|experiencing) (heavy|high|unusually high) (traffic|demand|volume)",
        r"you are (now )?in (the )?(line|queue)", r"your (estimated )?wait(ing)? time",
        r"please wait briefly", r"visitor prioriti[sz]ation", r"hohen (andrangs|aufkommens)",
        r"file d'attente",
        r"fila de espera", r"wachtrij", r"待機列", r"대기열", r"排队"),
        "heavy traffic, please wait", what=_WAIT,
        ev="walls/other_interstitial/lenovo_waiting_room_*"),
    # A service that is down for a while, in the words banks and shops use for it.
    # An access gate: the site refuses this way in, not this page (walls2/other_interstitial/
    # jobstreet_*: "unable to access page ... through an unauthorised source").
    rx(_IN, "text", alt(r"(sorry,? )?(unable to|cannot|can't) access (this|the) page",
                          r"through an unauthori[sz]ed (source|link|referr?er|channel)"),
        "unable to access this page", what="an access gate",
        ev="walls2/other_interstitial/jobstreet_*; referrer gates of job and ticket sites"),
    rx(_IN, "text", alt(
        r"(please )?try (again )?(after|in) (some|a little|a few|a short) (time|while|minutes)",
        r"(service|site|website|page) is (temporarily|currently) unavailable",
        r"temporarily unavailable", r"vorübergehend nicht (verfügbar|erreichbar)",
        r"temporairement (indisponible|inaccessible)", r"temporalmente (no disponible|"
        r"fuera de servicio)", r"temporaneamente non disponibile",
        r"temporariamente indispon[ií]vel", r"tijdelijk niet beschikbaar",
        r"一時的にご利用いただけません", r"일시적으로 사용할 수 없습니다", r"暂时无法访问"),
        "temporarily unavailable, try later", what=_MAINT,
        ev="walls2/other_interstitial/bankofindia_*; 503 pages' wording"),
    rx(_IN, "text", alt(
        # (not "will be taken down for maintenance on ...": a notice on a working page)
        r"(?<!will be )(?<!be taken )(down|offline|closed) for (scheduled )?maintenance",
        r"(under|undergoing) (scheduled )?maintenance", r"scheduled maintenance",
        r"we('re| are) (currently )?offline for", r"we('ll| will) be back (soon|shortly)",
        r"temporarily (down|offline) for", r"be right back", r"wartungsarbeiten",
        r"en (cours de )?maintenance",
        r"en mantenimiento", r"in manutenzione", r"em manutenção", r"wegens onderhoud",
        r"メンテナンス中", r"점검 중", r"系统维护", r"維護中"),
        "down for maintenance", what=_MAINT,
        ev="walls/other_interstitial/advanceautoparts_maintenance_*"),
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
        r"(site|website|store|shop|page|\S+\.\w{2,3}) (which )?is intended (only )?for "
        r"(customers|users|visitors|residents) (in|of|from|outside)",
        r"unavailable in your (country|region|location)", r"geo-?(blocked|restricted)",
        r"(is|are) (currently )?unavailable (in|to) (visitors|users|readers) (from|in)",
        r"(is|are) (currently )?unavailable in (most )?european",
        r"in (deinem|ihrem) land nicht verfügbar", r"pas disponible dans votre (pays|région)",
        r"no está disponible en tu (país|región)", r"non è disponibile nel tuo paese",
        r"não está disponível (no seu país|na sua região)",
        r"niet beschikbaar in (jouw|uw) (land|regio)", r"お住まいの地域では", r"해당 국가에서는",
        r"您所在的(国家|地区)"),
        "not available in your country", what=_GEO,
        ev="walls/other_interstitial/9now_only_in_australia_*"),
    rx(_IN, "markup", r'"playabilitystatus":\{"status":"unplayable","reason":"[^"]{0,120}'
        r'(country|region)', "player status: not available in your country", what=_GEO,
        vendor="YouTube", anchor='"playabilitystatus":{"status":"unplayable"',
        ev="YouTube's geo-block in its player status"),
)
