"""A forum's sign-in box under a topic's posts is the form to reply, not a wall
(tables/signin.py, ``REPLY_SIGN_IN``; reading/fingerprint.py). The same engine's sign-in box
on a forum that hides its topics, with no post shown, is still a sign-in wall."""

from __future__ import annotations

from judged import judged

_NAV = "".join(f'<li><a href="/forums/forum/{p}/">{p}</a></li>' for p in ("gry", "sprzet"))
_LOGIN = """<form method="post" action="/wp-login.php" class="bbp-login-form">
<fieldset><legend>Log In</legend>
<div class="bbp-username"><label for="user_login">Username: </label>
<input type="text" name="log" id="user_login" autocomplete="off"></div>
<div class="bbp-password"><label for="user_pass">Password: </label>
<input type="password" name="pwd" id="user_pass" autocomplete="off"></div>
<div class="bbp-remember-me"><input type="checkbox" name="rememberme" id="rememberme">
<label for="rememberme">Keep me signed in</label></div>
<div class="bbp-submit-wrapper"><button type="submit" name="user-submit">Log In</button></div>
</fieldset></form>"""


def _page(content: str) -> str:
    return (f"<html><head><title>Gothic - seria</title></head><body><header><nav><ul>{_NAV}"
            f"</ul></nav></header><main><div id='bbpress-forums'>{content}</div></main>"
            f"</body></html>")


_TOPIC = _page(f"""<h1>Gothic - seria</h1>
<div class="bbp-breadcrumb"><a href="/forums/">Forums</a> &raquo;
<a href="/forums/forum/gry/">Gry</a></div>
<ul class="forums bbp-replies"><li class="bbp-header">Author Posts</li>
<li><div class="bbp-reply-header">26 września 2021 at 14:53 #22</div>
<div class="bbp-reply-author">Polaris Keymaster</div>
<div class="bbp-reply-content"><p>Luźne rozmowy na temat serii Gothic.</p></div></li></ul>
<div id="no-reply-22" class="bbp-no-reply"><div class="bbp-template-notice">
<ul><li>You must be logged in to reply to this topic.</li></ul></div>{_LOGIN}</div>""")

_PRIVATE = _page(f"""<h1>Forum dla członków</h1>
<div class="bbp-template-notice"><ul><li>You must be logged in to view this forum.</li></ul>
</div>{_LOGIN}""")


def test_a_topics_sign_in_to_reply_under_its_post_is_not_a_wall() -> None:
    assert judged(_TOPIC) is None


def test_the_engines_sign_in_with_no_post_shown_is_a_wall() -> None:
    got = judged(_PRIVATE)
    assert got is not None and got[0] == "wall:login"
