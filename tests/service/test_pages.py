"""HTML pages: home, search, lookup redirect, permalinks, contents, docs, language, headers."""

from __future__ import annotations

import re

import pytest

from judgekb.service.security import CSP
from tests.service.conftest import without_typed_query


def text_of(html: str, cls: str) -> list[str]:
    return re.findall(rf'<p class="{cls}">(.*?)</p>', html, re.S)


def test_home_has_search_game_filter_and_contents(client) -> None:
    html = client.get("/").text
    assert '<form class="search" action="/search" method="get" role="search">' in html
    assert 'data-remember="game" data-restore' in html
    assert '<a href="/rules/summoner-master">Summoner Master</a>' in html
    assert '<a href="/rules/vanguard">Cardfight!! Vanguard</a>' in html
    assert '<script src="/static/app.js" defer></script>' in html


def test_a_shared_home_address_with_a_question_is_that_search(client) -> None:
    r = client.get("/?q=Trigger+Effect&game=summoner-master&lang=th")
    assert r.status_code == 303
    assert r.headers["location"] == "/search?q=Trigger+Effect&game=summoner-master&lang=th"
    assert client.get("/?q=+&lang=th").status_code == 200  # nothing asked: the home page


def test_search_page_leads_with_the_answer_card(client) -> None:
    """The top hit as a card: where it stands (parents with their text), one citation, the
    text with references and terms linked in place, what it cites (with its text), the rest
    of its list, the edition-pinned permalink and the two copy actions."""
    params = {"q": "Trigger Effect ดู", "game": "summoner-master"}
    html = client.get("/search", params=params).text
    card = html[html.index('<section class="card') : html.index('<h2 class="others">')]
    assert '<h2 id="card-head" class="best">Best match' in card
    assert (
        '<summary><span class="rel">Under</span> <span class="cid">§602</span> '
        '<span class="line" lang="th">ชนิดของ Effect</span></summary>'
    ) in card
    assert (
        '<p class="cite">Summoner Master · Summoner Master Complete Rulebook · Update 2014-01 · '
        '2014-01-01 · <a class="cid" href="/rules/summoner-master/602.1?edition=Update+2014-01">'
        '§<span class="nobr">602.1</span></a></p>'
    ) in card
    assert (
        '<p class="text answer-text" lang="th">Trigger Effect คือ Effect ที่เริ่มทำงานเมื่อเงื่อนไขครบ ดู '
        '<a class="term ref" href="/rules/summoner-master/602.1.4" data-title="602.1.4" '
        'data-preview="เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect">602.1.4</a></p>'
    ) in card
    assert "<h3>What it cites</h3>" in card
    assert '<p class="text" lang="th">เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect</p>' in card
    assert '<span class="rel">Same list</span> <span class="cid">§602.2</span>' in card
    assert card.count('<p class="citation">') == 1  # one citation, not one per hit
    assert (
        '<span class="visually-label">Citation:</span> Summoner Master — Summoner Master '
        'Complete Rulebook (Update <span class="nobr">2014-01</span>, <span class="nobr">'
        '2014-01-01</span>) §<span class="nobr">602.1</span></p>'
    ) in card  # numbers and dates never broken at a hyphen on a phone
    assert 'data-url="/rules/summoner-master/602.1?edition=Update+2014-01"' in card
    assert ">Copy citation</button>" in card and ">Copy citation and text</button>" in card
    # then the others with one line each, none of them on the card (602, 602.2 are on it)
    others = html[html.index('<h2 class="others">') :]
    assert '<a class="cid" href="/rules/summoner-master/602.1?doc=sm-decree-2009">' in others
    assert "/rules/summoner-master/602.2" not in others


def test_a_low_card_shows_the_top_three_side_by_side(client) -> None:
    """ "Possible matches": the best hit and the next two side by side, each with its own
    citation, none of them a clause the card already shows (602's sub-clauses are on it)."""
    html = client.get("/search", params={"q": "Effect", "game": "summoner-master"}).text
    card = html[html.index('<section class="card') : html.index('<h2 class="others">')]
    assert '<h2 id="card-head" class="low-match">Possible matches' in card
    assert card.count('<p class="citation">') == 3  # the answer's, and one per side candidate
    assert '<a class="cid" href="/rules/summoner-master/602?edition=Update+2014-01">' in card
    assert '<a class="cid" href="/rules/summoner-master/602.1?doc=sm-decree-2009">' in card
    assert '<a class="cid" href="/rules/summoner-master/602.1.4">' in card
    assert '<span class="rel">Sub-clause</span> <span class="cid">§602.1</span>' in card
    others = html[html.index('<h2 class="others">') :]
    assert "/rules/summoner-master/602.1.4" not in others


def test_a_heading_shows_its_sub_clauses_and_an_amendment_its_later_wording(client) -> None:
    html = client.get("/search", params={"q": "Semakan", "game": "vanguard"}).text
    assert (
        "· Malay edition · date not printed · "
        '<a class="cid" href="/rules/vanguard/11?edition=Malay+edition">§11 Semakan</a></p>'
    ) in html
    assert ('<summary><span class="rel">Sub-clause</span> <span class="cid">§11.6.1</span>') in html
    body = client.get("/api/answer", params={"q": "610.1", "game": "summoner-master"}).json()
    assert body["answer"]["doc"] == "sm-decree-2009"
    assert body["answer"]["versions"] == [
        {
            "doc": "sm-2014",
            "clause_id": "602.1.4",
            "date": "2014-01-01",
            "relation": "superseded_by",
            "probable": False,
            "text": "เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect",
        }
    ]


def test_search_no_results(client) -> None:
    html = client.get("/search", params={"q": "zzzz"}).text
    assert '<h2 id="card-head" class="no-match">No clear match.</h2>' in html
    assert 'class="best"' not in html and "answer-text" not in html


@pytest.mark.parametrize(
    ("q", "location"),
    [
        ("602.1.4", "/rules/summoner-master/602.1.4"),
        ("ข้อ 602.1.4.", "/rules/summoner-master/602.1.4"),
        ("610.1", "/rules/summoner-master/610.1?doc=sm-decree-2009"),
        ("fasal 13.1", "/rules/vanguard/13.1"),
    ],
)
def test_clause_number_redirects_to_permalink(client, q: str, location: str) -> None:
    r = client.get("/search", params={"q": q})
    assert r.status_code == 303
    assert without_typed_query(r.headers["location"]) == (location, q)


def test_the_jump_to_a_clause_keeps_language_date_and_edition(client) -> None:
    r = client.get("/search", params={"q": "602.1.4", "lang": "th", "date": "2015-01-01"})
    assert without_typed_query(r.headers["location"]) == (
        "/rules/summoner-master/602.1.4?lang=th&date=2015-01-01",
        "602.1.4",
    )
    # a clause page restores the judge's remembered game; a results page shows its own filter
    assert 'data-remember="game" data-restore' in client.get(r.headers["location"]).text
    assert "data-restore" not in client.get("/search", params={"q": "ผู้เล่น"}).text


def test_an_error_page_says_what_is_wrong_in_the_pages_language_and_keeps_the_query(client):
    html = client.get("/search", params={"q": "ร่าย", "k": "abc", "lang": "th"}).text
    assert "ค่าบางอย่างในที่อยู่หน้าเว็บไม่ถูกต้อง (<code>k</code>)" in html
    assert 'name="q" value="ร่าย"' in html
    html = client.get("/search", params={"q": "ร่าย" * 600, "lang": "ms"}).text
    assert "Carian ini terlalu panjang (had 1000 aksara)." in html
    assert f'name="q" value="{"ร่าย" * 250}"' in html  # cut at the limit


def test_permalink_page(client) -> None:
    html = client.get("/rules/summoner-master/602.1.4").text
    assert '<h1 class="cid">§<span class="nobr">602.1.4</span></h1>' in html
    assert (
        '<a href="/rules/summoner-master">Table of contents</a>\n › <a '
        'href="/rules/summoner-master/602" lang="th">602 ชนิดของ Effect</a> › <a '
        'href="/rules/summoner-master/602.1" lang="th">602.1 Trigger Effect'
    ) in html
    assert (
        'Earlier wording: <a class="ref" href="/rules/summoner-master/610.1?doc=sm-decree-2009"'
        in html
    )
    assert '<span class="date">· 2009-07-25</span>' in html
    assert '<span class="refs-label">Referred to by:</span>' in html
    assert '<p class="text" lang="th">' in html
    assert '<p class="raw" lang="th">เมือ่ผูเ้ลน่ร่าย' in html


def test_permalink_children_and_siblings(client) -> None:
    html = client.get("/rules/summoner-master/602.2").text
    assert '<a rel="prev" href="/rules/summoner-master/602.1">← 602.1 Trigger Effect' in html
    assert '<a rel="next" href="/rules/summoner-master/602.3">602.3 &#34;&gt;&lt;img' in html
    html = client.get("/rules/summoner-master/602").text
    assert '<li><a href="/rules/summoner-master/602.1">602.1 Trigger Effect' in html


def test_permalink_per_document_and_glossary(client) -> None:
    html = client.get("/rules/summoner-master/602.1", params={"doc": "sm-decree-2009"}).text
    assert "Appendant Decree 20/07/2009 (SMORT) · 20/07/2009 · effective 2009-07-25" in html
    assert 'Same number in: <a href="/rules/summoner-master/602.1">' in html
    html = client.get("/rules/summoner-master/glossary/cast").text
    assert '<h1 class="cid">§Cast / ร่าย</h1>' in html
    assert client.get("/rules/summoner-master/602.1.4.").status_code == 200


def test_table_of_contents(client) -> None:
    html = client.get("/rules/summoner-master").text
    assert html.count('<section class="doc">') == 2
    assert (
        '<li><a href="/rules/summoner-master/602" lang="th">602 ชนิดของ Effect</a>\n'
        "    <details><summary>Sub-clauses (3)"
    ) in html
    assert '<li><a href="/rules/summoner-master/610.1?doc=sm-decree-2009" lang="th">610.1 ' in html
    assert client.get("/rules/summoner-master/").headers["location"] == "/rules/summoner-master"


def test_offline_api_docs(client) -> None:
    html = client.get("/docs").text
    assert '<a href="/openapi.json">/openapi.json</a>' in html
    for path in (
        "/api/search",
        "/api/clauses/{game}/{clause_id}",
        "/api/games",
        "/api/documents",
        "/healthz",
    ):
        assert f"<code>GET {path}</code>" in html
    assert "cdn" not in html.lower()
    assert set(client.get("/openapi.json").json()["paths"]) == {
        "/api/search",
        "/api/answer",
        "/api/clauses/{game}/{clause_id}",
        "/api/games",
        "/api/documents",
        "/api/diff/{family}",
        "/api/editions",
        "/healthz",
        "/api/rulings",
        "/api/rulings/{ruling_id}",
        "/api/rulings/{ruling_id}/approve",
        "/api/rulings/{ruling_id}/reject",
        "/api/rulings/{ruling_id}/retract",
        "/api/audit",
    }


def test_ui_language_from_parameter_then_cookie(client) -> None:
    r = client.get("/", params={"lang": "th"})
    assert '<html lang="th">' in r.text and "ค้นหากฎสำหรับกรรมการ" in r.text
    assert r.cookies.get("lang") == "th"
    assert '<html lang="th">' in client.get("/rules/vanguard").text
    html = client.get("/rules/vanguard", params={"lang": "ms"}).text
    assert "Isi kandungan" in html


def test_unknown_language_is_ignored(app) -> None:
    from fastapi.testclient import TestClient

    r = TestClient(app).get("/", params={"lang": "de"})
    assert '<html lang="en">' in r.text and "lang" not in r.cookies


@pytest.mark.parametrize(
    ("url", "status", "snippet"),
    [
        ("/search?q=", 400, "query is empty"),
        ("/search?q=" + "a" * 1001, 413, "the limit is 1000"),
        ("/search?q=x&k=0", 422, "invalid parameter &#39;k&#39;"),
        ("/search?q=x&game=chess", 404, '<a href="/rules/vanguard">vanguard</a>'),
        ("/rules/chess", 404, "unknown game"),
        (
            "/rules/summoner-master/602.9",
            404,
            'Did you mean: <a href="/rules/summoner-master/602">602</a>',
        ),
        (
            "/rules/summoner-master/602.1?doc=vg-cr",
            404,
            '<a href="/rules/summoner-master/602.1?doc=sm-decree-2009">sm-decree-2009</a>',
        ),
        ("/nope", 404, "no such page"),
    ],
)
def test_html_error_pages(client, url: str, status: int, snippet: str) -> None:
    r = client.get(url)
    assert r.status_code == status
    assert r.headers["content-type"].startswith("text/html")
    assert f"<h1>Error {status}</h1>" in r.text
    assert snippet in r.text


@pytest.mark.parametrize(
    "url", ["/", "/search?q=Effect", "/rules/vanguard", "/api/games", "/nope", "/static/app.css"]
)
def test_security_headers(client, url: str) -> None:
    h = client.get(url).headers
    assert h["content-security-policy"] == CSP
    assert "unsafe-inline" not in CSP
    assert h["x-content-type-options"] == "nosniff"


def test_pages_have_no_inline_script_or_remote_assets(client) -> None:
    for url in (
        "/",
        "/search?q=Effect",
        "/rules/summoner-master/602.1.4",
        "/rules/vanguard",
        "/docs",
    ):
        html = client.get(url).text
        assert re.findall(r"<script[^>]*>", html) == ['<script src="/static/app.js" defer>']
        assert " style=" not in html and "<style" not in html
        assert not re.search(r'(src|href)="(https?:)?//', html)


def test_static_assets_are_small_and_local(client) -> None:
    css = client.get("/static/app.css")
    js = client.get("/static/app.js")
    assert (css.status_code, js.status_code) == (200, 200)
    assert "Noto Sans Thai" in css.text and "Leelawadee UI" in css.text
    assert "http" not in css.text and "@import" not in css.text
    # Issue 15 added the accessible header, focus, print and dark-mode rules and the service
    # worker; saving, sharing and the offline copy are in device.js, loaded only where used.
    # Issues 13 and 14 added the redline, history and rulings rules (about 1.9 kB), issue 12
    # the answer card's (1.6 kB; 0.5 kB gzip).
    assert len(css.content) + len(js.content) < 19_500


def page_weight(client, url: str) -> int:
    """Bytes of HTML + CSS + JS a first visit downloads (uncompressed)."""
    html = client.get(url).content
    return len(html) + sum(
        len(client.get(u).content) for u in ("/static/app.css", "/static/app.js")
    )


def test_page_weight_budget(client) -> None:
    assert page_weight(client, "/") < 23_000  # 21 kB before issues 12-14 added their styles
    assert page_weight(client, "/search?q=Trigger+Effect") < 44_000


def test_responses_are_gzipped_when_asked(client) -> None:
    r = client.get("/static/app.css", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"


def test_a_bad_date_on_a_clause_page_is_not_told_to_type_a_question(client) -> None:
    r = client.get("/rules/summoner-master/602.1.4", params={"date": "2026-13-01"})
    assert r.status_code == 400
    main = r.text[r.text.index("</header>") :]  # the search box's own hint is in the header
    assert "A value in the address is not valid." in main and "Type a question" not in main
    r = client.get("/search", params={"q": " "})
    assert "Type a question or a clause number." in r.text[r.text.index("</header>") :]


def test_a_day_before_every_edition_is_said_not_ignored(client) -> None:
    html = client.get(
        "/rules/summoner-master/602.1.4", params={"date": "1999-01-01", "lang": "ms"}
    ).text
    banner = html[html.index('class="edition-banner"') :].split("</section>")[0]
    assert "Tiada edisi dalam judgekb yang berkuat kuasa pada 1999-01-01. Ini " in banner
    assert ", berkuat kuasa mulai 20" in banner
    assert 'class="edition-banner"' not in client.get("/rules/summoner-master/602.1.4").text


def test_a_long_pasted_question_is_shortened_in_the_heading_not_in_the_box(client) -> None:
    q = "ร่าย Seal " * 90  # 900 characters, as pasted from a chat
    html = client.get("/search", params={"q": q}).text
    heading = html[html.index('<h1 class="summary">') : html.index("</h1>")]
    shown = heading[heading.index("<q") : heading.index("</q>")]
    assert shown.endswith("…") and len(shown) < 140 + 900 // 2
    assert f'value="{q.strip()}"' in html or f'value="{q}"' in html  # the box keeps it all
