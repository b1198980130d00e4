"""``readreceipt demo`` works offline on a fresh machine and says what it did."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli


def test_demo_json(tmp_path: Path) -> None:
    out = run_cli("demo", "--library", str(tmp_path / "demo"), "--json")
    assert out.code == 0, out.stderr
    data = out.json()
    by_path = {c["url"].rsplit("/", 1)[1]: c for c in data["captures"]}
    assert by_path["harbour-bridge"]["verdict"] == "RETRIEVED"
    assert by_path["app"]["reason"] == "js_shell"
    assert by_path["station.json"]["verdict"] == "RETRIEVED"
    assert by_path["report.pdf"]["verdict"] == "RETRIEVED"
    assert by_path["no-such-page"]["reason"] == "http_404"
    # Only the demo's own server was exempted, and each record says so.
    pair = data["server"].removeprefix("http://")
    assert all(c.get("policy_exemption", "").find(pair) >= 0 for c in data["captures"])
    check = data["answer_check"]
    assert check["outcome"] == "not_found"
    assert [p["found"] for p in check["passages"]] == [True, False]
    assert "forgiving" in (check["passages"][1]["nearest"] or "")
    # The figure the answer changed is named, beside the one it kept.
    claims = {c["text"]: c for c in check["claims"]}
    assert claims["318 million"]["outcome"] == "found"
    assert claims["19 percent"]["outcome"] == "not_found"
    assert "about 9 percent" in (claims["19 percent"]["nearest"] or "")


def test_demo_human(tmp_path: Path) -> None:
    out = run_cli("demo", "--library", str(tmp_path / "demo"))
    assert out.code == 0, out.stderr
    for words in ("RETRIEVED", "js_shell", "http_404", "not on the page", "Try next",
                  "figure \u201c19 percent\u201d"):
        assert words in out.stdout
