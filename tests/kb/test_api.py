"""The rulings API end to end on SQLite and PostgreSQL, through the real app and Searcher."""

from __future__ import annotations

import pytest

from tests.kb.conftest import body


def _submit(client, users, who="judge", **kw):
    return client.post("/api/rulings", json=body(**kw), headers=users.auth(who))


def test_submit_approve_then_search_and_clause(client, users) -> None:
    r = _submit(client, users)
    assert r.status_code == 201
    got = r.json()
    assert got["ok"] is True
    ruling = got["ruling"]
    assert (ruling["status"], ruling["created_by"], ruling["url"]) == (
        "pending",
        "judy",
        f"/rulings/{ruling['id']}",
    )
    assert ruling["cites"] == [
        {
            "doc": "sm-2014",
            "clause_id": "602.1.4",
            "cited_text": "เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect",
            "current_text": None,
            "url": "/rules/summoner-master/602.1.4",
        }
    ]
    rid = ruling["id"]
    # pending: not searched, not on the clause, not listed for the public
    assert client.get("/api/clauses/summoner-master/602.1.4").json()["rulings"] == []
    assert client.get("/api/rulings").json() == {"ok": True, "count": 0, "rulings": []}
    ok = client.post(f"/api/rulings/{rid}/approve", headers=users.auth("head"))
    assert (ok.status_code, ok.json()["ruling"]["status"]) == (200, "published")
    listed = client.get("/api/rulings", params={"game": "summoner-master", "clause": "602.1.4"})
    assert [x["id"] for x in listed.json()["rulings"]] == [rid]
    on_clause = client.get("/api/clauses/summoner-master/602.1.4").json()["rulings"]
    assert [(x["id"], x["source"]["kind"]) for x in on_clause] == [(rid, "head-judge")]
    found = client.get("/api/search", params={"q": "ร่าย Seal", "game": "summoner-master"}).json()
    kinds = [h["kind"] for h in found["results"]]
    assert "ruling" in kinds and kinds.index("ruling") == len(kinds) - 1
    hit = found["results"][-1]
    assert (hit["id"], hit["url"], hit["cites"]) == (
        rid,
        f"/rulings/{rid}",
        [{"doc": "sm-2014", "clause_id": "602.1.4"}],
    )


def test_rulings_never_displace_a_rule_hit(client, users, searcher) -> None:
    from judgekb.index.request import SearchRequest

    for i in range(7):
        rid = _submit(client, users, question=f"Trigger Effect Seal คำถาม {i}").json()["ruling"][
            "id"
        ]
        client.post(f"/api/rulings/{rid}/approve", headers=users.auth("admin"))
    for q, k in (("Trigger Effect", 3), ("ร่าย Seal", 10), ("602.1.4", 2)):
        rules = searcher.search(SearchRequest.of(q, k=k)).to_json()["results"]
        got = client.get("/api/search", params={"q": q, "k": k}).json()["results"]
        assert got[: len(rules)] == rules  # every rule hit, in its rank
        assert [h["kind"] for h in got[len(rules) :]] == ["ruling"] * 5


def test_permissions(client, users) -> None:
    rid = _submit(client, users).json()["ruling"]["id"]
    anon = client.post("/api/rulings", json=body())
    assert (anon.status_code, anon.json()["status"], anon.headers["www-authenticate"]) == (
        401,
        401,
        "Bearer",
    )
    bad = client.post("/api/rulings", json=body(), headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401
    assert (
        client.post("/api/rulings", json=body(), headers={"Authorization": "Basic x"}).status_code
        == 401
    )
    assert client.post(f"/api/rulings/{rid}/approve").status_code == 401
    for path, junk in (
        ("/api/rulings", {}),
        (f"/api/rulings/{rid}", {"x": 1}),
        (f"/api/rulings/{rid}/reject", {"reason": 5}),
    ):
        method = client.put if path == f"/api/rulings/{rid}" else client.post
        assert method(path, json=junk).status_code == 401, path  # 401 before the body is read
    assert (
        client.post(f"/api/rulings/{rid}/reject", json={}, headers=users.auth("judge")).status_code
        == 403
    )
    judge = client.post(f"/api/rulings/{rid}/approve", headers=users.auth("judge"))
    assert judge.status_code == 403
    assert judge.json() == {
        "ok": False,
        "error": "judy is a judge; only a head judge or an admin may do this",
        "status": 403,
    }
    assert client.get("/api/rulings", params={"status": "pending"}).status_code == 401
    assert (
        client.get(
            "/api/rulings", params={"status": "pending"}, headers=users.auth("judge")
        ).status_code
        == 403
    )
    pend = client.get("/api/rulings", params={"status": "pending"}, headers=users.auth("head"))
    assert [x["id"] for x in pend.json()["rulings"]] == [rid]
    assert client.get(f"/api/rulings/{rid}").status_code == 404  # pending: not for the public
    mine = client.get(f"/api/rulings/{rid}", headers=users.auth("judge")).json()
    assert "revisions" not in mine
    full = client.get(f"/api/rulings/{rid}", headers=users.auth("head")).json()
    assert [v["action"] for v in full["revisions"]] == ["submit"]
    assert client.get("/api/audit", headers=users.auth("head")).status_code == 403
    audit = client.get("/api/audit", headers=users.auth("admin")).json()["entries"]
    assert audit[0]["action"] == "ruling.submit" and audit[0]["actor"] == "judy"


def test_revoked_token_is_refused(client, users, app) -> None:
    from judgekb.kb.model import CLI_ACTOR

    assert _submit(client, users).status_code == 201
    assert app.state.kb.accounts.revoke_tokens("judy", CLI_ACTOR) == 1
    assert _submit(client, users).status_code == 401


def test_unknown_clauses_422_names_them(client, users) -> None:
    r = _submit(client, users, cites=["602.1.4", "999.1", "602.99"])
    assert r.status_code == 422
    assert r.json() == {
        "ok": False,
        "error": "unknown clause ids in summoner-master: 999.1, 602.99; cite clauses as "
        "printed, e.g. /rules/summoner-master lists them",
        "status": 422,
        "field": "cites",
    }


def test_reject_needs_reason_and_lifecycle_conflicts(client, users) -> None:
    rid = _submit(client, users).json()["ruling"]["id"]
    r = client.post(f"/api/rulings/{rid}/reject", json={}, headers=users.auth("head"))
    assert (r.status_code, r.json()["field"]) == (422, "reason")
    r = client.post(
        f"/api/rulings/{rid}/reject", json={"reason": "no source"}, headers=users.auth("head")
    )
    assert (r.json()["ruling"]["status"], r.json()["ruling"]["reason"]) == ("rejected", "no source")
    again = client.post(f"/api/rulings/{rid}/approve", headers=users.auth("head"))
    assert (again.status_code, again.json()["status"]) == (409, 409)
    assert "cannot be approved" in again.json()["error"]
    # a rejected ruling stays private: retracting it would list it publicly
    r = client.post(f"/api/rulings/{rid}/retract", json={"reason": "x"}, headers=users.auth("head"))
    assert r.status_code == 409 and "cannot be retracted" in r.json()["error"]
    assert client.get(f"/api/rulings/{rid}").status_code == 404  # anonymous


def test_approving_a_published_ruling_that_is_not_flagged_is_a_conflict(client, users) -> None:
    rid = _submit(client, users).json()["ruling"]["id"]
    assert client.post(f"/api/rulings/{rid}/approve", headers=users.auth("head")).is_success
    r = client.post(f"/api/rulings/{rid}/approve", headers=users.auth("head"))
    assert r.status_code == 409 and "nothing to confirm" in r.json()["error"]
    history = client.get(f"/api/rulings/{rid}", headers=users.auth("head")).json()
    assert [v["action"] for v in history["revisions"]] == ["submit", "approve"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"question": "x" * 2001}, "question"),
        ({"answer": "x" * 8001}, "answer"),
        ({"cites": []}, "cites"),
        ({"cites": ["1"] * 21}, "cites"),
        ({"lang": "fr"}, "lang"),
        ({"source": {"kind": "oracle"}}, "kind"),
        ({"source": {"kind": "judge", "url": "u" * 501}}, "url"),
        ({"extra": 1}, "extra"),
    ],
)
def test_field_limits(client, users, change, field) -> None:
    r = _submit(client, users, **change)
    assert (r.status_code, r.json()["ok"], r.json()["field"]) == (422, False, field)


def test_body_size_limit(client, users) -> None:
    big = b'{"game": "' + b"x" * 140_000 + b'"}'
    r = client.post(
        "/api/rulings",
        content=big,
        headers={**users.auth("judge"), "content-type": "application/json"},
    )
    assert (r.status_code, r.json()["status"]) == (413, 413)


ROUTES = [
    ("post", "/api/rulings"),
    ("put", "/api/rulings/1"),
    ("post", "/api/rulings/1/approve"),
    ("post", "/api/rulings/1/reject"),
    ("post", "/api/rulings/1/retract"),
    ("get", "/api/rulings?status=pending"),
    ("get", "/api/rulings/1"),
    ("get", "/api/rulings/abc"),
    ("get", "/api/audit"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_error_shape_on_every_route(client, method, path) -> None:
    r = getattr(client, method)(path, **({"json": body()} if method in ("post", "put") else {}))
    assert r.status_code >= 400
    got = r.json()
    assert (got["ok"], got["status"]) == (False, r.status_code)
    assert isinstance(got["error"], str) and got["error"]


def test_openapi_covers_the_rulings_api(client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths["/api/rulings"]) == {"get", "post"}
    assert "201" in paths["/api/rulings"]["post"]["responses"]
    assert {"401", "403", "422"} <= set(
        paths["/api/rulings/{ruling_id}/approve"]["post"]["responses"]
    )
    assert set(paths["/api/rulings/{ruling_id}"]) == {"get", "put"}


def test_another_replica_sees_new_rulings(app, kb_settings, searcher, users) -> None:
    """Two apps on one database (replicas): a ruling approved on one is searched on the other."""
    from fastapi.testclient import TestClient

    from judgekb.service.app import create_app

    other = create_app(kb_settings, searcher=searcher)
    a, b = TestClient(app), TestClient(other)
    assert [
        h
        for h in b.get("/api/search", params={"q": "ร่าย Seal"}).json()["results"]
        if h["kind"] == "ruling"
    ] == []
    rid = a.post("/api/rulings", json=body(), headers=users.auth("judge")).json()["ruling"]["id"]
    a.post(f"/api/rulings/{rid}/approve", headers=users.auth("head"))
    hits = b.get("/api/search", params={"q": "ร่าย Seal"}).json()["results"]
    assert [h["id"] for h in hits if h["kind"] == "ruling"] == [rid]
    other.state.kb.db.dispose()


def test_a_body_that_is_not_json_says_so(client, users) -> None:
    r = client.post(
        "/api/rulings",
        content=b'{"game": oops}',
        headers={**users.auth("judge"), "content-type": "application/json"},
    )
    assert (r.status_code, r.json()["field"]) == (422, "body")
    assert r.json()["error"].startswith("request body is not valid JSON")
