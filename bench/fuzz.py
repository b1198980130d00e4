"""Benchmark: the property-based tests of tests/test_fuzz.py, run far longer than CI runs them.

CI draws 120 examples a property from a fixed seed; this draws ``--examples`` a property
(5,000 by default) from a random seed each run, and prints what pytest and Hypothesis say (a
failing example is printed whole, shrunk, with the seed to replay it:
``--hypothesis-seed=N``). Figures, not assertions: a finding is a bug to fix, and its
shrunk example belongs in tests/test_fuzz.py as an ``@example``.

    .venv/bin/python bench/fuzz.py [--examples 5000] [-k NAME]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=5000)
    parser.add_argument("-k", default="", help="only the properties whose name holds this")
    args = parser.parse_args()
    env = {**os.environ, "FUZZ_EXAMPLES": str(args.examples), "FUZZ_RANDOM": "1"}
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            "--hypothesis-show-statistics", str(HERE.parent / "tests" / "test_fuzz.py")]
    if args.k:
        argv += ["-k", args.k]
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=HERE.parent, check=False)
    print(f"{args.examples} examples a property in {time.perf_counter() - started:.0f} s "
          f"(exit {done.returncode}; the machine may be shared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
