"""How this copy of readreceipt was installed, to say how to add an extra to it.

readreceipt is installed from its checkout (it is not on an index): with pipx, into a virtual
environment with pip, or editable by ``make``. An extra added later must go in the same way,
with the same ``constraints.txt`` (the pinned libraries that shape the texts), or it lands in
another environment, or pipx answers "already installed" and changes nothing. :func:`advice`
reads what the environment says of itself: pipx's ``pipx_metadata.json`` beside the venv,
and the checkout the package came from (its ``direct_url.json``, PEP 610), and names the
extras installed already so that a reinstall keeps them.

Standard library only, and nothing of readreceipt: ``store/`` and the CLI both ask it.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: Each extra, and a module it installs (present: the extra is installed).
EXTRAS: dict[str, str] = {"browser": "playwright", "mcp": "mcp", "team": "obstore"}


def _checkout() -> tuple[Path | None, bool]:
    """The folder readreceipt was installed from, and whether editable (None: not known)."""
    try:
        text = metadata.distribution("readreceipt").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None, False
    try:
        info = json.loads(text or "")
    except ValueError:
        return None, False
    url = info.get("url") if isinstance(info, dict) else None
    if not isinstance(url, str) or not url.startswith("file://"):
        return None, False
    editable = bool((info.get("dir_info") or {}).get("editable"))
    return Path(unquote(urlsplit(url).path)), editable


def installed_extras() -> list[str]:
    """The extras whose libraries this environment holds."""
    return [name for name, module in EXTRAS.items() if importlib.util.find_spec(module)]


def under_pipx() -> bool:
    return (Path(sys.prefix) / "pipx_metadata.json").is_file()


def advice(extra: str) -> str:
    """The command that adds ``extra`` to this installation, the ones it has kept."""
    extras = ",".join(sorted({*installed_extras(), extra}))
    checkout, editable = _checkout()
    where = str(checkout) if checkout is not None else "."
    constraints = shlex.quote(f"{where}/constraints.txt")
    target = shlex.quote(f"{where}[{extras}]")
    from_checkout = "" if checkout is not None else " from readreceipt's checkout"
    if under_pipx():
        # pipx install of an installed package does nothing; --force reinstalls, and naming
        # every extra keeps the ones installed before (pipx reinstall keeps them too).
        pip_args = shlex.quote(f"-c {constraints}")
        return f"pipx install --force --pip-args={pip_args} {target}{from_checkout}"
    pip = f"{shlex.quote(sys.executable)} -m pip install -c {constraints}"
    return f"{pip} {'-e ' if editable else ''}{target}{from_checkout}"
