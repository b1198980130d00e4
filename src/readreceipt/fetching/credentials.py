"""Credentials carried in a URL: found, named by rule, never repeated.

A URL an agent chose may carry someone's secret: an OAuth code or token, a session id, an
API key, a presigned cloud-storage URL. Fetching it again would replay the credential from
another machine, and keeping it would write the secret into the library. Such a URL is
refused (:mod:`urlpolicy` raises), not redacted and fetched.

Invariants:
- a :class:`Finding` names the rule (and the listed word or shape that matched), never the
  value and never the parameter's own name, which may itself be the secret;
- :func:`loggable_url` is the only form in which a refused URL may be written down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, unquote_plus, urlsplit

#: Query names that carry credentials, compared after folding (lower case, everything but
#: letters and digits removed, so ``Access-Token``, ``access_token`` and ``access.token``
#: are one name). OAuth 2.0 (RFC 6749: code, state, access_token, refresh_token,
#: client_secret, assertion), OpenID Connect (id_token), framework session ids (JSESSIONID,
#: PHPSESSID, sid), and the key/password names web APIs put in query strings.
CREDENTIAL_NAMES: frozenset[str] = frozenset({
    "token", "accesstoken", "idtoken", "refreshtoken", "code", "state", "key", "apikey",
    "secret", "clientsecret", "password", "passwd", "pwd", "pass", "sig", "signature", "auth",
    "session", "sessionid", "sid", "jsessionid", "phpsessid", "credential", "credentials",
    "assertion", "otp", "ticket", "jwt",
})
#: A folded name containing one of these is a credential whatever surrounds it.
CREDENTIAL_NAME_PARTS: tuple[str, ...] = (
    "token", "secret", "passw", "apikey", "credential", "signature",
)
#: Presigned-URL parameters: AWS SigV4 (X-Amz-*), SigV2 (AWSAccessKeyId), Google Cloud
#: Storage V4 (X-Goog-*) and V2 (GoogleAccessId), CloudFront (Key-Pair-Id). Azure SAS is
#: caught by its ``sig`` parameter above.
PRESIGNED_PREFIXES: tuple[str, ...] = ("x-amz-", "x-goog-")
PRESIGNED_NAMES: frozenset[str] = frozenset({"awsaccesskeyid", "googleaccessid", "keypairid"})

#: Values whose shape alone says "secret": the vendors' documented token formats.
SECRET_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("aws_access_key_id", re.compile(
        r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)"
        r"[A-Z0-9]{16}(?![A-Za-z0-9])")),
    ("jwt", re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\."
                       r"[A-Za-z0-9_-]*")),
    ("slack_token", re.compile(r"(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9-]{10,}")),
    ("slack_app_token", re.compile(r"(?<![A-Za-z0-9])xapp-\d-[A-Za-z0-9-]{10,}")),
    ("slack_webhook", re.compile(r"hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/"
                                 r"[A-Za-z0-9]{8,}")),
    ("stripe_key", re.compile(r"(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}")),
    ("stripe_webhook_secret", re.compile(r"(?<![A-Za-z0-9])whsec_[A-Za-z0-9]{20,}")),
    ("github_token", re.compile(r"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{36,}")),
    ("github_pat", re.compile(r"(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{22,}")),
    ("gitlab_token", re.compile(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}")),
    ("google_api_key", re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}")),
    ("anthropic_key", re.compile(r"(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai_key", re.compile(r"(?<![A-Za-z0-9])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}")),
    ("private_key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
)

#: Every shape above begins with one of these; plain substring tests rule most text out
#: at C speed before any pattern runs.
_SHAPE_PREFIXES: tuple[str, ...] = (
    "AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "APKA", "AROA",
    "ASCA", "eyJ", "xox", "xapp-", "hooks.slack.com", "_live_", "_test_", "whsec_", "ghp_",
    "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "AIza", "sk-", "-----BEGIN",
)
_FOLD = re.compile(r"[^a-z0-9]")
_DASH = re.compile(r"[_.\s]")
_FRAGMENT_SPLIT = re.compile(r"[&;?#]")


@dataclass(frozen=True)
class Finding:
    """A credential found in a URL: the rule (the refusal's reason code) and what matched."""

    rule: str  # credential_param | credential_presigned | credential_value | ...
    matched: str  # the listed word or the shape's name; never the value

    @property
    def message(self) -> str:
        where = {
            "credential_param": "a query parameter named like a credential",
            "credential_presigned": "a presigned-URL parameter",
            "credential_value": "a query value shaped like a secret",
            "credential_fragment": "a credential in its fragment",
            "credential_path": "a path shaped like a secret",
        }[self.rule]
        return (f"the URL carries {where} ({self.matched}); readreceipt refuses such URLs "
                "rather than replay or keep the credential")


def _fold(name: str) -> str:
    return _FOLD.sub("", name.lower())


def name_rule(name: str) -> Finding | None:
    """The credential rule a query parameter name falls under, if any."""
    dashed = _DASH.sub("-", name.strip().lower())
    for prefix in PRESIGNED_PREFIXES:
        if dashed.startswith(prefix):
            return Finding("credential_presigned", prefix + "*")
    folded = _fold(name)
    if folded in PRESIGNED_NAMES:
        return Finding("credential_presigned", folded)
    if folded in CREDENTIAL_NAMES:
        return Finding("credential_param", folded)
    for part in CREDENTIAL_NAME_PARTS:
        if part in folded:
            return Finding("credential_param", f"*{part}*")
    return None


def secret_shape(text: str) -> str | None:
    """The name of the secret shape ``text`` contains, if any."""
    if not any(prefix in text for prefix in _SHAPE_PREFIXES):
        return None
    for label, pattern in SECRET_SHAPES:
        if pattern.search(text):
            return label
    return None


def _query_names(query: str) -> list[str]:
    """Each parameter's name, decoded as a form would be (``+`` is a space, ``%xx``)."""
    names = []
    for piece in query.split("&"):
        name = piece.partition("=")[0]
        if "%" in name or "+" in name:
            name = unquote_plus(name)
        if name:
            names.append(name)
    return names


def find_in_parts(path: str, query: str, fragment: str) -> Finding | None:
    """Look for a credential in a URL's path, query and fragment (raw, percent-encoded)."""
    query = query.removeprefix("?")
    for name in _query_names(query):
        found = name_rule(name)
        if found is not None:
            return found
    # Names and values in one scan of the decoded query (a bare ``?AKIA...`` included).
    shape = secret_shape(unquote_plus(query))
    if shape is not None:
        return Finding("credential_value", shape)
    fragment = fragment.removeprefix("#")
    if fragment:
        for piece in _FRAGMENT_SPLIT.split(fragment):
            name, eq, _value = piece.partition("=")
            rule = name_rule(unquote(name)) if eq else None
            if rule is not None:
                return Finding("credential_fragment", rule.matched)
        shape = secret_shape(unquote(fragment))
        if shape is not None:
            return Finding("credential_fragment", shape)
    shape = secret_shape(unquote(path))
    if shape is not None:
        return Finding("credential_path", shape)
    return None


def find_credential(url: str) -> Finding | None:
    """A credential in ``url`` (any form, parsed leniently), or None."""
    try:
        parts = urlsplit(url)
    except ValueError:
        path, _, rest = url.partition("?")
        query, _, fragment = rest.partition("#")
        return find_in_parts(path, query, fragment)
    return find_in_parts(parts.path, parts.query, parts.fragment)


#: Refusals after which everything before an ``@`` in the authority-ish part is dropped from
#: the logged URL, even where a parser would call it a path: the input was built to confuse.
_USERINFO_SUSPECT = frozenset({"userinfo", "malformed_url", "parser_disagreement"})


def loggable_url(url: str, reason: str | None = None, *, limit: int = 2048) -> str:
    """``url`` as it may be written down: no userinfo, and no query or fragment (or path)
    when any of them holds a credential. Never longer than ``limit`` characters."""
    finding = find_credential(url)
    scheme, sep, rest = url.partition("://")
    if sep:
        if reason in _USERINFO_SUSPECT:
            head = re.split(r"[?#]", rest, maxsplit=1)[0]
            if "@" in head:
                rest = rest[head.rfind("@") + 1:]
        else:
            authority, slash, tail = rest.partition("/")
            if "@" in authority:
                rest = authority.rpartition("@")[2] + slash + tail
        url = f"{scheme}://{rest}"
    if finding is not None:
        url = url.split("?", 1)[0].split("#", 1)[0]
        if finding.rule == "credential_path" and sep:
            authority = url.partition("://")[2].partition("/")[0]
            url = f"{scheme}://{authority}/[path removed]"
    return url if len(url) <= limit else url[:limit] + "[...]"
