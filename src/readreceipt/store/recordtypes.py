"""Whether a stored record's fields hold the types the record declares.

A record file is YAML anyone can edit (a library carried in a repository, pushed by someone
else), and YAML gives whatever type a value spells: ``http_status: "200"``, a list of
headers, ``fetched_at: 2026`` (an int), or an unquoted date (a datetime). Every reader of a
record (export, the viewer, ``show``, the team index) trusts the declared types, so a record
whose fields do not hold them is refused when it is read, as one that is no YAML is:
:func:`type_problem` names the first such field, and ``Record.from_dict`` raises.

Invariants: the types checked are the dataclass's own annotations (one place declares them);
the check is linear in the record and never raises itself.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from functools import cache
from typing import Any, Union, get_args, get_origin, get_type_hints

Check = Callable[[Any], bool]


@cache
def _checks(cls: type) -> dict[str, tuple[Check, str]]:
    """Each field's test, built once from its annotation, and the type it names."""
    return {name: (_check(hint), _shown(hint)) for name, hint in get_type_hints(cls).items()}


def type_problem(cls: type, values: dict[str, Any]) -> str | None:
    """The first of ``values`` (a record class's fields by name) not of its declared type."""
    checks = _checks(cls)
    for name, value in values.items():
        found = checks.get(name)
        if found is not None and not found[0](value):
            return f"field {name} does not hold {found[1]} ({type(value).__name__})"
    return None


def _check(hint: Any) -> Check:
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return lambda value: True
    if origin in (Union, types.UnionType):
        if len(args) == 2 and type(None) in args:  # "X | None", the common case
            inner = _check(next(arg for arg in args if arg is not type(None)))
            return lambda value: value is None or inner(value)
        options = [_check(arg) for arg in args]
        return lambda value: any(option(value) for option in options)
    if hint is type(None):
        return lambda value: value is None
    if hint is int:
        return lambda value: type(value) is int
    if hint in (bool, str):
        return lambda value: type(value) is hint
    if origin is tuple:
        item = _check(args[0])
        return lambda value: type(value) is tuple and all(map(item, value))
    if origin is dict:
        key, item = _check(args[0]), _check(args[1])
        return lambda value: type(value) is dict and all(
            key(k) and item(v) for k, v in value.items())
    return lambda value: isinstance(value, hint) if isinstance(hint, type) else True


def _shown(hint: Any) -> str:
    if get_origin(hint) is None and isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "")
