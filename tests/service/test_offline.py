"""The installable offline app in real headless Chromium (issue 15).

One visit online installs the service worker and stores the bundle; then, with the network
cut (``context.set_offline(True)``), a clause page, a lookup in every written form, a
reference hop and a Thai, a Malay and an English keyword search must all work. Also: the
explicit download (size shown, progress, an older copy replaced), Chromium's own
installability check of the manifest, and the JavaScript text normaliser against Python's.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from judgekb.corpus.normalize import normalize_text
from tests.service.browsing import (
    ARGS,
    BROWSER,
    CHROMIUM,
    PHONE,
    describe,
    serious_violations,
    watch_errors,
)

pytestmark = BROWSER

BUNDLE_KEYS = "caches.open('judgekb-bundle').then(c => c.keys()).then(k => k.map(r => new URL(r.url).pathname))"


def bundle_paths(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.evaluate(BUNDLE_KEYS)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def offline(browser, base_url) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """A phone that visited the home page once, online; then the network is cut."""
    context = browser.new_context(viewport=PHONE, base_url=base_url)
    page = watch_errors(context.new_page())
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(
        "caches.open('judgekb-bundle').then(c => c.keys()).then(k => k.length > 0)", polling=100
    )
    page.wait_for_selector(".offline-copy.ready .offline-status")
    context.set_offline(True)
    yield page
    context.close()


def search(page, q: str, game: str = "") -> None:  # type: ignore[no-untyped-def]
    page.fill("input[name=q]", q)
    page.select_option("select[name=game]", game)
    page.press("input[name=q]", "Enter")
    page.wait_for_load_state()


def test_one_visit_stores_the_rules_and_says_so(offline) -> None:
    status = offline.locator(".offline-copy .offline-status").inner_text()
    assert status.startswith("Rules saved on this device for offline use: Edition ")
    assert offline.locator(".offline-get").is_hidden()
    assert [p for p in bundle_paths(offline) if p.startswith("/offline/bundle/")] == [
        offline.locator(".offline-copy").get_attribute("data-url")
    ]


def test_clause_page_and_reference_hop_offline(offline) -> None:
    offline.goto("/rules/summoner-master/602.1")
    offline.wait_for_selector("h1.cid")
    assert offline.locator("h1.cid").inner_text() == "§602.1"
    assert offline.locator("p.text").get_attribute("lang") == "th"
    note = offline.locator(".offline-note")
    assert note.inner_text().startswith("You are offline") and "Edition" not in note.inner_text()
    assert re.fullmatch(r"Edition [0-9a-f]{8}", note.get_attribute("title") or "")
    assert offline.locator(".citation").inner_text() == (
        "Summoner Master — Summoner Master Complete Rulebook (Update 2014-01, 2014-01-01) §602.1"
    )
    assert offline.locator("button.copy").is_visible()
    offline.locator("p.refs a.ref", has_text="602.1.4").click()
    offline.wait_for_url("**/rules/summoner-master/602.1.4")
    offline.wait_for_selector("h1.cid")
    assert offline.locator("h1.cid").inner_text() == "§602.1.4"
    assert offline.locator("p.raw").text_content().startswith("เมือ่ผูเ้ลน่")
    assert "Referred to by:" in offline.locator("p.refs").first.inner_text()
    assert offline.locator(".crumbs a").all_inner_texts() == [
        "Table of contents",
        "602 ชนิดของ Effect",
        "602.1 Trigger Effect คือ Effect ที่เริ่มทำงานเมื่อเงื่อนไขครบ ดู 602.1.4",
    ]


def test_a_misprints_intended_number_opens_its_clause_offline(offline) -> None:
    offline.goto("/rules/vanguard/13.2")
    offline.wait_for_selector("h1.cid")
    assert offline.locator("h1.cid").inner_text() == "§13.9.1"
    assert offline.locator(".note-alias").inner_text() == (
        "§13.2 is not printed in the book; it is the probable intended number of §13.9.1, "
        "shown here."
    )
    # the book's known problems, as the server's clause page lists them (the lint's misprint)
    (problem,) = offline.locator("ul.notes li.note").all_inner_texts()
    assert problem.startswith("Known problems in the book: ")
    assert "probably §13.2" in problem


def test_a_misprints_intended_number_searched_offline_says_so(offline) -> None:
    offline.goto("/")
    search(offline, "13.2")
    offline.wait_for_url(re.compile(r"/rules/vanguard/13\.2$"))
    assert "probable intended number of §13.9.1" in offline.locator(".note-alias").inner_text()


def phone_offline(browser, base_url):  # type: ignore[no-untyped-def]
    """A fresh phone context that visited the home page once, then lost the network."""
    context = browser.new_context(viewport=PHONE, base_url=base_url)
    page = watch_errors(context.new_page())
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_selector(".offline-copy.ready .offline-status")
    context.set_offline(True)
    return context, page


def test_a_clause_or_game_that_does_not_exist_is_not_called_missing_offline(
    browser, base_url
) -> None:
    context, page = phone_offline(browser, base_url)
    page.goto("/rules/vanguard/11.6.9")
    expect(page.locator("h1")).to_have_text("This clause number is not in the rulebook.")
    assert page.locator("p", has_text="Did you mean").locator("a").first.inner_text() == "§11"
    page.goto("/rules/chess/1")
    expect(page.locator("h1")).to_have_text("There is no such game. Choose one of these:")
    page.goto("/search?q=rule+602.1.9.9")
    expect(page.locator("section.status")).to_contain_text("No rulebook prints this clause")
    assert "§602.1" in page.locator("section.status").inner_text()
    page.goto("/rules/summoner-master/602.1.4?date=2010-01-01")
    expect(page.locator(".offline-note").first).to_contain_text(
        "a date or edition asked for is not applied offline"
    )
    assert page.errors == []
    context.close()


def test_the_network_back_brings_the_full_site_back(browser, base_url) -> None:
    context, page = phone_offline(browser, base_url)
    page.goto("/rules/vanguard/13.1")
    page.wait_for_selector(".offline-note")
    context.set_offline(False)
    expect(page.locator(".offline-note")).to_have_count(0, timeout=10_000)
    assert page.locator("h1.cid").inner_text() == "§13.1"
    # the language the page was in offline is the server's from then on
    assert page.url.endswith("/rules/vanguard/13.1?lang=en")
    assert {c["name"]: c["value"] for c in context.cookies()}.get("lang") == "en"
    context.close()


@pytest.mark.parametrize(
    ("q", "game", "path"),
    [
        ("602.1.4", "", "/rules/summoner-master/602.1.4"),
        ("๖๐๒.๑.๔", "", "/rules/summoner-master/602.1.4"),
        ("602-1-4", "", "/rules/summoner-master/602.1.4"),
        ("602–1–4", "", "/rules/summoner-master/602.1.4"),  # en dashes
        ("VG 11.6.1", "", "/rules/vanguard/11.6.1"),  # a game's name opens its clause
        ("Summoner Master 602.1.4", "", "/rules/summoner-master/602.1.4"),
        ("ข้อ 602.1.4.", "", "/rules/summoner-master/602.1.4"),
        ("rule 602.1.4", "summoner-master", "/rules/summoner-master/602.1.4"),
        ("§602.1.4", "", "/rules/summoner-master/602.1.4"),
        ("peraturan 13.1", "", "/rules/vanguard/13.1"),
        ("Bahagian 13", "", "/rules/vanguard/13"),
        ("fasal ๑๑.๖.๑", "vanguard", "/rules/vanguard/11.6.1"),
        ("610.1", "", "/rules/summoner-master/610.1?doc=sm-decree-2009"),
        ("(602.1.4)?", "", "/rules/summoner-master/602.1.4"),  # alone, with punctuation
    ],
)
def test_lookup_in_every_written_form_offline(offline, q: str, game: str, path: str) -> None:
    offline.goto("/")
    search(offline, q, game)
    offline.wait_for_url(re.compile(re.escape(path) + "$"))
    offline.wait_for_selector("h1.cid")
    label = offline.locator("h1.cid").inner_text()
    assert label.split(" ")[0] == "§" + path.split("/")[-1].split("?")[0]


@pytest.mark.parametrize(
    ("q", "why"),
    [
        ("Vanguard: when does a player lose", "the game the question names"),
        ("bilakah pemain kalah dalam permainan", "the rulebook in the question's language"),
    ],
)
def test_a_question_naming_or_in_the_language_of_one_game_searches_it_offline(
    offline, q: str, why: str
) -> None:
    offline.goto("/")
    search(offline, q)
    offline.wait_for_selector("li.hit a.cid")
    assert offline.locator("section.status .inferred").inner_text() == (
        f"Searched in {why}: Cardfight!! Vanguard"
    )
    games = {t.split(" · ")[0] for t in offline.locator("li.hit .cite").all_inner_texts()}
    assert games == {"Cardfight!! Vanguard"}, games


@pytest.mark.parametrize(
    ("q", "game", "first"),
    [
        ("เงื่อนไขครบ", "summoner-master", "602.1"),
        ("Semakan tindakan peraturan", "vanguard", "11.6.1"),
        ("when does a player lose", "vanguard", "13.1"),
        # a three-digit chapter's number inside a sentence is that clause, as on the server
        ("what does 602.2 say about this", "", "602.2"),
    ],
)
def test_keyword_search_offline(offline, q: str, game: str, first: str) -> None:
    offline.goto("/")
    search(offline, q, game)
    offline.wait_for_selector("li.hit a.cid")
    assert offline.locator("li.hit a.cid").first.inner_text() == "§" + first
    note = offline.locator(".offline-note").inner_text()
    assert "keyword search only. Search by meaning needs the network" in note
    assert offline.locator("h1.summary q").inner_text() == q
    assert offline.locator("input[name=q]").input_value() == q


def test_offline_pages_stay_in_one_page(offline) -> None:
    """Offline, links and searches redraw the shell: the bundle is parsed and the index built
    once; focus goes to the new heading; Back works."""
    offline.goto("/search?q=Semakan&game=vanguard")
    offline.wait_for_selector("li.hit")
    offline.evaluate("window.marker = 42")
    search(offline, "เงื่อนไขครบ", "summoner-master")
    offline.wait_for_selector("li.hit a.cid >> text=§602.1")
    offline.locator("li.hit a.cid").first.click()
    offline.wait_for_url("**/rules/summoner-master/602.1")
    assert offline.evaluate("document.activeElement.textContent") == "§602.1"
    offline.go_back()
    offline.wait_for_selector("h1.summary")
    assert offline.locator("h1.summary q").inner_text() == "เงื่อนไขครบ"
    assert offline.evaluate("window.marker") == 42
    recent = offline.evaluate("JSON.parse(localStorage.getItem('judgekb.recent'))")
    assert recent[0] == {"q": "เงื่อนไขครบ", "game": "summoner-master"}


def test_contents_home_and_language_offline(offline) -> None:
    offline.goto("/rules/vanguard")
    offline.wait_for_selector("h1")
    assert offline.locator("h1").inner_text() == "Cardfight!! Vanguard"
    assert offline.locator("ul.toc a").first.get_attribute("lang") == "ms"
    offline.goto("/?lang=th")
    offline.wait_for_selector(".intro h1")
    assert offline.locator("html").get_attribute("lang") == "th"
    assert offline.locator(".intro h1").inner_text() == "ค้นหากฎสำหรับกรรมการ"
    offline.goto("/rules/vanguard")  # the choice is remembered by the worker
    offline.wait_for_selector("h1")
    assert offline.locator("html").get_attribute("lang") == "th"
    offline.goto("/?lang=en")
    offline.wait_for_selector(".intro h1")
    assert offline.errors == []


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/search?q=Semakan&game=vanguard",
        "/rules/summoner-master/602.1.4",
        "/rules/vanguard",
        "/nope",
    ],
)
def test_offline_pages_pass_axe(offline, path: str) -> None:
    offline.goto(path)
    offline.wait_for_selector("#offline-view h1")
    bad = serious_violations(offline)
    assert bad == [], describe(bad)
    assert offline.locator("#offline-view h1").count() == 1


def test_explicit_download_shows_size_and_progress_and_replaces_an_old_copy(
    browser, base_url
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=base_url, service_workers="block")
    page = watch_errors(context.new_page())
    page.goto("/")
    box = page.locator(".offline-copy")
    box.wait_for()
    page.evaluate(
        "caches.open('judgekb-bundle').then(c => c.put('/offline/bundle/0ld.json', new Response('{}')))"
    )
    page.reload()
    button = page.locator(".offline-get")
    assert re.fullmatch(r"Download rules for offline \(download size \d+ kB\)", button.inner_text())
    assert page.locator(".offline-status").inner_text() == (
        "The rules changed since your offline copy: update it."
    )
    assert page.locator(".offline-progress").get_attribute("max") == box.get_attribute("data-raw")
    button.click()
    page.wait_for_selector(".offline-copy.ready")
    assert bundle_paths(page) == [box.get_attribute("data-url")]
    expect(page.locator("#live")).to_have_text(re.compile("^Rules saved on this device"))
    assert page.errors == []
    context.close()


def test_new_rules_replace_the_phones_old_copy(browser, base_url) -> None:
    """A phone holding the bundle of an older corpus: the worker stores the current one and
    drops the old one (kept until then: an old copy beats none)."""
    context = browser.new_context(viewport=PHONE, base_url=base_url)
    page = watch_errors(context.new_page())
    page.goto("/manifest.webmanifest")  # same origin, no script: no worker yet
    page.evaluate(
        "caches.open('judgekb-bundle').then(c => c.put('/offline/bundle/0ld.json', new Response('{}')))"
    )
    page.goto("/")
    current = page.locator(".offline-copy").get_attribute("data-url")
    deadline = time.monotonic() + 10
    while bundle_paths(page) != [current]:
        assert time.monotonic() < deadline, bundle_paths(page)
        time.sleep(0.1)
    assert page.errors == []
    context.close()


def test_chromium_finds_the_app_installable(browser, base_url, tmp_path) -> None:
    """Chromium's own "Add to home screen" check, in a normal (not incognito) profile."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM),
        args=ARGS,
        headless=True,
        viewport=PHONE,
        base_url=base_url,
    )
    page = watch_errors(context.new_page())
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    context.close()
    assert manifest["errors"] == []
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert errors == []
    assert page.errors == []


def test_no_script_means_no_script_controls(browser, base_url) -> None:
    context = browser.new_context(viewport=PHONE, base_url=base_url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/rules/summoner-master/602.1.4")
    for sel in ("button.copy", "button.star", "button.share"):
        assert page.locator(sel).count() >= 1
        assert all(b.is_hidden() for b in page.locator(sel).all())
    page.goto("/")
    assert page.locator(".offline-copy").is_hidden()
    assert page.locator(".recent-list").is_hidden()
    context.close()


SAMPLES = [
    "จํานวน",
    "น\u0e4d\u0e49\u0e32",
    "ก่่อน",
    "ข้อ ๖๐๒.๑.๔",
    "a\u200bb\ufeffc",
    "  Seal   เลเวล\n\n 5 ",
    "Cafe\u0301",
]


def test_offline_normaliser_matches_the_servers(offline) -> None:
    offline.goto("/rules/vanguard")
    offline.wait_for_selector("h1")
    got = offline.evaluate("s => s.map(x => JudgekbRules.normalize(x))", SAMPLES)
    assert got == [normalize_text(s) for s in SAMPLES]


LANG_SAMPLES = [
    "bilakah pemain kalah dalam permainan",
    "boleh tak aku guard guna unit grade 3",
    "when does a player lose",
    "what does rule 6.2 say",
    "Wake Up",
    "ผู้เล่นแพ้เมื่อไหร่",
    "😀😀",
    "kad dalam dek",
]


def test_offline_query_language_matches_the_servers(offline, store_path) -> None:
    from judgekb.corpus.store import ClauseStore
    from judgekb.index.language import LanguageGuesser
    from judgekb.index.query import parse_query

    offline.goto("/rules/vanguard")
    offline.wait_for_selector("h1")
    got = offline.evaluate(
        "s => judgekbOffline.ready.then(r => s.map(x => r.queryLang(x)))", LANG_SAMPLES
    )
    guesser = LanguageGuesser(ClauseStore(store_path).clauses())
    want = [guesser.query_lang(parse_query(s).text, parse_query(s).lang) for s in LANG_SAMPLES]
    assert got == want
