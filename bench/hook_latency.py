"""How long each hook mode holds up an agent, against a bare interpreter start.

Measured as Claude Code waits: the command is started with its payload on a pipe and its
stdout and stderr on pipes, and the time runs until the process has exited *and* both pipes
have closed (a forked worker that kept a pipe open would hold the session). Interleaved round
by round in one run, so drift hits every command alike:

- ``python -c pass`` from the project's venv: a bare interpreter start, the floor;
- ``readreceipt-hook capture`` with a real-shaped WebFetch payload;
- ``readreceipt-hook report`` and ``readreceipt-hook stop`` with nothing to tell (report runs
  after every tool call, stop after every answer);
- ``readreceipt-hook guard`` denying a WebFetch;
- the other agents' modes (``--agent gemini|codex|cursor|cline|copilot``), on their
  documented payloads (tests/fixtures/agents/): ``after`` on a tool call that fetched nothing
  (every tool call), ``after`` on a fetch (it forks its worker), ``stop`` with nothing to tell,
  and Cursor's ``answer``;
- Claude Code's ``report`` through the plugin's runner (``plugin/run hook report``, a shell
  that finds the user's readreceipt-hook and execs it);
- for reference, ``report`` behind the console-script wrapper older pips wrote (it imports
  :mod:`re` first), and ``retrieved-hook`` (PyPI ``retrieved`` 0.2.0, the closest prior
  tool) in a venv of its own under bench/out/ (left out with ``--no-retrieved`` or when it
  cannot be installed).

Each command's detached worker is waited out before the next round, so no worker competes
for the CPU with a measurement. Target (issues 13 and 24): every readreceipt mode at most 1.3
times the bare start.

- with ``--install BIN``: the same modes from another installation's ``bin`` folder (a venv
  made as the README says, whose pip may be older than this one's, or a pipx venv), each
  against that installation's own bare ``python -c pass``.

    .venv/bin/python bench/hook_latency.py [--rounds 50] [--no-retrieved] [--install BIN]
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _retrieved import VERSION as RETRIEVED_VERSION
from _retrieved import ensure_retrieved

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
VENV_BIN = Path(sys.executable).parent
TARGET_RATIO = 1.3
ROOT = HERE.parent
FIXTURES = ROOT / "tests" / "fixtures" / "agents"
#: The wrapper pip wrote for a console script before it dropped ``import re`` from it.
OLD_PIP_WRAPPER = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from readreceipt.agents.hook import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""

#: Command-line fragments of each tool's detached worker, to wait them out between rounds.
WORKER_MARKS = (b"readreceipt-hook\x00capture", b"readreceipt-hook\x00after",
                b"readreceipt-hook\x00answer", b"retrieved.hook\x00--capture")
#: (label, mode, agent, fixture): the other agents' modes, on their documented payloads.
AGENT_MODES = (
    ("gemini after (read_file)", "after", "gemini", "gemini-aftertool-read_file"),
    ("gemini after (web_fetch)", "after", "gemini", "gemini-aftertool-web_fetch"),
    ("gemini stop (AfterAgent)", "stop", "gemini", "gemini-afteragent"),
    ("codex after (apply_patch)", "after", "codex", "codex-posttooluse-apply_patch"),
    ("codex after (curl)", "after", "codex", "codex-posttooluse-bash-curl"),
    ("codex stop", "stop", "codex", "codex-stop"),
    ("cursor after (Shell)", "after", "cursor", "cursor-posttooluse-shell"),
    ("cursor after (WebFetch)", "after", "cursor", "cursor-posttooluse-webfetch"),
    ("cursor answer", "answer", "cursor", "cursor-afteragentresponse"),
    ("cursor stop", "stop", "cursor", "cursor-stop"),
    ("cline after (read_file)", "after", "cline", "cline-posttooluse-read_file"),
    ("cline after (web_fetch)", "after", "cline", "cline-posttooluse-web_fetch"),
    ("cline stop (TaskComplete)", "stop", "cline", "cline-taskcomplete"),
    ("copilot after (view)", "after", "copilot", "copilot-posttooluse-view"),
    ("copilot after (curl)", "after", "copilot", "copilot-posttooluse-bash-curl"),
    ("copilot stop (agentStop)", "stop", "copilot", "copilot-agentstop"),
)


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


def old_pip_wrapper(folder: Path) -> Path:
    path = folder / "readreceipt-hook-old-pip"
    path.write_text(OLD_PIP_WRAPPER.format(python=sys.executable), encoding="utf-8")
    path.chmod(0o755)
    return path


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
    """Seconds until the process has exited and its stdout and stderr have closed."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    proc.communicate(data, timeout=60)
    return time.perf_counter() - start


def agent_payload(name: str, cwd: str) -> bytes:
    """A documented payload (tests/fixtures/agents/), filled with a URL refused at once."""
    text = (FIXTURES / f"{name}.json").read_text("utf-8")
    answer = 'The guide says "install it with the package manager and restart the service".'
    for key, value in (("URL2", "http://10.20.30.41/b"), ("URL", "http://10.20.30.40/a"),
                       ("CWD", cwd), ("SESSION", "bench-agent-session"),
                       ("ANSWER", answer), ("PROMPT", "Summarise the guide")):
        text = text.replace(f"${key}", json.dumps(value)[1:-1])
    return json.dumps(json.loads(text)["payload"]).encode("utf-8")


def stop_payload(cwd: str) -> bytes:
    return json.dumps({
        "session_id": "bench-session", "transcript_path": "/tmp/bench.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "Stop", "stop_hook_active": False,
    }).encode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--no-retrieved", action="store_true")
    parser.add_argument("--install", type=Path, default=None,
                        help="another installation's bin folder, measured beside this one")
    args = parser.parse_args()

    retrieved_bin = None if args.no_retrieved else ensure_retrieved()
    retrieved = retrieved_bin / "retrieved-hook" if retrieved_bin is not None else None
    compile_package()
    work = Path(tempfile.mkdtemp(prefix="hook-latency-"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("READRECEIPT_", "RETRIEVED_"))}
    env.update({"READRECEIPT_LIBRARY": str(work / "readreceipt-lib"),
                "RETRIEVED_HOME": str(work / "retrieved-lib"), "TMPDIR": str(work),
                "CLAUDE_PLUGIN_ROOT": str(ROOT),
                "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"})
    fetch, stop = payload(str(work)), stop_payload(str(work))
    hook = str(VENV_BIN / "readreceipt-hook")
    commands: dict[str, tuple[list[str], bytes]] = {
        "bare python -c pass": ([sys.executable, "-c", "pass"], fetch),
        "capture": ([hook, "capture"], fetch),
        "report": ([hook, "report"], fetch),
        "guard": ([hook, "guard"], fetch),
        "stop": ([hook, "stop"], stop),
        "report, old pip wrapper": ([str(old_pip_wrapper(work)), "report"], fetch),
        "report via the plugin's runner": (
            ["sh", "-c", '"$CLAUDE_PLUGIN_ROOT/plugin/run" hook report'], fetch),
    }
    for label, mode, agent, fixture in AGENT_MODES:
        commands[label] = ([hook, mode, "--agent", agent], agent_payload(fixture, str(work)))
    targeted = [name for name in commands if not name.startswith(("bare", "report, old",
                                                                  "retrieved"))]
    if args.install is not None:
        other = str(args.install / "readreceipt-hook")
        commands |= {"[install] bare python -c pass": ([str(args.install / "python"), "-c",
                                                        "pass"], fetch),
                     "[install] capture": ([other, "capture"], fetch),
                     "[install] report": ([other, "report"], fetch),
                     "[install] guard": ([other, "guard"], fetch),
                     "[install] stop": ([other, "stop"], stop)}
        commands |= {f"[install] {label}": ([other, mode, "--agent", agent],
                                            agent_payload(fixture, str(work)))
                     for label, mode, agent, fixture in AGENT_MODES}
    if retrieved is not None:
        commands[f"retrieved-hook ({RETRIEVED_VERSION})"] = ([str(retrieved)], fetch)
    # Make the libraries exist first, so no round pays for creating one.
    for argv, data in commands.values():
        once(argv, data, env)
    wait_for_workers()

    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_no in range(args.warmup + args.rounds):
        for name, (argv, data) in commands.items():
            elapsed = once(argv, data, env)
            wait_for_workers()
            if round_no >= args.warmup:
                times[name].append(elapsed)

    bare = statistics.median(times["bare python -c pass"])
    rows = []
    print(f"{'command':34} {'median ms':>10} {'p90 ms':>8} {'x bare':>7}")
    print("(the machine is shared with other work: figures are ratios to the bare start, "
          "measured in the same rounds)")
    for name, values in times.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        rows.append({"command": name, "median_ms": round(median * 1000, 2),
                     "p90_ms": round(p90 * 1000, 2), "ratio_to_bare": round(median / bare, 3),
                     "runs": len(values)})
        print(f"{name:34} {median * 1000:10.1f} {p90 * 1000:8.1f} {median / bare:7.2f}")
    ratios = {mode: statistics.median(times[mode]) / bare for mode in targeted}
    if args.install is not None:
        their_bare = statistics.median(times["[install] bare python -c pass"])
        ratios |= {name: statistics.median(values) / their_bare
                   for name, values in times.items()
                   if name.startswith("[install]") and "bare python" not in name}
    print()
    for mode, ratio in ratios.items():
        verdict = "meets" if ratio <= TARGET_RATIO else "MISSES"
        print(f"{mode}: {ratio:.2f} x a bare start; {verdict} the target of {TARGET_RATIO} x")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "hook_latency.json").write_text(json.dumps({
        "rounds": args.rounds, "python": sys.version.split()[0], "rows": rows,
        "ratios": {mode: round(r, 3) for mode, r in ratios.items()},
        "target_ratio": TARGET_RATIO,
    }, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
