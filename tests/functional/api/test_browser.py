"""The search page in a real headless browser (Debian's chromium), with every non-loopback host unresolvable."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.functional.api.helpers import Served, token

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--virtual-time-budget=15000",
)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail("chromium is not installed (infra/install-browser.sh installs it)")
    pytest.skip("chromium is not installed: run infra/install-browser.sh")


def dump_dom(url: str, profile: Path, *flags: str) -> str:
    done = subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, *flags, f"--user-data-dir={profile}", "--dump-dom", url],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_search_page_shows_results_with_citations(served: Served, tmp_path: Path) -> None:
    bearer = token("alice", ["demo"])
    dom = dump_dom(f"{served.url}/?namespace=demo&q={quote('pump seal')}#token={bearer}", tmp_path / "profile")
    assert 'data-state="done"' in dom, dom[-3000:]
    assert ">manuals/pump.md</a>" in dom  # cited by its source key
    assert '<span class="section">Pump guide</span>' in dom
    assert '<span class="page">p. 1</span>' in dom
    assert "2000 operating hours" in dom


def test_the_search_page_shows_a_refusal(served: Served, tmp_path: Path) -> None:
    bearer = token("alice", ["demo"])
    dom = dump_dom(f"{served.url}/?namespace=secret&q=salary#token={bearer}", tmp_path / "profile")
    assert "403: the token does not allow namespace" in dom
    assert "payroll" not in dom


def test_the_api_docs_render_offline(served: Served, tmp_path: Path) -> None:
    dom = dump_dom(f"{served.url}/docs", tmp_path / "profile")
    assert "docshelf search API" in dom and "/documents/{document_id}" in dom
