"""The package's public surface: lazy loading, exports, and the console scripts' presence."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("httpx", "httpcore", "trafilatura", "lxml", "sqlite3", "yaml", "rich", "click")


@pytest.mark.parametrize("module", ["readreceipt", "readreceipt.errors", "readreceipt.agents.hook"])
def test_small_modules_import_nothing_heavy(module: str) -> None:
    code = (f"import sys, {module}; "
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_public_api_resolves_lazily() -> None:
    import readreceipt

    assert callable(readreceipt.capture)
    assert readreceipt.Library.__name__ == "Library"
    assert issubclass(readreceipt.RefusedError, readreceipt.ReadReceiptError)
    assert readreceipt.RefusedError.exit_code == 2
    with pytest.raises(AttributeError):
        readreceipt.no_such_thing  # noqa: B018 - the attribute access is the test
