"""Convenience functions for programs: one call each, over the same pipeline as the CLI.

Invariant: nothing here re-implements a step; each function opens the library (or takes
one) and calls :mod:`readreceipt.pipeline` or :mod:`readreceipt.quotes.answers`.
"""

from __future__ import annotations

from typing import Any

from readreceipt.quotes.answerlog import check_newest
from readreceipt.quotes.answers import CheckedAnswer
from readreceipt.store.library import Library


def check_answer(url: str, answer: str, prompt: str = "", *,
                 library: Library | None = None) -> CheckedAnswer:
    """Check ``answer``'s quotations against the newest copy of ``url`` held; no request.

    Without ``library`` the library is found, used and closed."""
    if library is None:
        with Library.locate() as lib:
            return check_newest(lib, url, answer, prompt)
    return check_newest(library, url, answer, prompt)


def fetch_page(url: str, **options: Any) -> Any:
    """The page's own content in a file for an agent (see :mod:`readreceipt.agents.fetchpage`)."""
    from readreceipt.agents import fetchpage

    return fetchpage.fetch_page(url, **options)
