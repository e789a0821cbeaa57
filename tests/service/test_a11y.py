"""Accessibility (issue 15): axe-core (vendored, tests/service/vendor/axe.min.js) on the home,
results, clause, table-of-contents and error pages, in light and dark mode, at phone and
laptop widths: no serious or critical violation of WCAG 2.0-2.2 A/AA or axe's best practices.
Plus what axe does not measure: the header's share of a phone screen, and that it slides
away while scrolling down and comes back on the way up.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.service.browsing import (
    BROWSER,
    LAPTOP,
    PHONE,
    describe,
    serious_violations,
    watch_errors,
)

pytestmark = BROWSER

PAGES = {
    "home": "/",
    "results": "/search?q=Trigger+Effect&game=summoner-master",
    "clause": "/rules/summoner-master/602.1.4",
    "contents": "/rules/summoner-master",
    "error": "/rules/summoner-master/602.9",
    "thai-results": "/search?q=%E0%B9%80%E0%B8%87%E0%B8%B7%E0%B9%88%E0%B8%AD%E0%B8%99%E0%B9%84%E0%B8%82&lang=th",
}


@pytest.fixture(
    scope="module",
    params=[("light", PHONE), ("dark", PHONE), ("light", LAPTOP), ("dark", LAPTOP)],
    ids=["light-phone", "dark-phone", "light-laptop", "dark-laptop"],
)
def styled(request, browser, base_url) -> Iterator[object]:  # type: ignore[no-untyped-def]
    scheme, viewport = request.param
    context = browser.new_context(viewport=viewport, base_url=base_url, color_scheme=scheme)
    yield watch_errors(context.new_page())
    context.close()


@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_serious_violation(styled, name: str) -> None:
    styled.errors.clear()
    styled.goto(PAGES[name])
    styled.wait_for_load_state("load")
    bad = serious_violations(styled)
    assert bad == [], describe(bad)
    expected = ["the server responded with a status of 404"] if name == "error" else []
    assert [e for e in styled.errors if not any(x in e for x in expected)] == []


def test_compact_header_gets_out_of_the_way(page) -> None:
    page.goto("/rules/summoner-master/602.1.4?lang=th")
    assert page.locator("header.top").bounding_box()["height"] / PHONE["height"] <= 0.12
    page.goto("/search?q=Effect")
    page.evaluate("document.body.style.minHeight = '3000px'")
    top = "document.querySelector('header.top').getBoundingClientRect()"
    page.mouse.wheel(0, 800)
    eventually(lambda: page.evaluate(top + ".bottom") <= 0)  # slid away
    page.mouse.wheel(0, -200)
    eventually(lambda: page.evaluate(top + ".top") >= 0)  # back on the way up
    page.keyboard.press("Tab")  # the skip link comes first and is visible when focused
    assert page.evaluate("document.activeElement.className") == "skip"
    assert page.locator("a.skip").is_visible()


def eventually(check, seconds: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    """Poll ``check`` from Python (the pages' CSP forbids Playwright's in-page polling)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)
