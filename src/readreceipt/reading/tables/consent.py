"""Consent-management platforms (CMPs): the script hosts and the element ids and classes their
consent dialogs are built with, the same on every site that uses them and in every language
the dialog is shown in (reading/consent.py).

Each entry is (vendor, marker): a script host whose presence says the page loads that CMP
(``SCRIPT_HOSTS``, a substring of the lower-cased markup), or the id or class of the CMP's
own dialog container (``CONTAINERS``, a substring of an element's lower-cased ``id`` or
``class`` value). The markers are the CMPs' documented integration markup (their published
embed snippets and the ids their style-sheet overrides name): OneTrust's
``onetrust-consent-sdk`` / ``cdn.cookielaw.org``, Cookiebot's ``CybotCookiebotDialog`` /
``consent.cookiebot.com``, Didomi's ``didomi-host`` / ``sdk.privacy-center.org``, Quantcast
Choice's ``qc-cmp2-container``, Usercentrics' ``usercentrics-root``, TrustArc's
``truste-consent-track`` / ``consent.trustarc.com``, Sourcepoint's ``sp_message_container_`` /
``cdn.privacy-mgmt.com``, Google Funding Choices' ``fc-consent-root`` /
``fundingchoicesmessages.google.com``, and the IAB Transparency & Consent Framework's own API
stub (``__tcfapi``), which every TCF-registered CMP installs.

A CMP on a page is no wall: nearly every European site loads one. Only a dialog that is the
page's main thing (reading/consent.py) is.

Invariants: data only; lower case; every marker names its vendor.
"""

from __future__ import annotations

__all__ = ["CONTAINERS", "SCRIPT_HOSTS", "TCF_API"]

#: (vendor, substring of the lower-cased markup): the CMP's script or frame host.
SCRIPT_HOSTS: tuple[tuple[str, str], ...] = (
    ("OneTrust", "cdn.cookielaw.org"), ("OneTrust", "optanon.blob.core.windows.net"),
    ("Cookiebot", "consent.cookiebot.com"), ("Cookiebot", "consent.cookiebot.eu"),
    ("Didomi", "sdk.privacy-center.org"),
    ("Quantcast Choice", "cmp.quantcast.com"), ("Quantcast Choice", "quantcast.mgr.consensu.org"),
    ("Usercentrics", "app.usercentrics.eu"), ("Usercentrics", "web.cmp.usercentrics.eu"),
    ("TrustArc", "consent.trustarc.com"), ("TrustArc", "consent.truste.com"),
    ("Sourcepoint", "cdn.privacy-mgmt.com"), ("Sourcepoint", "sourcepoint.mgr.consensu.org"),
    ("Google Funding Choices", "fundingchoicesmessages.google.com"),
    ("consentmanager", "cdn.consentmanager.net"), ("iubenda", "cdn.iubenda.com/cs"),
    ("CookieYes", "cdn-cookieyes.com"), ("Osano", "cmp.osano.com"),
    ("Axeptio", "static.axept.io"), ("Termly", "app.termly.io"),
    ("Cookie Information", "policy.app.cookieinformation.com"),
    ("CookieFirst", "consent.cookiefirst.com"),
)

#: (vendor, substring of an element's lower-cased id or class): the CMP's dialog container.
CONTAINERS: tuple[tuple[str, str], ...] = (
    ("OneTrust", "onetrust-consent-sdk"), ("OneTrust", "onetrust-banner-sdk"),
    ("OneTrust", "onetrust-pc-sdk"), ("OneTrust", "optanon-alert-box-wrapper"),
    ("Cookiebot", "cybotcookiebotdialog"),
    ("Didomi", "didomi-host"), ("Didomi", "didomi-popup"), ("Didomi", "didomi-notice"),
    ("Quantcast Choice", "qc-cmp2-container"), ("Quantcast Choice", "qc-cmp2-ui"),
    ("Usercentrics", "usercentrics-root"), ("Usercentrics", "uc-banner-content"),
    ("TrustArc", "truste-consent-track"), ("TrustArc", "truste_overlay"),
    ("TrustArc", "consent_blackbar"),
    ("Sourcepoint", "sp_message_container_"),
    ("Google Funding Choices", "fc-consent-root"),
    ("Google Funding Choices", "fc-dialog-container"),
    ("consentmanager", "cmpbox"), ("Complianz", "cmplz-cookiebanner"),
    ("CookieYes", "cky-consent-container"), ("CookieYes", "cookie-law-info-bar"),
    ("iubenda", "iubenda-cs-banner"), ("Axeptio", "axeptio_overlay"),
    ("Borlabs Cookie", "borlabscookiebox"), ("Osano", "osano-cm-window"),
    ("Cookie Information", "coiconsentbanner"), ("CookieFirst", "cookiefirst-root"),
    ("Piwik PRO", "ppms_cm_popup_overlay"),
)

#: The IAB TCF API stub every TCF-registered CMP installs (v2 ``__tcfapi``, v1 ``__cmp``).
TCF_API: tuple[str, ...] = ("__tcfapi", "__cmp(")
