"""No reflected or stored XSS: probes in every parameter of every route.

A probe with markup characters must never appear verbatim in a body (HTML escapes it, the
JSON encoder writes < > & as \\u003c …); ``javascript:`` must never become a link target.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import quote

import pytest

from tests.service.conftest import STORED_XSS_TEXT, STORED_XSS_TITLE

PROBES = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    "'';!--\"<XSS>=&{()}",
    "</textarea><svg/onload=alert(1)>",
    "ร่าย<script>alert('ไทย')</script>",
]

# Every route with every parameter, the probe put in with {p} (quoted for paths).
ROUTES = [
    "/?lang={p}",
    "/search?q={p}",
    "/search?q=Effect&game={p}",
    "/search?q=Effect&k={p}",
    "/search?q=Effect&lang={p}",
    "/search?q={p}&game=summoner-master&lang=th",
    "/rules/{p}",
    "/rules/summoner-master?lang={p}",
    "/rules/summoner-master/{p}",
    "/rules/summoner-master/602.1?doc={p}",
    "/rules/summoner-master/glossary/{p}",
    "/rules/{p}/602.1",
    "/docs?lang={p}",
    "/api/search?q={p}",
    "/api/search?q=x&game={p}",
    "/api/search?q=x&k={p}",
    "/api/search?q=x&mode={p}",
    "/api/search?q=x&doc={p}",
    "/api/search?q=x&kind={p}",
    "/api/search?q=x&lang={p}",
    "/api/clauses/{p}/1",
    "/api/clauses/summoner-master/{p}",
    "/api/clauses/summoner-master/602.1?doc={p}",
    "/api/games?x={p}",
    "/api/documents?x={p}",
    "/healthz?x={p}",
    "/{p}",
    "/api/{p}",
    "/search?q=Effect&date={p}",
    "/search?q=Effect&edition={p}",
    "/rules/summoner-master/602.1?edition={p}",
    "/rules/summoner-master/602.1?date={p}",
    "/api/search?q=x&date={p}",
    "/api/search?q=x&edition={p}",
    "/api/clauses/summoner-master/602.1?edition={p}",
    "/api/diff/{p}",
    "/api/diff/sm-2014?from={p}",
    "/api/editions?date={p}",
    "/changes?lang={p}",
    "/changes/{p}",
    "/changes/sm-2014?to={p}",
    "/api/answer?q={p}",
    "/api/answer?q=x&game={p}",
    "/api/answer?q=x&lang={p}",
    "/api/answer?q=x&edition={p}",
    "/api/answer?q=x&date={p}",
]

JS_URL = re.compile(r"""(href|src|action|formaction)\s*=\s*["']?\s*javascript:""", re.I)
SAFE_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "link",
    "script",
    "body",
    "header",
    "a",
    "nav",
    "form",
    "input",
    "select",
    "option",
    "button",
    "main",
    "section",
    "h1",
    "h2",
    "h3",
    "div",
    "p",
    "ul",
    "ol",
    "li",
    "small",
    "q",
    "span",
    "mark",
    "details",
    "summary",
    "article",
    "strong",
    "code",
    "footer",
    "br",
    "progress",
}


class TagAudit(HTMLParser):
    """Every tag and attribute a browser would build from the page."""

    def __init__(self) -> None:
        super().__init__()
        self.bad: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in SAFE_TAGS:
            self.bad.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.bad.append(f"<{tag} {name}>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.bad.append(f"<{tag} {name}={value}>")
        if tag == "script" and attrs != [("src", "/static/app.js"), ("defer", None)]:
            self.bad.append(f"<script {attrs}>")


def _url(route: str, probe: str) -> str:
    path, _, query = route.partition("?")
    path = path.replace("{p}", quote(probe, safe=""))
    return path + ("?" + query.replace("{p}", quote(probe, safe="")) if query else "")


def assert_safe(body: str, probe: str) -> None:
    if any(ch in probe for ch in "<>\"'&"):
        assert probe not in body
    audit = TagAudit()
    audit.feed(body)
    assert audit.bad == []
    assert not JS_URL.search(body)


@pytest.mark.parametrize("probe", PROBES)
@pytest.mark.parametrize("route", ROUTES)
def test_no_reflected_xss(client, route: str, probe: str) -> None:
    r = client.get(_url(route, probe))
    assert r.status_code < 500, r.text
    assert_safe(r.text, probe)
    assert probe not in r.headers.get("location", "")
    assert "<" not in r.headers.get("set-cookie", "")


def test_no_stored_xss_in_titles_and_text(client) -> None:
    for url in (
        "/rules/summoner-master/602.3",
        "/rules/summoner-master",
        "/search?q=ข้อความทดสอบ",
        "/rules/summoner-master/602.2",
        "/api/clauses/summoner-master/602.3",
        "/api/search?q=ข้อความทดสอบ",
        "/api/answer?q=ข้อความทดสอบ",
        "/api/answer?q=ข้อความทดสอบ&game=summoner-master",
    ):
        body = client.get(url).text
        assert STORED_XSS_TEXT not in body and STORED_XSS_TITLE not in body
        assert "<script>alert" not in body and "<img src=x" not in body
    html = client.get("/rules/summoner-master/602.3").text
    assert "&lt;script&gt;alert(&#39;stored&#39;)&lt;/script&gt; ข้อความทดสอบ" in html


def test_json_escapes_markup_characters(client) -> None:
    r = client.get("/api/search", params={"q": "x", "game": "<b>&"})
    assert r.text == (
        '{"ok":false,"error":"unknown game \'\\u003cb\\u003e\\u0026\'; known games: '
        'summoner-master, vanguard","status":404,'
        '"known":["summoner-master","vanguard"]}'
    )
    assert r.json()["error"].startswith("unknown game '<b>&'")


def test_the_audit_catches_an_unescaped_probe() -> None:
    audit = TagAudit()
    audit.feed('<p>"><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>')
    assert audit.bad == ["<img>", "<img onerror>", "<a href=javascript:alert(1)>"]
