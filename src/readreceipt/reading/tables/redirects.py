"""Where a site sends a reader it will not show a page to, by the names its URL uses.

- ``CONTINUATION_NAMES``: query parameters that carry the address a reader is to be sent
  back to once a step is done (compared squashed: lower case, letters and digits only, so
  ``return_url``, ``returnUrl`` and ``ReturnURL`` are one name). Each is the documented
  default of a framework, a server or a sign-in protocol, or of a service that uses it on
  every site:

  - Django's ``next`` (``django.contrib.auth``'s ``REDIRECT_FIELD_NAME``), also Flask-Login's
    and many others' default;
  - ASP.NET's ``ReturnUrl`` (forms authentication and ASP.NET Core Identity's
    ``ReturnUrlParameter``), and ``aspxerrorpath``, the path that failed, which ASP.NET's
    ``customErrors`` redirect appends on its way to the site's error page;
  - WordPress's ``redirect_to`` (``wp-login.php``), Plone and Zope's ``came_from``;
  - CAS's ``service`` (CAS protocol 3.0, ``/login``), OpenAM's ``goto``, WS-Federation's
    ``wreply``, oauth2-proxy's ``rd``, OAuth 2.0's ``redirect_uri`` (RFC 6749, 3.1.2);
  - Google's ``continue`` (accounts.google.com and consent.google.com), Yahoo's
    ``originalDoneUrl`` and ``done`` (consent.yahoo.com), Microsoft's ``ru``, Okta's
    ``fromURI``, LinkedIn's ``sessionRedirect`` (its ``/authwall``), X's
    ``redirect_after_login``, Joomla's ``return`` (the address base64-encoded: see
    ``BASE64_NAMES``);
  - the common spellings of "return", "redirect", "back", "destination" and "target" that
    Rails apps, Spring Security's saved request, Laravel's ``intended`` URL and hosted sign-in
    pages put in the query (``returnTo``, ``redirectUrl``, ``backUrl``, ``destination``).

  Names that say where a reader came *from* (``ref``, ``from``, ``source``, ``utm_*``) are
  not here: a page moved to a new address may carry its old one as a tracking parameter.
  consent.py adds the referrer's names for the hidden fields of a consent form.
- ``SIGN_IN_PROTOCOLS``: query parameters that make an address a sign-in request by the
  protocols' own specifications (SAML 2.0's HTTP-Redirect binding, ``SAMLRequest``;
  OpenID Authentication 2.0's ``openid.mode``; OAuth 2.0's authorization request,
  ``response_type`` with ``client_id``, RFC 6749 4.1.1).
- ``SIGN_IN_ROUTES``: the path words of a sign-in route alone, for a redirect that keeps
  the address to return to in the session, not in the URL.
- ``ROUTE_KINDS``: the words of a path segment or a host's first label that name the step a
  redirect leads to, for naming it (``login`` for ``/accounts/login/``, ``/users/sign_in``,
  ``wp-login.php``, ``login.microsoftonline.com``, ``passport.yandex.ru``); compared
  squashed, the extension dropped. A redirect that carries the address back is evidence by
  itself; these only name what it leads to, and a step none of them names is an
  interstitial.

Invariants: data only; lower case; letters and digits only in squashed names.
"""

from __future__ import annotations

__all__ = ["BASE64_NAMES", "CONTINUATION_NAMES", "REFERRER_NAMES", "ROUTE_KINDS",
           "SIGN_IN_PROTOCOLS", "SIGN_IN_ROUTES"]

CONTINUATION_NAMES = frozenset({
    "next", "returnurl", "return", "returnto", "returnpath", "redirect", "redirecturl",
    "redirectto", "redirecturi", "redir", "continue", "continueurl", "done", "doneurl",
    "originaldoneurl", "backurl", "backto", "back", "destination", "dest", "target",
    "targeturl", "url", "goto", "service", "wreply", "rd", "ru", "camefrom", "forward",
    "forwardurl", "successurl", "aspxerrorpath", "fromuri", "sessionredirect",
    "redirectafterlogin",
})

#: Continuation parameters whose value some software writes base64-encoded (Joomla's
#: ``com_users`` log-in view: ``&return=`` and the address in base64).
BASE64_NAMES = frozenset({"return"})

#: The referrer's names, which a consent form's hidden fields carry the page in
#: (consent.py); not a redirect's continuation (module docstring).
REFERRER_NAMES = frozenset({"referrer", "referer"})

SIGN_IN_PROTOCOLS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("a SAML sign-in request", ("samlrequest",)),
    ("an OpenID sign-in request", ("openidmode",)),
    ("an OAuth 2.0 authorization request", ("responsetype", "clientid")),
)

#: The path words of a sign-in route and nothing else (a redirect to one that shows a
#: sign-in form is a sign-in wall, with no continuation parameter: Devise's
#: ``/users/sign_in``, Laravel's and Symfony's ``/login``, WordPress's ``wp-login.php``,
#: ASP.NET's ``/Account/Login``, LinkedIn's ``/authwall``). ``account``, ``join`` or
#: ``register`` are not here: a page of its own may have such an address.
SIGN_IN_ROUTES = frozenset({"login", "signin", "logon", "signon", "wplogin", "sso",
                            "authwall", "userlogin"})

ROUTE_KINDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("login", frozenset({
        "login", "signin", "logon", "signon", "wplogin", "auth", "authorize", "authenticate",
        "authentication", "sso", "cas", "oauth", "oauth2", "saml", "saml2", "openid",
        "openidconnect", "accounts", "account", "passport", "idp", "identity", "session",
        "sessions", "register", "registration", "signup", "join", "authwall"})),
    ("consent", frozenset({"consent", "gdpr", "cookieconsent", "cmp"})),
    ("challenge", frozenset({"captcha", "recaptcha", "hcaptcha", "challenge", "botcheck",
                             "antibot", "verifyhuman"})),
    ("paywall", frozenset({"subscribe", "subscription", "subscriptions", "paywall",
                           "premium"})),
    ("soft_404", frozenset({"404", "notfound", "pagenotfound", "404error", "error404"})),
    ("interstitial", frozenset({"error", "errors", "maintenance", "agegate", "ageverification",
                                "ageverify", "age", "region", "country", "unavailable",
                                "blocked", "suspended"})),
)
