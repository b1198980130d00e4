"""The words a notice standing in for a site names itself by, in the web's most used languages.

A maintenance, construction, closure, suspension, expiry or block notice says what it is in
its title or heading, in one or two words of its language: "Wartung", "Технические работы",
"メンテナンス", "Website đang bảo trì", "Konto zawieszone". On a page that is nothing but the
notice (reading/barenotice.py's structural test) such a word names the page; anywhere else it
is an article's word, and the rule never sees it there.

Where the maintained vocabularies (vocabulary.py: WordPress's translated maintenance notice,
the frameworks' "service unavailable" and "account suspended" pages) use a noun for the
concept, that noun is the entry here (``vocabulary``); the rest are the common words of the
language for the same notice, written here (``written``), each a stem so its inflections
match (Polish "konserwacja" / "konserwacyjne", Turkish "bakım" / "bakımda"). "Temporarily"
is never an entry alone (Indonesian "sementara" is also "meanwhile"): only with what is
unavailable or closed. A *block* notice (a network's, an Internet provider's or a regulator's
page for an address it blocks, or a site's own geo-block) is named by the words for the site
or the access being blocked, not for the reader's request (a bot check's "your request has
been blocked" is the wall table's, judged before this).

Where a word has a common other sense it stands only in a notice's own phrase: "suspended"
(a suspended ceiling, a firm's name), "deaktiviert" (JavaScript), "メンテナンス" and "维护"
(a maintenance service's own page, "to uphold"), "점검" (an inspection), "محجوب" (a name):
"account suspended", "wurde deaktiviert", "メンテナンス中", "系统维护", "점검 중". A stem of a
spaced script also matches a compound it opens ("Wartungsarbeiten"), so none is a word that
opens an ordinary compound as readily (German "Baustelle" is not an entry).

Since issue 21's ninth round a notice is also an account's (disabled, locked or banned:
Flask-Security's and django-axes' translated messages, ``NOTICE_SOURCES``) or a browser's
("unsupported": browser-update's translated button, the sites' own English sentences), the
notices web applications serve in their own template in place of a profile or a page.

Invariants: lower case (matched against folded text, entries.py); a word of a script written
with spaces is matched from a word's start, one of a script written without (Chinese,
Japanese, Thai) anywhere; every concept names the kind of notice it is.
"""

# ruff: noqa: RUF001, RUF002 - the words are written in their own alphabets

from __future__ import annotations

__all__ = ["NOTICE_SOURCES", "NOTICE_WORDS"]

_VOCABULARY = "vocabulary"  # the noun the maintained term of vocabulary.py uses
_WRITTEN = "written"  # the language's common word for the notice, written here
_FLASK_SECURITY = "flask-security"
_AXES = "django-axes"
_BROWSER_UPDATE = "browser-update"

#: Where an entry of neither kind above comes from: a maintained translation another project
#: keeps, by package or repository, version or commit, file and message (issue 21's ninth
#: round, bench/devset7_labels.tsv: account and browser notices in a site's own template).
#: The entry is the translation as written (folded), or its part before the message's colon
#: where the message is "notice: what to do".
NOTICE_SOURCES: dict[str, str] = {
    _FLASK_SECURITY: (
        "flask-security-too 5.9.2 (PyPI wheel, MIT), flask_security/translations/"
        "<lang>/LC_MESSAGES/flask_security.po, msgid 'Account is disabled.'"),
    _AXES: (
        "django-axes 8.3.1 (PyPI wheel, MIT), axes/locale/<lang>/LC_MESSAGES/django.po, "
        "msgid 'Account locked: too many login attempts. ...' (its part before the colon)"),
    _BROWSER_UPDATE: (
        "browser-update/browser-update at 844c385fe001f92f06c509deb8bec16c2cc0e910 (MIT), "
        "update.npm.full.js, each language's 'bupdate' (the outdated-browser notice's button)"),
}

#: concept -> ((language, stem, where it comes from), ...)
NOTICE_WORDS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "maintenance": (
        ("en", "maintenance", _VOCABULARY), ("fr", "maintenance", _VOCABULARY),
        # A site's own update notice ("We are currently updating the site": bench/
        # devset3_labels.tsv en_maint_01), as a notice's phrase, never the word alone.
        ("en", "updating the site", _WRITTEN), ("en", "updating our site", _WRITTEN),
        ("en", "updating the website", _WRITTEN), ("en", "updating our website", _WRITTEN),
        ("de", "wartung", _WRITTEN), ("de", "instandhaltung", _VOCABULARY),
        ("es", "mantenimiento", _VOCABULARY), ("it", "manutenzione", _VOCABULARY),
        ("pt", "manutenção", _VOCABULARY), ("pt", "manutencao", _WRITTEN),
        ("nl", "onderhoud", _VOCABULARY), ("pl", "konserwac", _VOCABULARY),
        ("pl", "przerwa techniczna", _WRITTEN), ("pl", "prace techniczne", _WRITTEN),
        ("cs", "údržb", _VOCABULARY), ("sk", "údržb", _VOCABULARY),
        ("hu", "karbantartás", _VOCABULARY), ("ro", "mentenanț", _WRITTEN),
        ("ro", "mentenanta", _WRITTEN), ("sv", "underhåll", _VOCABULARY),
        ("da", "vedligeholdelse", _VOCABULARY), ("nb", "vedlikehold", _VOCABULARY),
        ("fi", "huolto", _WRITTEN), ("fi", "huolletaan", _VOCABULARY),
        ("tr", "bakım", _VOCABULARY), ("tr", "bakim", _WRITTEN),
        ("el", "συντήρηση", _VOCABULARY), ("ru", "технические работы", _WRITTEN),
        ("ru", "технических работ", _WRITTEN),
        ("ru", "техническое обслуживание", _VOCABULARY),
        ("ru", "техническом обслуживании", _WRITTEN), ("ru", "профилактическ", _WRITTEN),
        ("uk", "технічні роботи", _WRITTEN), ("uk", "техобслуговування", _VOCABULARY),
        ("he", "תחזוקה", _VOCABULARY), ("ar", "صيانة", _VOCABULARY),
        ("ar", "الصيانة", _VOCABULARY), ("fa", "تعمیرات", _VOCABULARY),
        ("hi", "रखरखाव", _WRITTEN), ("th", "ปิดปรับปรุง", _WRITTEN),
        ("th", "บำรุงรักษา", _WRITTEN), ("vi", "bảo trì", _WRITTEN),
        ("id", "pemeliharaan", _VOCABULARY), ("ms", "penyelenggaraan", _WRITTEN),
        ("zh", "维护中", _VOCABULARY), ("zh", "系统维护", _VOCABULARY),
        ("zh", "网站维护", _VOCABULARY), ("zh", "服务器维护", _VOCABULARY),
        ("zh", "维护公告", _VOCABULARY), ("zh", "正在维护", _VOCABULARY),
        ("zh", "升级维护", _VOCABULARY), ("zh", "維護中", _VOCABULARY),
        ("zh", "系統維護", _VOCABULARY), ("zh", "網站維護", _VOCABULARY),
        ("zh", "維護公告", _VOCABULARY), ("zh", "正在維護", _VOCABULARY),
        ("zh", "升级中", _WRITTEN),
        ("ja", "メンテナンス中", _VOCABULARY), ("ja", "メンテナンスのお知らせ", _VOCABULARY),
        ("ja", "メンテナンス作業", _VOCABULARY), ("ja", "メンテナンスを実施", _VOCABULARY),
        ("ja", "システムメンテナンス", _VOCABULARY), ("ja", "サーバメンテナンス", _VOCABULARY),
        ("ja", "サーバーメンテナンス", _VOCABULARY), ("ja", "定期メンテナンス", _VOCABULARY),
        ("ja", "緊急メンテナンス", _VOCABULARY), ("ko", "점검 중", _WRITTEN),
        ("ko", "점검중", _WRITTEN), ("ko", "서버 점검", _WRITTEN), ("ko", "시스템 점검", _WRITTEN),
        ("ko", "정기 점검", _WRITTEN), ("ko", "긴급 점검", _WRITTEN), ("ko", "점검 안내", _WRITTEN),
        ("ko", "유지보수", _VOCABULARY), ("ko", "유지 보수", _WRITTEN),
    ),
    "construction": (
        ("en", "under construction", _WRITTEN), ("en", "coming soon", _WRITTEN),
        ("de", "im aufbau", _WRITTEN),
        ("fr", "en construction", _WRITTEN), ("fr", "en travaux", _WRITTEN),
        ("es", "en construcción", _WRITTEN), ("it", "in costruzione", _WRITTEN),
        ("pt", "em construção", _WRITTEN), ("nl", "in aanbouw", _WRITTEN),
        ("nl", "onder constructie", _WRITTEN), ("pl", "w budowie", _WRITTEN),
        ("cs", "ve výstavbě", _WRITTEN), ("ru", "в разработке", _WRITTEN),
        ("ru", "на реконструкции", _WRITTEN), ("tr", "yapım aşamasında", _WRITTEN),
        ("sv", "under uppbyggnad", _WRITTEN), ("hu", "fejlesztés alatt", _WRITTEN),
        ("ro", "în construcție", _WRITTEN), ("el", "υπό κατασκευή", _WRITTEN),
        ("vi", "đang xây dựng", _WRITTEN), ("id", "dalam pembangunan", _WRITTEN),
        ("zh", "建设中", _WRITTEN), ("zh", "建設中", _WRITTEN), ("ja", "工事中", _WRITTEN),
        ("ja", "準備中", _WRITTEN), ("ko", "준비중", _WRITTEN), ("ko", "준비 중", _WRITTEN),
    ),
    "unavailable": (
        ("en", "temporarily unavailable", _VOCABULARY),
        ("en", "temporarily closed", _WRITTEN),
        ("en", "temporarily offline", _WRITTEN), ("en", "temporarily down", _WRITTEN),
        ("en", "be back soon", _WRITTEN), ("de", "vorübergehend nicht", _VOCABULARY),
        ("de", "vorübergehend geschlossen", _WRITTEN),
        ("de", "vorübergehend offline", _WRITTEN), ("de", "bald wieder", _WRITTEN),
        ("de", "bald zurück", _WRITTEN),
        ("fr", "temporairement indisponible", _VOCABULARY),
        ("fr", "temporairement fermé", _WRITTEN),
        ("fr", "temporairement inaccessible", _WRITTEN),
        ("fr", "temporairement hors ligne", _WRITTEN),
        ("fr", "bientôt de retour", _WRITTEN),
        ("es", "temporalmente no disponible", _VOCABULARY),
        ("es", "temporalmente cerrado", _WRITTEN),
        ("es", "temporalmente fuera de servicio", _WRITTEN),
        ("es", "volveremos", _WRITTEN),
        ("it", "temporaneamente non disponibile", _VOCABULARY),
        ("it", "temporaneamente chiuso", _WRITTEN),
        ("it", "temporaneamente offline", _WRITTEN),
        ("it", "torneremo", _WRITTEN),
        ("pt", "temporariamente indisponível", _VOCABULARY),
        ("pt", "temporariamente fora do ar", _WRITTEN),
        ("pt", "temporariamente fechado", _WRITTEN), ("pt", "voltaremos", _WRITTEN),
        ("nl", "tijdelijk niet", _VOCABULARY), ("nl", "tijdelijk gesloten", _WRITTEN),
        ("nl", "tijdelijk offline", _WRITTEN), ("nl", "we komen terug", _WRITTEN),
        ("nl", "zijn zo terug", _WRITTEN), ("pl", "tymczasowo niedostępn", _VOCABULARY),
        ("pl", "tymczasowo wyłączon", _WRITTEN), ("pl", "tymczasowo zamknięt", _WRITTEN),
        ("cs", "dočasně nedostupn", _VOCABULARY), ("cs", "dočasně mimo provoz", _WRITTEN),
        ("cs", "dočasně uzavřen", _WRITTEN), ("sk", "dočasne nedostupn", _WRITTEN),
        ("sk", "dočasne mimo prevádzky", _WRITTEN),
        ("hu", "átmenetileg nem elérhető", _WRITTEN),
        ("hu", "ideiglenesen nem elérhető", _WRITTEN),
        ("hu", "átmenetileg szünetel", _WRITTEN),
        ("ro", "temporar indisponibil", _WRITTEN), ("ro", "temporar închis", _WRITTEN),
        ("sv", "tillfälligt otillgänglig", _VOCABULARY),
        ("sv", "tillfälligt stängd", _WRITTEN),
        ("sv", "tillfälligt nere", _WRITTEN),
        ("da", "midlertidigt utilgængelig", _WRITTEN),
        ("da", "midlertidigt lukket", _WRITTEN), ("da", "midlertidigt nede", _WRITTEN),
        ("nb", "midlertidig utilgjengelig", _VOCABULARY),
        ("nb", "midlertidig stengt", _WRITTEN), ("nb", "midlertidig nede", _WRITTEN),
        ("fi", "väliaikaisesti poissa", _WRITTEN),
        ("fi", "väliaikaisesti suljettu", _WRITTEN),
        ("fi", "väliaikaisesti pois käytöstä", _WRITTEN),
        ("el", "προσωρινά μη διαθέσιμ", _WRITTEN),
        ("el", "προσωρινά εκτός λειτουργίας", _WRITTEN),
        ("el", "προσωρινά κλειστ", _WRITTEN),
        ("ru", "временно недоступ", _WRITTEN), ("ru", "временно закрыт", _WRITTEN),
        ("ru", "временно не работает", _WRITTEN),
        ("ru", "временно приостановлен", _WRITTEN),
        ("ru", "сайт недоступен", _WRITTEN), ("ru", "сайт закрыт", _WRITTEN),
        ("ru", "закрыт по техническим", _WRITTEN), ("uk", "тимчасово недоступ", _WRITTEN),
        ("uk", "тимчасово закрит", _WRITTEN), ("uk", "тимчасово не працює", _WRITTEN),
        ("uk", "сайт недоступний", _WRITTEN), ("tr", "geçici olarak kapalı", _WRITTEN),
        ("tr", "geçici olarak hizmet dışı", _WRITTEN),
        ("tr", "geçici olarak kullanılamıyor", _WRITTEN),
        ("tr", "geçici olarak erişilemiyor", _WRITTEN), ("ar", "متوقف مؤقت", _WRITTEN),
        ("ar", "مغلق مؤقت", _WRITTEN), ("ar", "غير متاح مؤقت", _WRITTEN),
        ("ar", "متوقفة حاليا", _WRITTEN), ("ar", "متوقفة حاليًا", _WRITTEN),
        ("vi", "tạm thời không", _WRITTEN), ("vi", "tạm ngưng", _WRITTEN),
        ("id", "sementara tidak tersedia", _WRITTEN),
        ("id", "sementara ditutup", _WRITTEN),
        ("id", "sementara tidak dapat diakses", _WRITTEN),
        ("th", "ปิดชั่วคราว", _WRITTEN),
        ("th", "ระงับชั่วคราว", _WRITTEN), ("zh", "暂时无法", _WRITTEN),
        ("zh", "暫時無法", _WRITTEN),
        ("zh", "暂停访问", _WRITTEN), ("zh", "暂停服务", _WRITTEN), ("zh", "暂停营业", _WRITTEN),
        ("zh", "暫停服務", _WRITTEN), ("zh", "已被关闭", _WRITTEN), ("zh", "已停止访问", _WRITTEN),
        ("ja", "一時停止", _WRITTEN), ("ja", "停止中", _WRITTEN), ("ko", "일시중지", _VOCABULARY),
        ("ko", "일시 중지", _WRITTEN),
        # The frameworks' "Service Unavailable" in the unspaced scripts (vocabulary.py's
        # 'unavailable' terms: Laravel-Lang's ja, zh_CN, zh_TW; httpd's zh-tw): a whole
        # phrase, matched anywhere in a line ("現在、サービスは利用できません",
        # bench/devset5_labels.tsv ry_503).
        ("ja", "サービスは利用できません", _VOCABULARY), ("zh", "服务不可用", _VOCABULARY),
        ("zh", "服務不可用", _VOCABULARY), ("zh", "暫時不提供服務", _VOCABULARY),
        ("ko", "서비스를 사용할 수 없습니다", _VOCABULARY),
    ),
    "suspended": (
        ("en", "been suspended", _VOCABULARY), ("en", "account suspended", _VOCABULARY),
        ("en", "site suspended", _VOCABULARY), ("en", "website suspended", _VOCABULARY),
        ("en", "is suspended", _VOCABULARY),
        ("en", "temporarily suspended", _VOCABULARY), ("en", "has expired", _WRITTEN),
        ("de", "konto deaktiviert", _WRITTEN), ("de", "account deaktiviert", _WRITTEN),
        ("de", "website deaktiviert", _WRITTEN), ("de", "seite deaktiviert", _WRITTEN),
        ("de", "wurde deaktiviert", _WRITTEN),
        ("fr", "a été suspendu", _WRITTEN), ("fr", "est suspendu", _WRITTEN),
        ("fr", "compte suspendu", _WRITTEN), ("fr", "site suspendu", _WRITTEN),
        ("es", "ha sido suspendid", _WRITTEN), ("es", "está suspendid", _WRITTEN),
        ("es", "cuenta suspendid", _WRITTEN), ("es", "sitio suspendid", _WRITTEN),
        ("it", "è stato sospes", _WRITTEN), ("it", "è sospes", _WRITTEN),
        ("it", "account sospes", _WRITTEN), ("it", "sito sospes", _WRITTEN),
        ("pt", "foi suspens", _WRITTEN), ("pt", "está suspens", _WRITTEN),
        ("pt", "conta suspens", _WRITTEN), ("pt", "site suspens", _WRITTEN),
        ("nl", "opgeschort", _WRITTEN), ("pl", "zostało zawieszon", _WRITTEN),
        ("pl", "zostalo zawieszon", _WRITTEN), ("pl", "został zawieszon", _WRITTEN),
        ("pl", "została zawieszon", _WRITTEN), ("pl", "zostala zawieszon", _WRITTEN),
        ("pl", "konto zawieszon", _WRITTEN),
        ("cs", "pozastaven", _WRITTEN), ("ru", "приостановлен", _WRITTEN),
        ("ru", "период оплаты истек", _WRITTEN),
        ("uk", "призупинено", _WRITTEN),
        ("tr", "askıya alın", _WRITTEN), ("vi", "bị khóa", _WRITTEN),
        ("vi", "tạm khóa", _WRITTEN), ("id", "ditangguhkan", _WRITTEN),
        ("zh", "已暂停", _WRITTEN), ("zh", "已过期", _WRITTEN), ("zh", "已到期", _WRITTEN),
        ("ja", "停止されています", _WRITTEN), ("ja", "期限切れ", _WRITTEN),
        ("ko", "정지되었습니다", _WRITTEN), ("ko", "만료되었습니다", _WRITTEN),
        # An account disabled by its site's administrator (Flask-Security's message).
        ("en", "account is disabled", _FLASK_SECURITY),
        ("af", "rekening is gestremd", _FLASK_SECURITY),
        ("ar", "تم تعطيل الحساب", _FLASK_SECURITY),
        ("ca", "el compte està desactivat", _FLASK_SECURITY),
        ("da", "kontoen er deaktiveret", _FLASK_SECURITY),
        ("de", "konto ist deaktiviert", _FLASK_SECURITY),
        ("es", "cuenta deshabilitada", _FLASK_SECURITY),
        ("eu", "kontua desgaituta dago", _FLASK_SECURITY),
        ("fr", "le compte est désactivé", _FLASK_SECURITY),
        ("hu", "a fiók le van tiltva", _FLASK_SECURITY),
        ("is", "aðgangurinn er óvirkur", _FLASK_SECURITY),
        ("it", "l'account è disabilitato", _FLASK_SECURITY),
        ("ja", "アカウントが無効になっています", _FLASK_SECURITY),
        ("nl", "account is geblokkeerd", _FLASK_SECURITY),
        ("pl", "konto jest wyłączone", _FLASK_SECURITY),
        ("pt", "conta desabilitada", _FLASK_SECURITY),
        ("pt", "conta desactivada", _FLASK_SECURITY),
        ("ru", "аккаунт отключён", _FLASK_SECURITY),
        ("tr", "hesap kapalıdır", _FLASK_SECURITY),
        ("zh", "账户已被禁用", _FLASK_SECURITY),
        # An account locked after failed sign-ins (django-axes' lockout notice).
        ("en", "account locked", _AXES), ("ar", "الحساب مغلق", _AXES),
        ("de", "zugang gesperrt", _AXES), ("fa", "حساب کاربری قفل شد", _AXES),
        ("fr", "compte verrouillé", _AXES), ("id", "akun terkunci", _AXES),
        ("pl", "konto zablokowane", _AXES), ("ru", "учетная запись заблокирована", _AXES),
        ("tr", "hesap kilitlendi", _AXES),
        # A banned account, as the notice's phrase (bench/devset7_labels.tsv yd_banned,
        # sysmi_banned, gal_blocked: a course site's, a French site's and a gallery's own
        # views); no vocabulary at hand translates it.
        ("en", "account banned", _WRITTEN), ("en", "account has been banned", _WRITTEN),
        ("en", "account is blocked", _WRITTEN), ("en", "account has been blocked", _WRITTEN),
        ("fr", "compte banni", _WRITTEN), ("fr", "a été banni", _WRITTEN),
    ),
    "unsupported": (
        # A notice that the reader's browser cannot show the site: browser-update's button
        # of its outdated-browser notice, in its languages, and the sites' own English
        # sentences (bench/devset7_labels.tsv c1_unsupported, rg_bns, ba_nojs).
        ("en", "update browser", _BROWSER_UPDATE), ("de", "browser aktualisieren", _BROWSER_UPDATE),
        ("es", "actualizar navegador", _BROWSER_UPDATE),
        ("fr", "mettre à jour le navigateur", _BROWSER_UPDATE),
        ("it", "aggiorna browser", _BROWSER_UPDATE), ("nl", "browser updaten", _BROWSER_UPDATE),
        ("pl", "aktualizuj przeglądarkę", _BROWSER_UPDATE),
        ("pt", "atualizar navegador", _BROWSER_UPDATE),
        ("tr", "tarayıcıyı güncelle", _BROWSER_UPDATE),
        ("ja", "ブラウザを更新する", _BROWSER_UPDATE),
        ("zh", "更新浏览器", _BROWSER_UPDATE),
        ("ru", "обновить браузер", _BROWSER_UPDATE),
        ("en", "browser is not supported", _WRITTEN), ("en", "browser not supported", _WRITTEN),
        ("en", "javascript is disabled", _WRITTEN),
    ),
    "blocked": (
        ("en", "this site is blocked", _WRITTEN),
        ("en", "this website is blocked", _WRITTEN),
        ("en", "site has been blocked", _WRITTEN),
        ("en", "website has been blocked", _WRITTEN),
        ("en", "blocked by court order", _WRITTEN),
        ("en", "blocked in accordance with", _WRITTEN),
        ("en", "access to this site has been", _WRITTEN),
        ("en", "access to this website has been", _WRITTEN),
        ("de", "seite gesperrt", _WRITTEN),
        ("de", "zugang gesperrt", _WRITTEN), ("de", "zugriff gesperrt", _WRITTEN),
        ("de", "website gesperrt", _WRITTEN), ("fr", "site bloqué", _WRITTEN),
        ("fr", "accès bloqué", _WRITTEN), ("fr", "bloqué par décision", _WRITTEN),
        ("es", "sitio bloqueado", _WRITTEN), ("es", "acceso bloqueado", _WRITTEN),
        ("es", "bloqueado por orden", _WRITTEN), ("it", "sito bloccato", _WRITTEN),
        ("it", "sottoposto a sequestro", _WRITTEN), ("it", "sito oscurato", _WRITTEN),
        ("it", "è stato oscurato", _WRITTEN),
        ("pt", "site bloqueado", _WRITTEN), ("pt", "acesso bloqueado", _WRITTEN),
        ("pt", "bloqueado por ordem", _WRITTEN), ("nl", "geblokkeerd", _WRITTEN),
        ("pl", "zablokowan", _WRITTEN), ("cs", "zablokován", _WRITTEN),
        ("ru", "доступ к ресурсу", _WRITTEN), ("ru", "ресурс заблокирован", _WRITTEN),
        ("ru", "сайт заблокирован", _WRITTEN), ("ru", "доступ ограничен", _WRITTEN),
        ("ru", "по решению суда", _WRITTEN), ("uk", "доступ до ресурсу", _WRITTEN),
        ("uk", "доступ обмежено", _WRITTEN), ("uk", "сайт заблоковано", _WRITTEN),
        ("tr", "erişim engellen", _WRITTEN), ("tr", "engellenmiştir", _WRITTEN),
        ("tr", "erişime kapatılmıştır", _WRITTEN), ("el", "αποκλεισμ", _WRITTEN),
        ("id", "diblokir", _WRITTEN), ("id", "internet positif", _WRITTEN),
        ("id", "konten negatif", _WRITTEN), ("ms", "disekat", _WRITTEN),
        ("vi", "bị chặn", _WRITTEN), ("th", "ระงับการเข้าถึง", _WRITTEN),
        ("th", "ถูกปิดกั้น", _WRITTEN), ("ar", "تم حجب", _WRITTEN),
        ("ar", "الموقع محجوب", _WRITTEN),
        ("fa", "دسترسی به این وب", _WRITTEN), ("fa", "امکان پذیر نمی باشد", _WRITTEN),
        ("he", "נחסם", _WRITTEN), ("he", "האתר חסום", _WRITTEN),
        ("hi", "अवरुद्ध", _WRITTEN),
        ("zh", "已被屏蔽", _WRITTEN), ("zh", "已被封锁", _WRITTEN), ("zh", "禁止访问", _WRITTEN),
        ("ja", "ブロックされ", _WRITTEN), ("ja", "アクセスが制限", _WRITTEN),
        ("ko", "접속이 차단", _WRITTEN),
        ("ko", "차단되었습니다", _WRITTEN), ("ko", "차단된 사이트", _WRITTEN),
    ),
}
