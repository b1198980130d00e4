"""How to add an extra, said the way this copy of readreceipt was installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import clean_env
from readreceipt.installed import advice, installed_extras

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def test_an_editable_install_in_a_venv_is_told_its_own_pip() -> None:
    extras = ",".join(sorted({*installed_extras(), "team"}))
    assert advice("team") == (f"{sys.executable} -m pip install -c {ROOT}/constraints.txt "
                              f"-e '{ROOT}[{extras}]'")


def _fake_environment(tmp_path: Path, *, pipx: bool) -> Path:
    """A bare venv that imports readreceipt from the checkout (not installed in it)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    if pipx:
        (venv / "pipx_metadata.json").write_text("{}")
    return venv


def _advice_in(venv: Path, extra: str) -> str:
    proc = subprocess.run([str(venv / "bin" / "python"), "-c",
                           f"from readreceipt.installed import advice; print(advice({extra!r}))"],
                          capture_output=True, text=True, timeout=60, check=True,
                          env=clean_env(PYTHONPATH=str(SRC)))
    return proc.stdout.strip()


def test_under_pipx_the_advice_reinstalls_with_every_extra(tmp_path: Path) -> None:
    """`pipx install` of an installed package answers "already installed" and changes
    nothing (checked with pipx 1.18.4: the README's second install did nothing); --force with every
    extra named adds one and keeps the rest."""
    venv = _fake_environment(tmp_path, pipx=True)
    assert _advice_in(venv, "team") == ("pipx install --force --pip-args='-c ./constraints.txt' "
                                        "'.[team]' from readreceipt's checkout")


def test_a_plain_venv_is_told_its_own_interpreter(tmp_path: Path) -> None:
    venv = _fake_environment(tmp_path, pipx=False)
    assert _advice_in(venv, "mcp") == (f"{venv}/bin/python -m pip install -c ./constraints.txt "
                                       "'.[mcp]' from readreceipt's checkout")
