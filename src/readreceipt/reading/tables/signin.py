"""What a sign-in form is made of, in the names forms give their parts: the table
``reading/signin.py`` reads.

Words here are not a page's prose but the names of form fields, autocomplete tokens and
identity providers' addresses, the same in every language a page is written in.

- ``AUTOCOMPLETE_IDENTIFIER`` / ``AUTOCOMPLETE_PASSWORD``: the HTML standard's autofill
  field names for an account's identifier and its password (WHATWG HTML, "Autofill",
  section 4.10.18.7.1: ``username``, ``email``, ``current-password``, ``new-password``,
  ``one-time-code``, and the ``webauthn`` token). Licence: the standard's text is CC BY 4.0;
  these are its keywords.
- ``IDENTIFIER_NAMES``: name and id tokens browsers' and password managers' form-fillers
  take for an account's user name, in the languages their heuristics cover. Learnt from the
  user-name heuristics of DuckDuckGo's autofill (duckduckgo/duckduckgo-autofill,
  ``src/Form/matching-config/matching-config-source.js``, Apache-2.0: en, it, de, nl, fr, es,
  sv) and the field names the corpus's sign-in pages use (walls/login/aol_*, ca_dmv_*; a
  framework prefix such as ``logonForm:userId`` is split into tokens). Tokens, not regular
  expressions: a name is split on every non-letter and camel-case hump.
- ``NOT_CREDENTIAL``: tokens that make a form something else: a search box, a newsletter
  sign-up (an e-mail field and one button, as an identifier-first sign-in form has: Mailchimp's
  embed form ``mc-embedded-subscribe-form``, ``list-manage.com``), a comment form.
- ``IDENTITY_PROVIDERS``: the sign-in endpoints of the common identity providers, as their
  developer documentation gives them (OAuth 2.0 / OpenID Connect authorisation endpoints;
  Google Identity Services' and Sign in with Apple's button markup). A link or a button to one
  is a "sign in with ..." button whatever it says.
- ``AUTHORIZATION_REQUESTS``: the parameters that make a link a sign-in request to an
  identity provider by the protocols' own specifications, whoever the provider is: OpenID
  Authentication 2.0's ``openid.mode=checkid_setup`` (section 9), OAuth 2.0's authorization
  request, ``response_type`` with ``client_id`` (RFC 6749, section 4.1.1; OpenID Connect
  adds ``scope=openid``). A broker's links to several providers name the one asked for in
  ``PROVIDER_PARAMETERS`` (Goodreads's ``/ap/signin?identityProvider=APPLE``: EvanOman/
  goodreads-tools ``tests/fixtures/sign_in.html``, a federated-only sign-in page).
- ``PHONE_NAMES`` / ``CODE_NAMES``: a phone number's and a one-time code's field names, for
  the sign-in by text message (a phone number, a code sent to it, and a button: the first
  sign-in form of the services of China and India, which sign up and sign in at once;
  bench/devset3_labels.tsv zh_login_03, zhihu's ``phoneNo`` and ``digits``). The HTML
  standard's ``tel`` input type and ``one-time-code`` token name them too.
- ``SCRIPT_SHOWN``: the words (class and id tokens, camel-case humps split) that the common
  front-end toolkits give a container a script opens over or beside the page on a click:
  Bootstrap's ``modal``, ``dropdown``, ``offcanvas``, ``popover``; Foundation's ``reveal`` is
  not here (a word of prose too); a drawer, a flyout, a lightbox, a popup, an overlay. A
  sign-in box inside one was captured open, or waits for the click: it is not the page
  (bench/devset4_labels.tsv fa_hardneg_18, a product page's sign-in ``drawer``;
  fa_hardneg_155, a shop home's ``modalWindow``; ya_hardneg_koneshop_ru, CS-Cart's
  ``ty-dropdown-box`` and ``cm-popup-box``; ya_hardneg_reamebel_ru, a ``js-login-overlay``).
- ``REPLY_SIGN_IN``: forum engines' containers for the sign-in box they show a signed-out
  reader *under a topic's posts* (the form to sign in and reply), with the mark of the posts
  they show above it: such a box closes a page that is there (bench/devset3_labels.tsv
  pl_hardneg_01, a one-post bbPress topic). A forum that hides its topics shows neither.
"""

from __future__ import annotations

__all__ = [
           "AUTHORIZATION_REQUESTS",
           "AUTOCOMPLETE_IDENTIFIER",
           "AUTOCOMPLETE_PASSWORD",
           "CODE_NAMES",
           "IDENTIFIER_NAMES",
           "IDENTITY_PROVIDERS",
           "IDENTITY_PROVIDER_MARKUP",
           "NOT_CREDENTIAL",
           "PHONE_NAMES",
           "PROVIDER_PARAMETERS",
           "REPLY_SIGN_IN",
           "SCRIPT_SHOWN",
           "SEARCH_NAMES",
           "SIGN_IN_FORM_NAMES",
           "SIGN_UP_NAMES",
]

#: Name tokens of a phone number's field (lower case, as a field's name, id and class split
#: on every non-letter: ``phoneNo`` is ``phoneno``).
PHONE_NAMES = frozenset({"phone", "phoneno", "phonenumber", "mobile", "mobileno",
                         "mobilephone", "cellphone", "msisdn", "tel", "telephone"})
#: Name tokens of a one-time code's field (a code sent by text message).
CODE_NAMES = frozenset({"otp", "digits", "smscode", "verifycode", "verificationcode", "vcode",
                        "authcode", "checkcode", "passcode", "onetimecode", "totp"})

#: (engine, the reply area's sign-in container, the mark of a post shown above it).
REPLY_SIGN_IN: tuple[tuple[str, str, str], ...] = (
    # bbPress's templates: form-reply.php's "bbp-no-reply" box ("You must be logged in to
    # reply to this topic.") with the login form; loop-single-reply.php's "bbp-reply-content".
    ("bbPress", 'class="bbp-no-reply"', 'class="bbp-reply-content"'),
)

AUTOCOMPLETE_IDENTIFIER = frozenset({"username", "email", "webauthn"})
AUTOCOMPLETE_PASSWORD = frozenset({"current-password", "new-password", "one-time-code"})

IDENTIFIER_NAMES = frozenset({
    # English, and the names sign-in forms of common frameworks give the field.
    "username", "user", "userid", "login", "loginname", "logon", "logonid", "loginid",
    "account", "accountname", "accountid", "identifier", "signin", "loginfmt",
    "jusername", "uid", "membername", "memberid", "customerid", "customernumber", "netid",
    "onlineid",
    # it, de, nl, fr, es, sv (the languages of DuckDuckGo's heuristics), pt.
    "utente", "nomeutente", "benutzername", "nutzername", "anmeldename", "kennung",
    "gebruikersnaam", "identifiant", "utilisateur", "usuario", "usuari", "identificador",
    "anvandarnamn", "användarnamn", "kontonamn", "utilizador",
})

#: A form named for signing in (its id, class or action): an e-mail field in it is the
#: account's identifier.
SIGN_IN_FORM_NAMES = frozenset({"login", "signin", "logon", "auth", "authenticate", "session",
                                "sso", "anmelden", "connexion", "acceso", "accedi", "entrar",
                                "inloggen"})
#: A form named for signing up (a new account, a trial): one e-mail field and a button there
#: open an account, they do not stand before a page (scrapy/protego's podio.com home page).
SIGN_UP_NAMES = frozenset({"signup", "register", "registration", "join", "trial", "create",
                           "createaccount", "newaccount", "registrieren", "inscription",
                           "registro", "registrati", "cadastro"})

#: A search form, by its role or the names it gives its field.
SEARCH_NAMES = frozenset({"search", "q", "s", "query", "keyword", "keywords", "searchterm",
                          "suche", "recherche", "buscar", "cerca", "zoeken"})

NOT_CREDENTIAL = frozenset({
    "newsletter", "newsletters", "subscribe", "subscription", "subscriber", "mailchimp",
    "mce", "mc", "embedded", "optin", "mailing", "mailinglist", "listmanage", "comment",
    "comments", "reply", "respond", "contact", "feedback", "coupon", "promo", "giftcard",
    "zip", "zipcode", "postcode", "tracking",
})

#: (provider, substring of a lower-cased link or form address).
IDENTITY_PROVIDERS: tuple[tuple[str, str], ...] = (
    ("Google", "accounts.google.com/o/oauth2"), ("Google", "accounts.google.com/signin"),
    ("Google", "accounts.google.com/servicelogin"), ("Apple", "appleid.apple.com/auth"),
    ("Facebook", "facebook.com/dialog/oauth"), ("Facebook", "/dialog/oauth?"),
    ("Microsoft", "login.microsoftonline.com/"), ("Microsoft", "login.live.com/oauth"),
    ("GitHub", "github.com/login/oauth"), ("X", "api.twitter.com/oauth"),
    ("X", "twitter.com/i/oauth2"), ("LinkedIn", "linkedin.com/oauth/"),
    ("Amazon", "amazon.com/ap/oa"), ("Yahoo", "api.login.yahoo.com/oauth2"),
    ("VK", "oauth.vk.com/authorize"), ("Yandex", "oauth.yandex.ru/authorize"),
    ("Kakao", "kauth.kakao.com/oauth"), ("Naver", "nid.naver.com/oauth2.0"),
    ("WeChat", "open.weixin.qq.com/connect"), ("QQ", "graph.qq.com/oauth"),
    ("LINE", "access.line.me/oauth2"), ("Discord", "discord.com/oauth2/authorize"),
)

#: Class or id tokens of the providers' own button markup (Google Identity Services'
#: ``g_id_signin`` / ``g_id_onload``, Sign in with Apple's ``appleid-signin``, Facebook's
#: ``fb-login-button``): split into tokens the way ``placement.tokens`` splits them.
IDENTITY_PROVIDER_MARKUP: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Google", ("g", "id", "signin")), ("Google", ("g", "id", "onload")),
    ("Apple", ("appleid", "signin")), ("Facebook", ("fb", "login", "button")),
)

#: Class/id words of a container a script shows on a click (module docstring). Lower case;
#: an element's tokens are split on every non-letter and at camel-case humps ("modalWindow":
#: modal, window).
SCRIPT_SHOWN = frozenset({"modal", "dropdown", "popup", "popover", "overlay", "drawer",
                          "flyout", "lightbox", "offcanvas"})

#: A sign-in request by protocol (module docstring): every part of one tuple is in the link's
#: lower-cased address.
AUTHORIZATION_REQUESTS: tuple[tuple[str, ...], ...] = (
    ("openid.mode=checkid_setup",), ("response_type=", "client_id="),
)
#: Query parameters a broker names the provider asked for with (lower case, with "=").
PROVIDER_PARAMETERS = ("identityprovider=", "idp=", "provider=", "kc_idp_hint=")
