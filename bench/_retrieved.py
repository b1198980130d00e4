"""retrieved 0.2.0 (PyPI ``retrieved``), the closest prior tool, in a venv of its own under
bench/out/, made on first use: the peer of bench/capture.py and bench/hook_latency.py.

Its own venv keeps its pins from meeting this project's; both benchmarks share it (one
install). Nothing of the project imports this module.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
VENV = OUT / "retrieved-venv"
VERSION = "0.2.0"


def ensure_retrieved() -> Path | None:
    """The venv's ``bin`` folder (its ``python``, its ``retrieved-hook``), installed first if
    it is not there yet; None, with one line on stderr, when it cannot be installed."""
    bin_dir = VENV / "bin"
    if (bin_dir / "retrieved-hook").exists():
        return bin_dir
    OUT.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(bin_dir / "pip"), "install", "--quiet", f"retrieved=={VERSION}"],
                       check=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"(retrieved {VERSION} cannot be installed: {exc})", file=sys.stderr)
        return None
    return bin_dir
