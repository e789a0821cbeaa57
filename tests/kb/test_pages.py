"""The rulings web pages: login with CSRF, submit form, review queue, permalinks, clause and
search pages, cookies, throttling, and XSS probes in every field on every page."""

from __future__ import annotations

import re
from html import unescape

import pytest

from judgekb.kb.model import CLI_ACTOR
from tests.kb.conftest import PASSWORD, body, draft
from tests.service.test_xss import JS_URL, TagAudit

FORM_TAGS = {"textarea", "label", "section"}


class PageAudit(TagAudit):
    """tests/service/test_xss.py's audit, plus the form tags of the rulings pages."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        super().handle_starttag("p" if tag in FORM_TAGS else tag, attrs)


def assert_safe(text: str, probe: str) -> None:
    assert probe not in text
    audit = PageAudit()
    audit.feed(text)
    assert audit.bad == []
    assert not JS_URL.search(text)


CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def login(client, name: str, password: str = PASSWORD):
    page = client.get("/login")
    token = CSRF.search(page.text).group(1)
    return client.post(
        "/login", data={"csrf": token, "name": name, "password": password, "next": "/review"}
    )


def csrf_of(client, path: str = "/rulings/new") -> str:
    return CSRF.search(client.get(path).text).group(1)


def ruling_form(**kw: str) -> dict[str, str]:
    """The submit form's fields for a small Summoner Master ruling, ``kw`` replacing some."""
    form = {
        "game": "summoner-master",
        "question": "q",
        "answer": "a",
        "cites": "602.1.4",
        "lang": "th",
        "source_kind": "judge",
    }
    return {**form, **kw}


def test_login_sets_a_safe_session_cookie(client, users) -> None:
    r = login(client, "hugo")
    assert (r.status_code, r.headers["location"]) == (303, "/review")
    cookie = next(c for c in r.headers.get_list("set-cookie") if c.startswith("jkb_session="))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "hugo" in client.get("/review").text
    token = csrf_of(client, "/review")
    out = client.post("/logout", data={"csrf": token})
    assert out.status_code == 303
    assert client.get("/review").headers["location"] == "/login?next=/review"


def test_login_needs_its_csrf_token_and_a_local_next(client, users) -> None:
    client.get("/login")
    r = client.post("/login", data={"csrf": "forged", "name": "hugo", "password": PASSWORD})
    assert r.status_code == 403
    token = CSRF.search(client.get("/login").text).group(1)
    r = client.post(
        "/login",
        data={"csrf": token, "name": "hugo", "password": PASSWORD, "next": "//evil.example/"},
    )
    assert r.headers["location"] == "/"


def test_wrong_password_then_throttled_per_account_and_address(client, app, users) -> None:
    for _ in range(5):
        assert login(client, "hugo", "wrong password!").status_code == 401
    r = login(client, "hugo")  # the right password, but the account is throttled
    assert (r.status_code, r.headers["retry-after"]) == (429, "900")
    for i in range(15):  # other names from the same address: 20 failures in all
        assert login(client, f"nobody{i}", "wrong password!").status_code == 401
    assert login(client, "ada").status_code == 429  # the address is throttled now
    actions = [e["action"] for e in app.state.kb.rulings.audit_entries(200)]
    assert actions.count("login.fail") == 20


def test_forms_need_a_session_and_a_valid_csrf_token(client, users) -> None:
    form = ruling_form()
    assert client.post("/rulings/new", data={**form, "csrf": "x"}).status_code == 401
    assert client.post("/rulings/1/review", data={"action": "approve"}).status_code == 401
    login(client, "judy")
    assert client.post("/rulings/new", data=form).status_code == 403
    assert client.post("/rulings/new", data={**form, "csrf": "forged"}).status_code == 403
    ok = client.post("/rulings/new", data={**form, "csrf": csrf_of(client)})
    assert ok.status_code == 303
    rid = int(ok.headers["location"].rsplit("/", 1)[1])
    page = client.get(f"/rulings/{rid}")
    token = CSRF.search(page.text).group(1)
    judge = client.post(f"/rulings/{rid}/review", data={"action": "approve", "csrf": token})
    assert judge.status_code == 403


def test_submit_review_publish_then_clause_and_search_pages(client, users) -> None:
    login(client, "judy")
    form = {
        "csrf": csrf_of(client),
        "game": "summoner-master",
        "question": "ร่าย Seal สองใบได้ไหม",
        "answer": "ไม่ได้ ร่ายได้ครั้งละหนึ่งใบ",
        "cites": "602.1.4, 602.1",
        "lang": "th",
        "source_kind": "head-judge",
        "event": "Bangkok Open",
        "date": "2026-04-05",
    }
    bad = client.post("/rulings/new", data={**form, "cites": "602.1.4 777.7"})
    assert bad.status_code == 422 and "777.7" in bad.text and "ร่าย Seal สองใบได้ไหม" in bad.text
    rid = int(client.post("/rulings/new", data=form).headers["location"].rsplit("/", 1)[1])
    client.cookies.clear()
    assert client.get(f"/rulings/{rid}").status_code == 404  # pending: not public
    login(client, "hugo")
    queue = client.get("/review").text
    assert f'href="/rulings/{rid}"' in queue
    page = client.get(f"/rulings/{rid}").text
    assert "submitted by judy" in page  # the history
    token = CSRF.search(page).group(1)
    r = client.post(f"/rulings/{rid}/review", data={"action": "approve", "csrf": token})
    assert r.headers["location"] == f"/rulings/{rid}"
    client.cookies.clear()
    public = client.get(f"/rulings/{rid}").text
    assert "ไม่ได้ ร่ายได้ครั้งละหนึ่งใบ" in public and "Head judge" in public and "Bangkok Open" in public
    assert "history" not in public.lower().split("<footer")[0].split("</article>")[1]
    clause = client.get("/rules/summoner-master/602.1.4").text
    assert "Rulings on this clause" in clause and f'href="/rulings/{rid}"' in clause
    assert clause.index("§602.1.4") < clause.index("Rulings on this clause")
    results = client.get("/search", params={"q": "ร่าย Seal"}).text
    assert f'href="/rulings/{rid}"' in results
    assert results.index('class="hit') < results.index('class="rulings"')
    assert "Head judge" in client.get("/rulings").text


def test_stale_ruling_shows_old_and_new_wording(client, users, app) -> None:
    from judgekb.kb.model import Citation
    from judgekb.kb.repo import RulingRepo

    kb = app.state.kb
    r = kb.rulings.submit(__import__("tests.kb.conftest", fromlist=["draft"]).draft(), CLI_ACTOR)
    kb.rulings.review(r.id, "approve", CLI_ACTOR)

    class Changed:
        def resolve(self, game, ids):  # pragma: no cover - not used
            raise AssertionError

        def current_text(self, doc_id, clause_id):
            return "ถ้อยคำใหม่ของข้อ 602.1.4"

        def current(self, doc_id, clause_id):  # pragma: no cover - not used
            raise AssertionError

    assert RulingRepo(kb.db, Changed()).flag_stale(CLI_ACTOR) == [r.id]
    page = client.get(f"/rulings/{r.id}").text
    assert "Needs review" in page and "ถ้อยคำใหม่ของข้อ 602.1.4" in page
    assert "เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect" in page
    assert Citation  # the old wording is the recorded cited_text


PROBES = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "</textarea><svg/onload=alert(1)>",
    "ร่าย<script>alert('ไทย')</script>",
]


def test_xss_in_every_field_is_escaped_on_every_page(client, users) -> None:
    login(client, "hugo")
    for probe in PROBES:
        _probe_every_page(client, users, probe)


def _probe_every_page(client, users, probe: str) -> None:
    payload = body(
        question=f"Q {probe}",
        answer=f"A {probe}",
        source={"kind": "head-judge", "event": f"E {probe}", "date": "2026-01-02"},
    )
    rid = client.post("/api/rulings", json=payload, headers=users.auth("judge")).json()["ruling"][
        "id"
    ]
    rej = client.post("/api/rulings", json=payload, headers=users.auth("judge")).json()["ruling"][
        "id"
    ]
    client.post(
        f"/api/rulings/{rid}/approve", json={"reason": f"R {probe}"}, headers=users.auth("head")
    )
    client.post(
        f"/api/rulings/{rej}/reject", json={"reason": f"R {probe}"}, headers=users.auth("head")
    )
    bad_cites = client.post("/api/rulings", json=body(cites=[probe]), headers=users.auth("judge"))
    assert bad_cites.status_code == 422 and probe not in bad_cites.text
    pages = [
        f"/rulings/{rid}",
        f"/rulings/{rej}",
        "/rulings",
        "/rulings?status=rejected",
        "/rules/summoner-master/602.1.4",
        "/search?q=" + probe,
        "/search?q=602.1.4 Trigger",
        "/review",
        f"/rulings/new?game={probe}&cite={probe}",
        f"/login?next={probe}",
        f"/rulings?game={probe}&clause={probe}",
    ]
    for path in pages:
        r = client.get(path)
        assert r.status_code < 500, path
        assert_safe(r.text, probe)
    for path in (
        f"/api/rulings/{rid}",
        "/api/rulings",
        "/api/clauses/summoner-master/602.1.4",
        "/api/search?q=602.1.4 Trigger",
    ):
        r = client.get(path, headers=users.auth("head"))
        assert "<" not in r.text and ">" not in r.text, path
        assert f"Q {probe}" in str(r.json())
    shown = unescape(client.get(f"/rulings/{rid}").text)
    assert f"A {probe}" in shown  # escaped, not dropped


def test_a_post_from_another_site_does_not_sign_the_judge_out(client, users) -> None:
    login(client, "hugo")
    cookie = client.cookies.get("jkb_session")
    client.cookies.delete("jkb_session")  # a cross-site form post carries no SameSite cookie
    out = client.post("/logout", data={})
    assert out.status_code == 303
    assert not any(c.startswith("jkb_session=") for c in out.headers.get_list("set-cookie"))
    client.cookies.set("jkb_session", cookie)
    assert "hugo" in client.get("/review").text


def test_signing_in_returns_to_the_page_with_its_query(client, users) -> None:
    r = client.get("/rulings/new", params={"game": "vanguard", "cite": "13.1"})
    assert r.headers["location"] == "/login?next=/rulings/new%3Fgame%3Dvanguard%26cite%3D13.1"
    page = client.get(r.headers["location"])
    token = CSRF.search(page.text).group(1)
    nxt = unescape(re.search(r'name="next" value="([^"]+)"', page.text).group(1))
    r = client.post(
        "/login", data={"csrf": token, "name": "hugo", "password": PASSWORD, "next": nxt}
    )
    assert r.headers["location"] == "/rulings/new?game=vanguard&cite=13.1"


def test_the_longest_thai_ruling_the_limits_allow_is_accepted_from_the_form(client, users) -> None:
    login(client, "judy")
    # 2,000 + 8,000 Thai characters: 90 kB form-encoded
    form = ruling_form(question="ถ" * 2000, answer="ก" * 8000, csrf=csrf_of(client))
    assert client.post("/rulings/new", data=form).status_code == 303


def test_the_ruling_form_starts_in_the_pages_language(client, users) -> None:
    login(client, "judy")
    page = client.get("/rulings/new", params={"lang": "ms"}).text
    assert '<option value="ms" selected>Bahasa Melayu</option>' in page


@pytest.mark.parametrize("cites", ["§602.1.4", "ข้อ ๖๐๒.๑.๔", "602.1.4, 602.1", "602.1.4\n602.1"])
def test_the_cites_field_reads_numbers_as_search_does(client, users, cites) -> None:
    login(client, "judy")
    form = ruling_form(cites=cites, csrf=csrf_of(client))
    r = client.post("/rulings/new", data=form)
    assert r.status_code == 303, r.text[:300]


def test_a_judge_sees_their_own_rulings_waiting_and_the_footer_says_signed_in(
    client, users, app
) -> None:
    from judgekb.kb.model import Actor

    app.state.kb.rulings.submit(draft(question="hugo asks"), Actor("hugo", "head-judge"))
    assert 'href="/login"' in client.get("/").text.split("<footer")[1]
    login(client, "judy")
    form = ruling_form(question="judy asks", csrf=csrf_of(client))
    assert client.post("/rulings/new", data=form).status_code == 303
    mine = client.get("/review")
    assert mine.status_code == 200
    assert "judy asks" in mine.text and "hugo asks" not in mine.text
    assert 'href="/review"' in client.get("/").text.split("<footer")[1]


def test_a_rulings_history_and_role_read_in_thai(client, users) -> None:
    login(client, "hugo")
    form = ruling_form(csrf=csrf_of(client))
    url = client.post("/rulings/new", data=form).headers["location"]
    page = client.get(url, params={"lang": "th"}).text
    assert "ส่ง โดย hugo" in page and "submit by" not in page
    assert "(หัวหน้ากรรมการ)" in page and "(head-judge)" not in page
