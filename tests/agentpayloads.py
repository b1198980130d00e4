"""The agents' documented hook payloads (tests/fixtures/agents/), filled in for a test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "agents"
PLACEHOLDERS = ("URL2", "URL", "CWD", "SESSION", "ANSWER", "PROMPT")


def documented(name: str) -> dict[str, Any]:
    """The fixture ``name`` (without .json): its ``documentation`` and its ``payload``."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))
    assert data["documentation"].startswith("https://"), name
    return data


def payload(name: str, **values: str) -> dict[str, Any]:
    """The fixture's payload with ``$URL``, ``$CWD``... replaced by ``values`` (JSON-escaped
    in the file's text; one not given stays as written). A placeholder inside a JSON text
    held in a string (Copilot CLI's toolArgs) takes only values with nothing to escape."""
    text = (FIXTURES / f"{name}.json").read_text("utf-8")
    for key in PLACEHOLDERS:  # URL2 before URL: the longer name first
        if key in values:
            text = text.replace(f"${key}", json.dumps(values[key])[1:-1])
    result: dict[str, Any] = json.loads(text)["payload"]
    return result


def fixtures(prefix: str = "") -> list[str]:
    """The fixtures' names, those of one agent when ``prefix`` names it."""
    return sorted(p.stem for p in FIXTURES.glob(f"{prefix}*.json"))
