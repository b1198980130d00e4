"""The URLs a shell command fetches: ``readreceipt fetch URL``, ``curl URL``, ``wget URL``.

Agents fetch pages through their shell as much as through a fetch tool: Codex CLI's Bash,
Cursor's Shell, Cline's execute_command, Copilot CLI's bash. The hook captures what such a
command downloaded, and the audit counts it as a page the session read.

The command is split as a POSIX shell would split its words (:mod:`shlex`, with the
separators ``; && || | & ( )`` as words of their own), and each simple command whose program
is ``readreceipt`` (subcommand ``fetch``), ``curl`` or ``wget`` gives the http(s) URLs among
its arguments; the values of the options that take one (a referer, a proxy, an output file)
are not URLs fetched. Nothing is run, expanded or resolved.

Invariants: pure; a command that does not split (an open quote) names no URL, nor does one
longer than :data:`MAX_COMMAND_CHARS` (shlex builds each word by copying it once a character,
so its time grows with the square of the longest word: unbounded, one word of 1,000,000
characters took 63 s in the hook's worker); at most :data:`MAX_URLS` URLs a command.
"""

from __future__ import annotations

import os
import shlex

#: URLs read from one command at most.
MAX_URLS = 20
#: The longest command split. Agents' fetching commands are a line or a short script (the
#: longest in tests/ is under 1,000 characters); a heredoc that writes a file can be longer,
#: and names no fetch worth splitting it for. At this length a command of one word splits in
#: about 0.1 s.
MAX_COMMAND_CHARS = 32_768

#: Options of ``readreceipt fetch`` (and of the group) that take a value.
_FETCH_VALUE_OPTIONS = frozenset({"-o", "--output", "--format", "--preview", "--wait",
                                  "--timeout", "--max-bytes", "--resolve", "--library"})
#: Options whose value is not the page fetched (a referer, a proxy, a header, a file), per
#: program: ``-O`` takes no value in curl and names the output file in wget.
_VALUE_OPTIONS = {
    "curl": frozenset({
        "-e", "--referer", "-x", "--proxy", "--preproxy", "-o", "--output", "-H", "--header",
        "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-u", "--user",
        "-A", "--user-agent", "-b", "--cookie", "-c", "--cookie-jar", "-F", "--form", "-T",
        "--upload-file", "-w", "--write-out", "-X", "--request", "--resolve", "--connect-to",
        "-m", "--max-time", "--connect-timeout", "--retry", "-r", "--range", "-U",
        "--proxy-user", "-K", "--config", "--cacert", "--cert", "--key"}),
    "wget": frozenset({
        "-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-P",
        "--directory-prefix", "-i", "--input-file", "--post-data", "--header", "-U",
        "--user-agent", "-e", "--execute", "-t", "--tries", "-T", "--timeout", "-w",
        "--wait", "--referer", "-Q", "--quota"}),
}
_SHELL_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", "\n"})


_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})


def words(command: str | list[str], depth: int = 0) -> list[str]:
    """The command's words, its separators included; [] when it does not split. A script
    handed to a shell (``bash -lc 'curl URL'``, as agents wrap their commands) is split in
    its place."""
    if isinstance(command, list):
        split = [str(word) for word in command]
    elif len(command) > MAX_COMMAND_CHARS:
        return []
    else:
        try:
            lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            split = list(lexer)
        except ValueError:
            return []
    if depth >= 2:
        return split
    out: list[str] = []
    i = 0
    while i < len(split):
        word = split[i]
        if (os.path.basename(word) in _SHELLS and i + 2 < len(split)
                and split[i + 1].startswith("-") and "c" in split[i + 1]
                and not split[i + 1].startswith("--")):
            out.extend(["(", *words(split[i + 2], depth + 1), ")"])
            i += 3
            continue
        out.append(word)
        i += 1
    return out


def fetched_by_command(command: str | list[str]) -> list[str]:
    """The URLs a shell command hands to ``readreceipt fetch`` (each call of it)."""
    split = words(command)
    urls: list[str] = []
    i = 0
    while i < len(split):
        if os.path.basename(split[i]) != "readreceipt":
            i += 1
            continue
        i += 1
        while i < len(split) and split[i].startswith("-"):  # the group's options
            i += 2 if split[i] in _FETCH_VALUE_OPTIONS else 1
        if i >= len(split) or split[i] != "fetch":
            continue
        i += 1
        while i < len(split) and split[i] not in _SHELL_SEPARATORS:
            word = split[i]
            if word.startswith("-"):
                i += 2 if word in _FETCH_VALUE_OPTIONS and "=" not in word else 1
                continue
            urls.append(word)
            break
    return urls[:MAX_URLS]


def downloaded_by_command(command: str | list[str]) -> list[str]:
    """The http(s) URLs a shell command hands to curl or wget, in order, once each."""
    split = words(command)
    urls: list[str] = []
    program = True  # is the next word a simple command's program?
    downloader: str | None = None
    skip_value = False
    for word in split:
        if word in _SHELL_SEPARATORS:
            program, downloader, skip_value = True, None, False
            continue
        if program:
            if "=" in word and not word.startswith("-") and "/" not in word.split("=", 1)[0]:
                continue  # VAR=value before the program
            if word in ("sudo", "env", "command", "exec", "time", "nohup"):
                continue
            name = os.path.basename(word)
            downloader = name if name in _VALUE_OPTIONS else None
            program = False
            continue
        if downloader is None:
            continue
        if skip_value:
            skip_value = False
            continue
        if word.startswith("-"):
            skip_value = word in _VALUE_OPTIONS[downloader]
            if word == "--url":
                skip_value = False  # curl --url URL: the next word is the page
            continue
        if word[:8].lower().startswith(("http://", "https://")) and word not in urls:
            urls.append(word)
            if len(urls) >= MAX_URLS:
                break
    return urls


def fetched_in_shell(command: str | list[str]) -> list[tuple[str, str]]:
    """``(tool, url)`` for every page the command fetches: ``readreceipt fetch``, then curl
    and wget."""
    found = [("readreceipt fetch", url) for url in fetched_by_command(command)]
    found += [("curl/wget", url) for url in downloaded_by_command(command)]
    return found[:MAX_URLS]
