"""The not-found, search-result and parked-page tables (read by reading/notfound.py).

``SOFT_404`` names what says outright that a page is not there (a heading saying the page was
not found, in any language the table knows; a platform's own error status; the status code
in the page's own heading); ``NO_RESULTS`` a search that found nothing; ``SOFT_404_SUSPECT``
only raises a suspicion, which the host's own answer for a path that cannot exist settles;
``PARKED`` a registrar's or marketplace's parking page. The invariants of every table are in
entries.py.
"""

from __future__ import annotations

from readreceipt.reading.tables.entries import Entry, alt, lit, rx
from readreceipt.reading.tables.terms import heading_entry, phrase_entry

__all__ = ["NO_RESULTS", "PARKED", "SEARCH_KEYS", "SEARCH_SEGMENTS", "SOFT_404",
           "SOFT_404_SUSPECT"]

# --- soft 404s ----------------------------------------------------------------------------

_S4 = "soft_404"
SOFT_404: tuple[Entry, ...] = (
    lit(_S4, "markup", '"playabilitystatus":{"status":"error"', name="player status ERROR",
         vendor="YouTube", ev="walls/soft_404/youtube_video_unavailable_2025_*"),
    lit(_S4, "markup", '"playabilitystatus":{"status":"unplayable"',
         name="player status UNPLAYABLE", vendor="YouTube", ev="YouTube's removed videos"),
    lit(_S4, "markup", '"page":"/404"', name="Next.js 404 page", ev="Next.js __NEXT_DATA__"),
    lit(_S4, "markup", '"page":"/_error"', name="Next.js error page", ev="Next.js __NEXT_DATA__"),
    lit(_S4, "markup", 'name="prerender-status-code" content="404"', name="prerender 404",
         ev="prerender.io convention"),
    # 404 as an error code: first, after a separator or a mark ("Page not found - 404",
    # "Oops! 404", "(404)"), or beside an error word. After a word it is a name: "Peugeot 404",
    # "Route 404" (tests/pages/hard_negative/classified_peugeot_404.html).
    # The status code 404 in the page's own heading, as a code: first, after a separator or a
    # mark. A number, not a word: the same in every language (structure).
    rx(_S4, "heading", r"(^|[|\-\u2013\u2014:\u00b7\u2022(\[!?.]\s*)404(\D|$)",
        "status code 404 in the page's own heading", evidence="structure",
        ev="common not-found titles; walls2/soft_404/*"),
    # The page's noun and the code, as the whole title ("Страница 404", "Page 404"): a
    # paginated listing's title has the listing's name before its page number.
    rx(_S4, "heading", r"^\W{0,3}(страница|page|seite|página|pagina|strona|sayfa|stránka|"
        r"sida|side|oldal|sivu|pagină)\W{0,3}404\W{0,3}$", "'page 404' as the whole title",
        ev="bench/devset3_labels.tsv ru_soft404_02 (a studio's 'Страница 404')"),
    rx(_S4, "heading", r"(error|fehler|erreur|errore|erro|hata|ошибка|błąd|chyba|http)"
        r"\W{0,3}404(\D|$)|"
        r"(^|\D)404\W{0,3}(error|not found|page|fehler|seite|erreur|página|pagina|sayfa|"
        r"страница|strona)", "404 in the title", ev="common not-found titles; walls2/soft_404/*"),
    # A heading saying *the page* (or video, post...) is not there; "not found" alone only as
    # the whole heading: "Hiker not found after three days" is news.
    rx(_S4, "heading", alt(
        r"(page|file|resource|document|url|article|post|content|product|video|site) "
        r"(was |could )?not (be )?found", r"^(error:? )?(404:? )?not found\b",
        # "Oops, not found", "Post not found"; not "Missing walker still not found".
        r"^\W*(\w+\W+)?not found\W*$", r"page (cannot|can't) be found",
        r"(can't|cannot|couldn't|could not) find (that|this|the) page",
        r"(page|video|post|article|content|account|user|profile) (does not|doesn't|no longer) "
        r"exists?", r"\bpage\b[^.:]{0,40}(does not|doesn't|no longer) exists?",
        r"video unavailable",
        r"(page|video|content|post|link|product) (is (no longer |not |un|currently not )"
        r"available|isn't available)",
        r"(seite|datei|artikel|inhalt|beitrag|video)[^.:]{0,30}(nicht gefunden|existiert nicht|"
        r"nicht (mehr )?verfügbar|gibt es (leider )?nicht)", r"konnte nicht gefunden werden",
        r"page introuvable", r"page non trouvée",
        r"(page|article|contenu|vidéo|lien)[^.:]{0,30}(n'existe (pas|plus)|(est )?introuvable)",
        # Turkish, Russian, Ukrainian, Polish, Czech, Swedish, Danish, Norwegian, Finnish,
        # Hungarian, Romanian, Greek, Vietnamese, Indonesian, Thai, Arabic, Hebrew, Hindi:
        # each language's own words for a page that is not there (walls2/soft_404/saglik_*).
        r"sayfa bulunamad[ıi]", r"страница не найдена", r"сторінк[уа] не знайдено",  # noqa: RUF001 - Turkish and Cyrillic letters are the words themselves
        r"страниц[аы][^.:]{0,30}не существует",
        r"nie znaleziono strony", r"strony nie znaleziono", r"stránka nenalezena",
        r"strona[^.:]{0,30}nie (istnieje|została znaleziona)",
        r"stránka nebyla nalezena", r"stránka neexistuje",
        r"sidan (kunde inte hittas|hittades inte)", r"sidan[^.:]{0,30}finns inte",
        r"siden (blev ikke fundet|finnes ikke|findes ikke|ble ikke funnet|kunne ikke findes)",
        r"sivua ei l[öo]ydy", r"az oldal nem található", r"pagina nu a fost găsită",
        r"pagina nu există", r"η σελίδα δεν βρέθηκε",
        r"không tìm thấy trang", r"trang[^.:]{0,30}không tồn tại",
        r"halaman tidak ditemukan", r"halaman[^.:]{0,30}tidak (ditemukan|ada|tersedia)",
        r"ไม่พบหน้า",
        r"الصفحة غير موجودة", r"لم يتم العثور على الصفحة", r"הדף לא נמצא",
        r"पृष्ठ नहीं मिला",
        r"p[aá]gina no encontrada", r"(p[aá]gina|art[ií]culo|contenido|v[ií]deo)[^.:]{0,30}"
        r"(no existe|no se (ha )?encontr[oó])",
        r"pagina non trovata", r"(pagina|articolo|contenuto|video)[^.:]{0,30}"
        r"(non (è stata )?trovat[ao]|non esiste|non è (più )?disponibile)",
        r"p[aá]gina não encontrada", r"(p[aá]gina|conte[uú]do|artigo|v[ií]deo)[^.:]{0,30}"
        r"(não (foi )?encontrad[ao]|não existe)",
        r"(pagina|bestand|artikel)[^.:]{0,30}(niet (gevonden|vinden)|bestaat niet)",
        r"ページ[^。]{0,20}(見つかりません|みつかりません|存在しません)",
        r"페이지[^.]{0,20}(찾을 수 없습니다|존재하지 않습니다)", r"页面不存在",
        r"找不到(页面|網頁|网页|頁面)", r"页面未找到", r"頁面不存在", r"网页不存在",
        r"(页面|网页|頁面|網頁)(已经?|已經)?(不存在|被删除|已删除|被刪除)",
        r"الصفحة[^.]{0,20}غير موجودة"),
        "not found (en, de, fr, es, it, pt, nl, ja, ko, zh and the languages above)",
        ev="walls/soft_404/physicsclassroom_*, wwnorton_*, forzamotorsport_*, crawlee_*, "
           "youtube_video_not_exist_de_*, suzuki_jp_*"),
    # The same in running text, only on a bare page (an image-only error page, a one-line
    # 'not found' body): an article may say "not found" anywhere.
    rx(_S4, "text", alt(
        r"page (was |could )?not (be )?found", r"(page|file) (you|that you) (are|were) looking for",
        r"\bpage\b[^.]{0,40}(no longer exists|does not exist|doesn't exist|(could|can)(not|n't| "
        r"not) be found)", r"page you('re| are) (after|trying to reach)",
        r"we (could not|couldn't|can't|cannot) find (the|that|this|what)",
        r"404 (error|not found)", r"nicht gefunden", r"introuvable", r"no encontrad",
        r"non trovat", r"não encontrad", r"niet gevonden", r"見つかりません", r"みつかりません",
        r"bulunamad[ıi]", r"не найден", r"ไม่พบ",  # noqa: RUF001 - Turkish dotless i is the word's
        r"찾을 수 없습니다", r"页面不存在", r"找不到",
        # A forum's or a CMS's message that the post asked for is not there (bench/
        # devset3_labels.tsv zh_soft404_01, a BBS's "ERROR: 此文不存在"): on a bare page only.
        r"(此文|本文|文章|帖子|主题|主題)(已经?)?(不存在|已被删除|已删除|已被刪除)"),
        "not found (body text)", gate="bare", ev="walls/soft_404/ncsoft_* (image alt only)"),
    # A not-found page's own sentences about *this page or address*, in the content of a page
    # as short as a wall's: sites keep their chrome around them, so bareness is not asked
    # (tests/pages/soft_404/not_found_sentence_inside_chrome_*). Placed (evidence.py): in a
    # footer or a search box they say nothing.
    rx(_S4, "text", alt(
        r"(page|file|document|url|address) (you|that you) (are|were|have been) (looking for|"
        r"trying to (reach|find|open|access)|after)[^.]{0,40}\b(not|n't|no longer|cannot|"
        r"could not|moved|removed|deleted|renamed)",
        # ("this page", "the requested page": not "a page that does not exist", the words of
        # documentation about 404s: tests/pages/hard_negative/docs_custom_404_page_short.html)
        r"(this|the requested|the) page (you [^.]{1,30} )?(no longer exists|does not exist|"
        r"doesn't exist|(could|can)(not|n't| not) be found|(has been|was) (removed|deleted))",
        r"(there is )?no (page|content|file) (at|with|on) (this|that|the requested) (url|address|"
        r"link|location)",
        r"(page|url|address|link|file)[^.]{0,60}(may|might|could) (have been|be) (\w+ )?(moved|"
        r"relocated|renamed|removed|deleted|mistyped|misspelled|broken)",
        r"(mistyped|misspelled|mistyped or misspelled) (the )?(url|address|web address|link)",
        r"(seite|datei|dokument)[^.]{0,40}(nicht gefunden|existiert nicht|nicht mehr verfügbar)",
        r"\bpage\b[^.]{0,40}(introuvable|n'existe (pas|plus))",
        r"p[aá]gina[^.]{0,40}(no existe|no (se )?(ha )?(podido )?encontr|não (foi )?encontrad|"
        r"não existe|non (è stata )?trovata|non esiste|niet gevonden|bestaat niet)",
        r"ページ[^。]{0,20}(見つかりません|みつかりません|存在しません)",
        r"페이지[^.]{0,20}(찾을 수 없|존재하지 않)",
        r"(页面|网页|頁面|網頁|文件|目录|檔案|目錄)[^。]{0,10}(不存在|未找到|找不到)",
        r"(没有|沒有|未能|无法)找到[^。]{0,10}(页面|网页|頁面|網頁|文件|目录|檔案|目錄)"),
        "not found (this page, in the content)",
        ev="not-found pages' own sentences; tests/pages/soft_404/not_found_sentence_*"),
    # The term frameworks and web servers translate "Not Found" into, as the page's whole
    # heading (vocabulary.py: over thirty languages).
    heading_entry(_S4, "not_found", "not found (vocabulary)"),
    # The sentence a framework's not-found template prints of the page asked for (Django's
    # admin: "We're sorry, but the requested page could not be found."; MediaWiki's empty
    # page: "There is currently no text in this page."), in the content of a short page.
    phrase_entry(_S4, "not_found_text", "the requested page could not be found (vocabulary)"),
)

# A search page that found nothing, answering an address that asked for no search: the host
# answers a missing page with a search for the words of its address (shops and CMSs that
# "redirect 404s to search": tests/pages/soft_404/search_results_for_missing_slug.html,
# de_keine_suchergebnisse.html). On a search address it is the page asked for.
NO_RESULTS: tuple[Entry, ...] = (
    rx(_S4, "text", alt(
        r"no (results|products|matches|items|articles|pages|entries) (were |could be )?found "
        r"(for|matching)", r"(your )?search (for [^.]{1,80} )?(did not|didn't) (match|return|"
        r"find) any", r"nothing matched your search", r"\b0 (results|products|matches) for",
        r"(keine|0) (ergebnisse|treffer|suchergebnisse|produkte|artikel) (gefunden )?(für|zu)",
        r"suche (nach [^.]{1,80} )?ergab (leider )?keine (treffer|ergebnisse)",
        r"aucun (résultat|produit|article) (ne correspond|n'a été trouvé|trouvé|pour)",
        r"recherche [^.]{0,80}n'a (donné|retourné) aucun",
        r"no (se han encontrado|se encontraron|hay|hemos encontrado) (resultados|productos|"
        r"coincidencias) (para|que coincidan)",
        r"búsqueda [^.]{0,80}no (ha )?(obtenido|producido|devuelto|arrojado) (ningún )?resultado",
        r"nessun (risultato|prodotto) (trovato )?per",
        r"ricerca [^.]{0,80}non ha prodotto (alcun )?risultat",
        r"nenhum (resultado|produto) (foi )?encontrado para",
        r"(busca|pesquisa) [^.]{0,80}não (retornou|encontrou|obteve)",
        r"geen (resultaten|zoekresultaten|producten) gevonden voor",
        r"zoekopdracht [^.]{0,80}(heeft |leverde )?geen (resultaten|treffers)",
        r"に一致する[^。]{0,10}(見つかりませんでした|ありませんでした)",
        r"検索結果(は|が)?(0件|ありません|見つかりません)",
        r"(没有|未)找到[^。]{0,20}(相关|匹配)的?(结果|内容|商品)", r"搜索结果为空",
        r"검색 결과가 없습니다"),
        "no search results (en, de, fr, es, it, pt, nl, ja, zh, ko)",
        ev="tests/pages/soft_404/search_results_for_missing_slug.html, "
           "de_keine_suchergebnisse.html; search pages' wording"),
)
#: Path segments and query keys of a search address (a search page there is what was asked).
SEARCH_SEGMENTS = frozenset({"search", "suche", "recherche", "rechercher", "buscar", "busca",
                              "ricerca", "cerca", "zoeken", "pesquisa", "s", "find", "results",
                              "searchresults", "search-results", "kensaku", "sousuo"})
SEARCH_KEYS = frozenset({"q", "s", "query", "search", "k", "keyword", "keywords", "term",
                          "text", "searchterm", "search_query", "suche", "w", "wd", "kw"})

# What makes a page *suspected* of being a not-found page, so that the soft-404 probe is
# asked (reading/soft404.py): its title or a heading says "error", "404", "oops" or "not
# found" in any language. Weaker than SOFT_404 above on purpose: a suspicion alone calls
# nothing; only the host's own answer for a missing path can.
SOFT_404_SUSPECT = alt(
    r"(^|\D)40[04](\D|$)", r"\berror\b", r"\boops\b", r"\bnot found\b", r"\bwhoops\b",
    r"\bfehler\b", r"\berreur\b", r"\berrore\b", r"\berro\b", r"\bfout\b", r"\bhata\b",
    r"ошибка", r"błąd", r"\bchyba\b", r"\blỗi\b", r"ข้อผิดพลาด", r"ไม่พบ", r"خطأ", r"שגיאה",
    r"エラー", r"오류", r"错误", r"錯誤", r"nicht gefunden", r"introuvable", r"no encontrad",
    r"non trovat", r"não encontrad", r"niet gevonden", r"bulunamad", r"не найден")

# --- parked domains -----------------------------------------------------------------------

_PK = "parked"


def _loads(path: str, anchor: str, vendor: str, ev: str) -> Entry:
    """A script the page loads from ``path`` (a regex fragment)."""
    return rx(_PK, "markup", r"<script\b[^<>]{0,300}?\bsrc=[\"']?[^\"'\s>]{0,200}?" + path,
              f"{vendor}'s script", vendor=vendor, anchor=anchor, ev=ev)


PARKED: tuple[Entry, ...] = (
    rx(_PK, "text", alt(
        r"(this|the) domain( name)?( [a-z0-9.-]+)? (is|may be|might be) for sale",
        r"buy this domain", r"domain is parked", r"this (web ?page|domain) is parked",
        r"parked (free|domain)", r"domain (parking|for sale)",
        r"diese domain (steht zum verkauf|kaufen)", r"ce (nom de )?domaine est à vendre",
        r"este dominio (está a la venta|se vende)", r"questo dominio è in vendita",
        r"este domínio (está|pode estar) à venda", r"dit domein is te koop",
        r"このドメインは売り出し中", r"이 도메인은 판매", r"此域名(出售|正在出售)"),
        "domain for sale", ev="registrars' parking pages"),
    # Parking services' scripts and hosts. (A marketplace's name alone is not evidence: an
    # article about domain sales links to them; a link offering the page's own domain is,
    # reading/parking.py: tests/pages/hard_negative/article_about_domain_sales_*.)
    *(lit(_PK, "markup", m, ev="parking services' scripts and links")
      for m in ("sedoparking.com", "parkingcrew.net", "bodis.com", "parklogic")),
    # Landers that build the parked page in the browser (a shell by its markup alone), by the
    # script they load (a page quoting the address is not): Google's AdSense for Domains,
    # served to parked domains only, and GoDaddy's parking lander.
    _loads(r"adsense/domains/caf\.js", "adsense/domains/caf.js", "Google AdSense for Domains",
           "Google's ads product for parked domains: its caf.js loads on parking pages only"),
    _loads(r"/parking-lander/", "/parking-lander/", "GoDaddy",
           "GoDaddy's parked-domain lander script path (img1.wsimg.com/parking-lander/)"),
)
