"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by Playwright
(never a browser Playwright downloads), one browser and one live server per test session
(the fixtures are in conftest.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (apt-get install -y chromium)"
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def watch_errors(page):  # type: ignore[no-untyped-def]
    """Console errors, CSP violations and uncaught exceptions land in ``page.errors``."""
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


AXE = Path(__file__).parent / "vendor" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
_RUN = (
    "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}})).violations"
)


def serious_violations(page) -> list[dict]:  # type: ignore[no-untyped-def]
    """axe-core's serious and critical findings on the page as it is now (WCAG 2.0-2.2 A/AA
    and best practices); axe is evaluated over CDP, so the page's CSP stays in force."""
    if page.evaluate("typeof axe") == "undefined":
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate(_RUN, AXE_TAGS)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def describe(violations: list[dict]) -> str:
    return "\n".join(
        f"{v['impact']}: {v['id']} ({v['help']}): "
        + "; ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in violations
    )
