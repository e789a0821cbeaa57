"""The real engine's pages at phone width in headless Chromium: whatever the card says (best
match, three side by side, no clear match, a chooser), nothing is wider than the phone, no
clause number or date is broken at a hyphen, and the game menu's labels fit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judgekb.service.app import create_app
from tests.service.browsing import BROWSER, PHONE, watch_errors
from tests.service.conftest import served

pytestmark = [*BROWSER, pytest.mark.slow]

QUERIES = [
    ("ยูนิตที่เพิ่งลงสนามโจมตีได้เลยไหม", "gundam"),
    ("การ์ดที่ถูกทำลายจะไปอยู่ที่ไหน", "summoner-master"),
    ("What does a perfect guard do?", "vanguard"),
    ("boleh tak aku guard guna dua kad sekali gus", "vanguard"),
    ("ตัวนับดาเมจคืออะไร", "gundam"),
    ("apa itu drive check", ""),
    ("1-2-2-1", ""),
    ("602.1.4", "gundam"),
    ("asdkjh qwe zzz", ""),
]

# Elements that must stay on one line, and any that did not (a heading or link naming a clause
# by number and title wraps between words, its numbers in .nobr spans).
BROKEN = """() => [...document.querySelectorAll('span.cid, .nobr')]
  .filter(e => e.getClientRects().length > 1).map(e => e.textContent)"""
# Each game menu label against the menu's width (its arrow and padding left out).
MENU = """() => { const s = document.querySelector('select[name=game]');
  const c = document.createElement('canvas').getContext('2d');
  c.font = getComputedStyle(s).font;
  return [...s.options].filter(o => c.measureText(o.text).width > s.clientWidth - 28)
    .map(o => o.text); }"""


@pytest.fixture(scope="module")
def real_base_url(built_settings, real_searcher) -> Iterator[str]:
    # what the pages show, not load shedding (tests/service/test_admission.py): on a busy
    # machine a search may wait past the 150 ms deadline and be answered 503
    settings = built_settings.model_copy(update={"search_deadline_ms": 0})
    with served(create_app(settings, searcher=real_searcher)) as url:
        yield url


@pytest.mark.parametrize(("q", "game"), QUERIES)
def test_a_phone_sees_the_whole_page(browser, real_base_url, q, game) -> None:
    context = browser.new_context(viewport=PHONE, base_url=real_base_url)
    page = watch_errors(context.new_page())
    page.goto(f"/search?q={q}&game={game}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for fold in page.locator("section.card details.fold").all()[:6]:
        fold.locator("summary").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(BROKEN) == []
    assert page.evaluate(MENU) == []
    assert page.errors == []
    context.close()


@pytest.mark.parametrize(
    "path",
    [
        "/rules/gundam/3-1",  # the whole rule is its heading
        "/rules/vanguard/12.7",
        "/rules/summoner-master/topic/2",
        "/rules/one-piece/7-1",  # a paragraph where a title goes
        "/rules/vanguard/16.5.3",  # text that belongs elsewhere, set apart under a label
    ],
)
def test_a_long_clause_heading_wraps_on_a_phone(browser, real_base_url, path) -> None:
    """The heading wraps between words; its clause number stays on one line."""
    context = browser.new_context(viewport=PHONE, base_url=real_base_url)
    page = watch_errors(context.new_page())
    page.goto(path)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    for number in page.locator("h1.cid .nobr").all():  # a section's name has none
        assert number.evaluate("e => e.getClientRects().length") == 1  # one line box: unbroken
    assert page.errors == []
    context.close()


def test_a_pipe_table_is_laid_out_online_and_offline(browser, real_base_url) -> None:
    """Vanguard chapter 4 prints its zones as a pipe table: rows and cells on the page, no
    rule line, online and in the offline copy alike."""
    context = browser.new_context(viewport=PHONE, base_url=real_base_url)
    page = watch_errors(context.new_page())
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_selector(".offline-copy.ready .offline-status", timeout=60_000)
    cells = []
    for offline in (False, True):
        context.set_offline(offline)
        page.goto("/rules/vanguard/4")
        if offline:
            page.wait_for_selector(".offline-note")
        rows = page.locator("p.text .tbl .tr")
        cells.append([r.locator(".td").all_inner_texts() for r in rows.all()])
        assert "|---" not in page.locator("p.text").first.inner_text()
    assert cells[0] == cells[1]
    assert cells[0][0] == ["① Zon Dek", "⑥ Zon Luka"] and len(cells[0]) == 5
    assert page.errors == []
    context.close()


def test_a_number_several_games_print_asks_which_game_offline(browser, real_base_url) -> None:
    """The real offline copy: "1-2-2-1" with no game chosen lists that clause of each game
    that prints it (the dotted form is Vanguard's) instead of opening one; with a game chosen
    it opens that game's clause."""
    context = browser.new_context(viewport=PHONE, base_url=real_base_url)
    page = watch_errors(context.new_page())
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_selector(".offline-copy.ready .offline-status", timeout=60_000)
    context.set_offline(True)
    page.goto("/search?q=1-2-2-1&game=")
    page.wait_for_selector(".offline-note")
    status = page.locator("section.status")
    hrefs = [a.get_attribute("href") for a in status.locator("ul a").all()]
    assert hrefs == ["/rules/gundam/1-2-2-1", "/rules/one-piece/1-2-2-1", "/rules/vanguard/1.2.2.1"]
    page.goto("/search?q=1-2-2-1&game=one-piece")
    page.wait_for_url("**/rules/one-piece/1-2-2-1**")
    assert page.errors == []
    context.close()
