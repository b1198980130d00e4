"""The cheap test that lets the sign-in measure run (facts._password_input): a password type
inside an ``<input>`` tag however long its attributes, not one in a script's string."""

from __future__ import annotations

from readreceipt.reading.facts import _TAG_BACK, _password_input


def test_a_password_field_with_long_indented_attributes_is_found() -> None:
    attrs = "\n        ".join(f'data-field-{i}="value-{i}"' for i in range(30))
    assert len(attrs) > 600
    assert _password_input(f'<form><input\n        {attrs}\n        type="password"></form>')


def test_a_password_type_in_a_scripts_string_is_not_a_field() -> None:
    script = "<script>var tpl = '<div class=\"x\">' + 'type=\"password\"' + '</div>';</script>"
    assert not _password_input(f"<html><body><p>story</p>{script}</body></html>")


def test_a_tag_that_opened_too_far_back_is_not_read() -> None:
    far = '<input name="x" data-pad="' + "p" * (_TAG_BACK + 10) + '" type="password">'
    near = '<input name="x" data-pad="' + "p" * 100 + '" type="password">'
    assert not _password_input(far)
    assert _password_input(near)


def test_many_occurrences_outside_inputs_are_read_a_bounded_number_of_times() -> None:
    # 10,000 script strings before a real field: the field past the bound is not looked for,
    # so a hostile page cannot make the test read its markup once per occurrence.
    strings = "<script>" + "'type=\"password\"'," * 10_000 + "</script>"
    assert not _password_input(strings + '<input type="password">')
    assert _password_input('<input type="password">' + strings)
