"""``readreceipt-hook``: Claude Code hooks. Placeholder until the hook modes land.

It exits 0 doing nothing, so installing it can never break an agent's session.
"""

from __future__ import annotations

import sys


def main() -> None:
    sys.exit(0)
