"""How long the capture hook holds up an agent: its return latency, against two baselines.

Measured in one run, interleaved round by round so drift hits every command alike:

- ``python -c pass`` from the project's venv: a bare interpreter start, the floor;
- ``readreceipt-hook capture`` with a real-shaped WebFetch payload on stdin;
- ``retrieved-hook`` (PyPI ``retrieved`` 0.2.0, the closest prior tool), installed in a venv
  of its own under bench/out/, with the same payload;
- ``readreceipt-hook report`` with no flags to tell (it runs after every tool call).

Each command's detached worker is waited out before the next round, so no worker competes
for the CPU with a measurement. Target (issue 6): the capture hook's median at most 1.3 times
the bare start.

    .venv/bin/python bench/hook_latency.py [--rounds 50]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
VENV_BIN = Path(sys.executable).parent
RETRIEVED_VENV = OUT / "retrieved-venv"
RETRIEVED_VERSION = "0.2.0"
TARGET_RATIO = 1.3

#: Command-line fragments of each tool's detached worker, to wait them out between rounds.
WORKER_MARKS = (b"readreceipt-hook\x00capture", b"retrieved.hook\x00--capture")


def payload(cwd: str) -> bytes:
    # A URL both tools refuse at once (a private address), so their workers finish quickly;
    # what a worker does happens after the hook has returned and is not what is measured.
    url = "http://10.20.30.40/docs/guide"
    return json.dumps({
        "session_id": "bench-session", "transcript_path": "/tmp/bench.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PostToolUse",
        "tool_name": "WebFetch", "tool_input": {"url": url, "prompt": "Summarise the guide"},
        "tool_response": {"bytes": 5210, "code": 200, "codeText": "OK",
                          "result": 'The guide says "install it with the package manager '
                                    'and restart the service afterwards" and little else.',
                          "durationMs": 2311, "url": url},
        "tool_use_id": "toolu_bench",
    }).encode("utf-8")


def ensure_retrieved() -> Path:
    script = RETRIEVED_VENV / "bin" / "retrieved-hook"
    if script.exists():
        return script
    OUT.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(RETRIEVED_VENV)], check=True)
    subprocess.run([str(RETRIEVED_VENV / "bin" / "pip"), "install", "--quiet",
                    f"retrieved=={RETRIEVED_VERSION}"], check=True)
    return script


def compile_package() -> None:
    """Byte-compile readreceipt as pip does on install (an editable checkout may run with
    PYTHONDONTWRITEBYTECODE and would otherwise recompile the hook on every start)."""
    import readreceipt

    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    str(Path(readreceipt.__file__).parent)], check=True)


def workers_running() -> bool:
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read()
        except OSError:
            continue
        if any(mark in cmdline for mark in WORKER_MARKS):
            return True
    return False


def wait_for_workers(timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while workers_running() and time.monotonic() < deadline:
        time.sleep(0.02)


def once(argv: list[str], data: bytes, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()

    retrieved = ensure_retrieved()
    compile_package()
    work = Path(tempfile.mkdtemp(prefix="hook-latency-"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("READRECEIPT_", "RETRIEVED_"))}
    env.update({"READRECEIPT_LIBRARY": str(work / "readreceipt-lib"),
                "RETRIEVED_HOME": str(work / "retrieved-lib")})
    data = payload(str(work))
    commands = {
        "bare python -c pass": [sys.executable, "-c", "pass"],
        "readreceipt-hook capture": [str(VENV_BIN / "readreceipt-hook"), "capture"],
        f"retrieved-hook ({RETRIEVED_VERSION})": [str(retrieved)],
        "readreceipt-hook report (nothing to tell)": [str(VENV_BIN / "readreceipt-hook"),
                                                      "report"],
    }
    # Make both libraries exist first, so no round pays for creating one.
    for argv in commands.values():
        once(argv, data, env)
    wait_for_workers()

    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_no in range(args.warmup + args.rounds):
        for name, argv in commands.items():
            elapsed = once(argv, data, env)
            wait_for_workers()
            if round_no >= args.warmup:
                times[name].append(elapsed)

    bare = statistics.median(times["bare python -c pass"])
    rows = []
    print(f"{'command':44} {'median ms':>10} {'p90 ms':>8} {'x bare':>7}")
    for name, values in times.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        rows.append({"command": name, "median_ms": round(median * 1000, 2),
                     "p90_ms": round(p90 * 1000, 2), "ratio_to_bare": round(median / bare, 3),
                     "runs": len(values)})
        print(f"{name:44} {median * 1000:10.1f} {p90 * 1000:8.1f} {median / bare:7.2f}")
    capture_ratio = statistics.median(times["readreceipt-hook capture"]) / bare
    verdict = "meets" if capture_ratio <= TARGET_RATIO else "MISSES"
    print(f"\ncapture hook: {capture_ratio:.2f} x a bare start; {verdict} the target of "
          f"{TARGET_RATIO} x")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "hook_latency.json").write_text(json.dumps({
        "rounds": args.rounds, "python": sys.version.split()[0], "rows": rows,
        "capture_ratio": round(capture_ratio, 3), "target_ratio": TARGET_RATIO,
    }, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
