"""Accessibility (issue 15): axe-core (vendored, tests/service/vendor/axe.min.js) on the home,
results, clause, table-of-contents and error pages, in light and dark mode, at phone and
laptop widths: no serious or critical violation of WCAG 2.0-2.2 A/AA or axe's best practices.
Plus what axe does not measure: the header's share of a phone screen, and that it slides
away while scrolling down and comes back on the way up.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.browsing import BROWSER, LAPTOP, PHONE, watch_errors

pytestmark = BROWSER

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
PAGES = {
    "home": "/",
    "results": "/search?q=Trigger+Effect&game=summoner-master",
    "clause": "/rules/summoner-master/602.1.4",
    "contents": "/rules/summoner-master",
    "error": "/rules/summoner-master/602.9",
    "thai-results": "/search?q=%E0%B9%80%E0%B8%87%E0%B8%B7%E0%B9%88%E0%B8%AD%E0%B8%99%E0%B9%84%E0%B8%82&lang=th",
}
RUN = "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}})).violations"


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


def describe(violations: list[dict]) -> str:
    return "\n".join(
        f"{v['impact']}: {v['id']} ({v['help']}): "
        + "; ".join(
            n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
            for n in v["nodes"][:4]
        )
        for v in violations
    )


@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_serious_violation(styled, name: str) -> None:
    styled.errors.clear()
    styled.goto(PAGES[name])
    styled.wait_for_load_state("load")
    if styled.evaluate("typeof axe") == "undefined":
        styled.evaluate(AXE.read_text(encoding="utf-8"))  # CDP evaluation: the page's CSP holds
    violations = styled.evaluate(RUN, TAGS)
    bad = [v for v in violations if v["impact"] in ("serious", "critical")]
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
    page.wait_for_timeout(400)  # the slide takes 0.2 s
    assert page.evaluate(top + ".bottom") <= 0
    page.mouse.wheel(0, -200)
    page.wait_for_timeout(400)
    assert page.evaluate(top + ".top") >= 0
    page.keyboard.press("Tab")  # the skip link comes first and is visible when focused
    assert page.evaluate("document.activeElement.className") == "skip"
    assert page.locator("a.skip").is_visible()
