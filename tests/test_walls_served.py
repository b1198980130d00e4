"""Issue 21's structural and vendor rules through the whole capture, on a real local server.

Each page here was written for its rule (tests/pages, labelled in tests/pages/LABELS.tsv) and
is served from 127.0.0.1 and captured by the real pipeline (no rendering): a wall must come
back UNKNOWN with its reason and the kind of evidence that decided it (the record's ``rule``
begins with it), and its hard negative RETRIEVED. tests/test_walls.py judges the same pages
directly; this proves the verdict holds on what the transport delivers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import LocalServer
from servedpages import captured_page

#: (page, verdict, reason, the kind of evidence the rule begins with; None when RETRIEVED)
CASES = (
    ("consent/pl_consent_form_posts_to_consent_host.html", "UNKNOWN", "wall:consent",
     "vendor"),
    ("consent/sv_consent_step_relative_collect.html", "UNKNOWN", "wall:consent", "vendor"),
    ("hard_negative/short_article_typed_with_consent_form_banner.html", "RETRIEVED", "ok",
     None),
    ("hard_negative/account_privacy_settings_consent_form.html", "RETRIEVED", "ok", None),
    ("other_interstitial/fi_palvelinvirhe_heading.html", "UNKNOWN", "wall:interstitial",
     "wording"),
    ("other_interstitial/pl_strona_wygasla_session.html", "UNKNOWN", "wall:interstitial",
     "wording"),
    ("login/cs_pozadovana_autentizace_401.html", "UNKNOWN", "wall:login", "wording"),
    ("hard_negative/news_server_error_outage_report.html", "RETRIEVED", "ok", None),
    ("login/nl_split_welcome_column_then_form.html", "UNKNOWN", "wall:login", "structure"),
    ("hard_negative/short_news_short_paragraphs_login_to_comment.html", "RETRIEVED", "ok",
     None),
    ("hard_negative/de_registration_welcome_column_two_passwords.html", "RETRIEVED", "ok",
     None),
    ("parked/nginx_default_welcome.html", "UNKNOWN", "parked", "vendor"),
    ("parked/apache_ubuntu_default_page.html", "UNKNOWN", "parked", "vendor"),
    ("other_interstitial/cpanel_account_suspended.html", "UNKNOWN", "wall:interstitial",
     "vendor"),
    ("other_interstitial/resource_limit_is_reached_508.html", "UNKNOWN", "wall:interstitial",
     "vendor"),
    ("hard_negative/tutorial_welcome_to_nginx_heading.html", "RETRIEVED", "ok", None),
    ("consent/refresh_to_consent_service.html", "UNKNOWN", "wall:consent", "vendor"),
    ("hard_negative/short_news_linking_consent_service.html", "RETRIEVED", "ok", None),
    ("other_interstitial/isp_frame_to_ip_address.html", "UNKNOWN", "wall:interstitial",
     "structure"),
    ("hard_negative/short_howto_router_address_link.html", "RETRIEVED", "ok", None),
    ("challenge/tr_site_own_image_captcha.html", "UNKNOWN", "wall:challenge", "structure"),
    ("hard_negative/contact_page_with_captcha.html", "RETRIEVED", "ok", None),
    ("hard_negative/password_recovery_email_and_captcha.html", "RETRIEVED", "ok", None),
    ("hard_negative/short_page_newsletter_with_captcha_beside_text.html", "RETRIEVED", "ok",
     None),
    # A sign-in box beside a listing (reading/listings.py): both were called sign-in walls.
    ("hard_negative/phpbb_index_small_board_quick_login.html", "RETRIEVED", "ok", None),
    ("hard_negative/shop_category_login_box_above_grid.html", "RETRIEVED", "ok", None),
    ("login/phpbb_board_requires_login.html", "UNKNOWN", "wall:login", "structure"),
    # ... but a listing in the site's menu, outside the form's region, is not beside it.
    ("login/sign_in_page_under_headline_mega_menu.html", "UNKNOWN", "wall:login",
     "structure"),
    # A hosting company's pages by their links (reading/hostpage.py), and two clean pages
    # whose links all go elsewhere too, to many names.
    ("parked/host_default_page_upload_your_files.html", "UNKNOWN", "parked", "structure"),
    ("other_interstitial/host_contract_expired_with_menu.html", "UNKNOWN", "wall:interstitial",
     "structure"),
    ("hard_negative/one_page_firm_social_links.html", "RETRIEVED", "ok", None),
    ("hard_negative/link_in_bio_artist_page.html", "RETRIEVED", "ok", None),
)


@pytest.mark.parametrize(("page", "verdict", "reason", "kind"), CASES,
                         ids=[Path(c[0]).stem for c in CASES])
def test_a_served_page_gets_its_verdict_and_evidence_kind(
        allow_server: LocalServer, library_dir: Path, page: str, verdict: str, reason: str,
        kind: str | None) -> None:
    record = captured_page(allow_server, library_dir, page)
    assert (record.verdict, record.reason) == (verdict, reason), record.rule
    if kind is not None:
        assert (record.rule or "").split(":", 1)[0] == kind, record.rule
