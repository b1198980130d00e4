"""Error pages served as success: the site failed to build the page and said so.

A bank's "Sorry, an error has occurred", a webmail's "We're experiencing technical
difficulties", a university's page titled "Error" over one line of text: none is the page
asked for, and none says it is *missing* (that is a soft 404, judged first: notfound.py). They
are judged by evidence and its place, not by a phrase anywhere:

- the page's *own heading* says so: the title, or an h1/h2 shown where the content is (not a
  hidden validation message, a dialog's or a form's), in the words error pages use for
  themselves (``HEADINGS``), on a page whose main content is short (``BLOCK_MAX_MAIN_LETTERS``:
  an article about errors has more to say);
- the title (or a heading) is the bare word for an error (``ERROR_WORD``: "Error", "Error
  page", "Fehler", "エラー"...), on a page with almost nothing else (``BARE_MAX_MAIN_LETTERS``
  by the shorter of the two measures: a site's chrome may be taken for the main text);
- the content apologises for an error with this reader's request (``TEXT``), placed as every
  wall phrase is (evidence.py);
- the main content says, in a sentence of its own, that the site or the page asked for is
  unavailable or down (``OUTAGE``), and then asks the reader to come back later
  (``COME_BACK``): an outage notice in whatever layout (its heading may be bold text, not
  h1/h2). Not advice ("If the site is unavailable, please try again later": a sentence that
  opens with a condition) nor reported speech (a spokesman's "Please try again later" in a
  news brief: a sentence with a quotation mark or a verb of saying).

An error page carrying a web application firewall's support ID (F5's block page gives an 18-
to 20-digit one, whatever template and language it is dressed in) is a bot check's refusal,
not a fault of the site: it is called a challenge.

Error pages keep the site's chrome (navigation, footer), so bareness of the whole page is
not asked; the error must be what stands where the content would be.

Invariants: pure; the patterns are lower case and meet folded text (entries.py); an entry
names its evidence; nothing here is keyed on a site.
"""

from __future__ import annotations

import re

from readreceipt.reading.evidence import first
from readreceipt.reading.facts import (
    BARE_MAX_MAIN_LETTERS,
    BLOCK_MAX_MAIN_LETTERS,
    WALL_TEXT_CHARS,
    ContentSignal,
    Facts,
    compile_entries,
)
from readreceipt.reading.tables.entries import Entry, alt, rx

__all__ = ["COME_BACK", "ERROR_PAGE", "ERROR_WORD", "HEADINGS", "OUTAGE", "TEXT",
           "check_error_page"]

_IN = "interstitial"
_WHAT = "an error or maintenance page: the site did not serve the page"
# Title separators, as in tables/access.py.
_SEP = "[|\\-\u2013\u2014:\u00b7\u2022]"

#: The bare word for an error (or "error page", "system error"), in the languages the tables
#: know: a title segment or a heading that says nothing else.
ERROR_WORD = (
    r"(\d{3} )?((internal |unexpected |system |server |application |general )?(server )?"
    r"error( page| occurred)?|erreur|fehler|fehlerseite|systemfehler|errore|erro|fout|hata|"
    r"ошибка|błąd|chyba|lỗi|ข้อผิดพลาด|エラー|エラーページ|システムエラー|오류|에러|错误|错误页面|"
    r"系统错误|錯誤|系統錯誤|خطأ|خطا|שגיאה)( \d{3,5})?")

# Interjections and apologies an error heading may open with ("Oops!", "Sorry,", "Error:").
# (Bounded: a run of separators or apologies tried from each of its starts costs its bound.)
_OPEN = (rf"(^|{_SEP} )\W{{0,20}}((sorry|oops|whoops|uh[- ]oh|ouch|we're sorry|we are sorry|"
         r"we apologi[sz]e|error|entschuldigung|désolé|lo sentimos|ci dispiace|desculpe)"
         r"\W{1,20}){0,3}")
# What may follow the phrase in the same heading: nothing, a new sentence, a bracket or a
# colon with a code ("[Error: 1007 ID: ...]"), or the reader's request. Not a headline's
# continuation ("Something went wrong at the polls").
_CLOSE = r"(\W*$|\W*[.!:;\[(\u2026]|\.\.\.| (while|whilst|when) (processing|loading|handling) " \
         r"(your|the|this)| on (this|the|our) (page|site|server|website))"

#: What an error page's own heading says of itself.
HEADINGS = alt(
    # "(An) error (has) occurred", "Some error has occured" (the common misspelling too).
    _OPEN + r"(an? |some |unexpected |internal |system |server |technical |application ){0,4}"
    r"(unexpected |internal |system |server |technical |application )?(error|problem)s? "
    r"(has |have |had )?(occ?urr?ed|happened)" + _CLOSE,
    _OPEN + r"something (went|has gone|is|has went) wrong" + _CLOSE,
    _OPEN + r"(we('re| are) (currently )?experiencing |we('re| are) having |there (is|are|was|"
    r"were) )(some |a )?(technical |temporary |unexpected )?(difficult(y|ies)|problems?|issues?|"
    r"errors?)",
    _OPEN + r"(technical|temporary) (difficult(y|ies)|problems?|issues?|errors?)" + _CLOSE,
    _OPEN + r"(the |this )?(service|site|website|system|server|application|page) (is )?"
    r"(temporarily |currently ){0,3}(unavailable|not available|down|offline)" + _CLOSE,
    # A maintenance page's own heading: "Down for maintenance", "Scheduled maintenance",
    # "We'll be back soon".
    _OPEN + r"((site|system|scheduled|planned|essential) )?(down for |under |undergoing )?"
    r"(scheduled |planned )?maintenance( in progress| mode| notice| underway)?" + _CLOSE,
    _OPEN + r"we('ll| will) be (right )?back( soon| shortly)?" + _CLOSE,
    _OPEN + r"(this |the )?(page|web ?page|content) (can't|cannot|could not|couldn't) be "
    r"(displayed|loaded|shown|opened)" + _CLOSE,
    _OPEN + r"(we('re| are| were) )?(unable|not able) to (process|complete|handle) (your|the|"
    r"this) request",
    _OPEN + r"(your |the |this )?request (could not|cannot|can't|couldn't) be (processed|"
    r"completed|handled)",
    # The same in the other languages of the tables.
    _OPEN + alt(r"(ein|es ist ein) (unerwarteter |technischer |interner )?fehler "
                r"(ist )?aufgetreten", r"(da )?(ist )?(leider )?etwas schief ?gelaufen",
                r"technische (probleme|störung)", r"une erreur (technique )?(est survenue|s'est "
                r"produite|inattendue)", r"un problème (technique )?est survenu",
                r"(se ha producido|ha ocurrido|ocurrió|se produjo) un error",
                r"algo (salió|ha salido) mal", r"si è verificato un errore",
                r"qualcosa è andato storto", r"ocorreu um erro", r"algo deu errado",
                r"er (is|ging) (een fout|iets mis|iets fout)", r"произошла ошибка",
                r"bir hata oluştu", r"wystąpił błąd", r"došlo k chybě",
                r"エラーが発生しました", r"問題が発生しました", r"오류가 발생했습니다",
                r"문제가 발생했습니다", r"(发生|出现)了?(错误|異常|异常|錯誤)", r"出错了",
                r"系统繁忙",
                r"系統繁忙", r"حدث خطأ", r"אירעה שגיאה"))

#: The content saying this reader's request met an error (placed as every wall phrase is).
TEXT = alt(
    # ("we apologise", not "the operator apologised": that is news about an error)
    r"(sorry|we apologi[sz]e)[^.!?]{0,40}\b(an? |some )?(unexpected |internal |technical )?error "
    r"(has |had )?(occ?urr?ed|happened)",
    r"(error|problem) (has |had )?(occ?urr?ed|happened) (while|whilst|when) (processing|"
    r"handling) your (last )?request",
    r"(we('re| are| were)) (unable|not able) to (process|complete) your request",
    r"your request (could not|cannot|can't|couldn't) be (processed|completed)",
    r"(ein fehler ist|es ist ein fehler) (bei der verarbeitung )?(ihrer|deiner) anfrage",
    r"(une erreur|un problème)[^.!?]{0,40}(de|avec) votre (demande|requête)",
    r"(error|problema)[^.!?]{0,40}(tu|su) (solicitud|petición)",
    r"(errore|problema)[^.!?]{0,40}(tua|sua) richiesta",
    r"(erro|problema)[^.!?]{0,40}(sua|tua) (solicitação|requisição)")

#: A site or the page asked for, out of service now (en, fr, de, es).
OUTAGE = alt(
    r"\b(site|web ?site|service|page|portal|server|system|application)( you (are|were) "
    r"(trying|attempting) to (access|reach|visit|view|open|use))? (is|are) (currently |"
    r"temporarily |now |momentarily ){0,3}(unavailable|not available|down|offline|undergoing "
    r"maintenance|under maintenance)\b",
    r"\b(site|service|page|portail)\b[^.!?]{0,40}\b(est|sont) (actuellement |momentanément |"
    r"temporairement ){0,3}(indisponible|inaccessible|en maintenance)",
    r"\b(seite|website|webseite|dienst|portal|service)\b[^.!?]{0,40}\b(ist|sind) (derzeit |"
    r"vorübergehend |momentan |aktuell ){0,3}nicht (verfügbar|erreichbar)",
    r"\b(sitio|servicio|página|portal)\b[^.!?]{0,40}(no está disponible|está (temporalmente |"
    r"momentáneamente )?(fuera de servicio|no disponible|en mantenimiento))")
#: The request to come back that follows it.
COME_BACK = alt(r"\bplease (try again|come back|check back|visit (us )?again|return)",
                r"\b(veuillez|merci de) (réessayer|revenir)", r"\bbitte versuchen sie es später",
                r"\b(inténtelo|vuelva a intentarlo|intente|vuelva) más tarde")
# A sentence that opens with a condition gives advice; one with a quotation mark or a verb of
# saying reports someone's words.
_CONDITION = re.compile(r"^\W*(if|when|whenever|should|in case|si|wenn|falls|sobald|cuando)\b")
_REPORTED = re.compile("[\"\u201c\u201d\u201e\u00ab\u00bb]|\b(said|says|told|according|"
                       "sagte|erklärte|déclaré|dijo)\b")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")

ERROR_PAGE: tuple[Entry, ...] = (
    rx(_IN, "heading", HEADINGS, "an error heading", what=_WHAT,
       ev="error pages of banks, webmail and portals (tests/pages/other_interstitial/"
          "error_*); the words error pages use for themselves"),
    rx(_IN, "text", TEXT, "an error with your request", what=_WHAT,
       ev="tests/pages/other_interstitial/error_*: the apology of an application error page"),
)

_HEADINGS = re.compile(HEADINGS)
_OUTAGE = re.compile(OUTAGE)
_COME_BACK = re.compile(COME_BACK)
_ERROR_WORD = re.compile(rf"(^|{_SEP} ?){ERROR_WORD}( ?{_SEP}|$)")
_TEXT_TABLE = compile_entries(e for e in ERROR_PAGE if e.where == "text")
#: One of these is in every sentence TEXT matches: the cheap test before its regex runs.
_TEXT_NEEDLES = ("erro", "erreur", "fehler", "problem", "problè", "request")
#: A WAF's support ID: F5's block page gives 18 to 20 digits (module docstring).
_SUPPORT_ID = re.compile(r"(?<![\d.,])\d{18,20}(?![\d.,])")


def check_error_page(f: Facts) -> ContentSignal | None:
    """An error page: its heading or its content says the page failed (module docstring)."""
    if f.main_letters > BLOCK_MAX_MAIN_LETTERS:
        return None
    rule = _heading_rule(f)
    if rule is None:
        hit = first(f, _TEXT_TABLE) if any(n in f.text for n in _TEXT_NEEDLES) else None
        rule = hit[1] if hit is not None else _outage_rule(f.page.main_text[:WALL_TEXT_CHARS])
        if rule is None:
            return None
    waf = _SUPPORT_ID.search(f.page.page_text) or _SUPPORT_ID.search(f.page.main_text)
    if waf is not None:
        return ContentSignal(reason="wall:challenge", wall="challenge",
                             rule=f"{rule}; a WAF support ID ({len(waf.group(0))} digits)",
                             vendor=None, detail="a bot check: a firewall refused the request "
                             "(an error page with its support ID)")
    return ContentSignal(reason="wall:interstitial", wall="interstitial", rule=rule,
                         vendor=None, detail=_WHAT)


def _heading_rule(f: Facts) -> str | None:
    bare = min(f.main_letters, f.layout.content_letters) if f.layout.parsed else f.main_letters
    for heading in f.shown_headings:
        m = _HEADINGS.search(heading)
        if m is not None:
            return f"wording:heading {m.group(0).strip()[:80]} (in the page's own heading)"
        if bare <= BARE_MAX_MAIN_LETTERS and (m := _ERROR_WORD.search(heading)) is not None:
            return (f"wording:heading {m.group(0).strip(' |-:')[:40]} (the page's own heading, "
                    f"beside {bare} letters of content)")
    return None


def _outage_rule(main_text: str) -> str | None:
    """The outage notice of the main content: a sentence saying the site is out of service,
    then (in it or one of the next two) the request to come back (module docstring)."""
    sentences = [one.strip().lower() for one in _SENTENCES.split(main_text) if one.strip()]
    for i, sentence in enumerate(sentences):
        said = _OUTAGE.search(sentence)
        if said is None or _CONDITION.search(sentence) or _REPORTED.search(sentence):
            continue
        for later in (sentence[said.end():], *sentences[i + 1:i + 3]):
            asked = _COME_BACK.search(later)
            if asked is not None and not _REPORTED.search(later):
                return (f"wording:phrase {said.group(0).strip()[:60]} ... {asked.group(0).strip()} "
                        "(in the content)")
    return None
