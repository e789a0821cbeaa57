"""The JSON API: every route, and the one error shape on every route."""

from __future__ import annotations

import pytest

from judgekb.corpus.export import clause_detail
from judgekb.index.request import Scope, SearchRequest


def test_search_returns_search_result_json(client, searcher) -> None:
    r = client.get("/api/search", params={"q": "kalah", "game": "vanguard", "k": 5})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["query"] == "kalah"
    assert body["results"][0]["clause_id"] == "13.1"
    assert body == searcher.search(SearchRequest.of("kalah", game="vanguard", k=5)).to_json() | {
        "took_ms": body["took_ms"]
    }
    hit = body["results"][0]
    assert hit["refs_out"] == [{"doc": "vg-cr", "clause_id": "11.6.1", "written": "11.6.1"}]
    assert hit["citation"] == (
        "Cardfight!! Vanguard — Cardfight!! Vanguard Peraturan Komprehensif (Malay edition, date not printed) §13.1"
    )


def test_search_passes_parameters_to_the_searcher(client, searcher) -> None:
    client.get(
        "/api/search",
        params={
            "q": "Effect",
            "game": "summoner-master",
            "k": 3,
            "mode": "bm25",
            "doc": "sm-decree-2009",
            "lang": "th",
            "kind": "clause",
            "doc_kind": "amendment",
        },
    )
    assert searcher.calls[-1] == SearchRequest(
        "Effect",
        Scope(
            game="summoner-master",
            doc="sm-decree-2009",
            doc_kind="amendment",
            clause_kind="clause",
            lang="th",
        ),
        3,
        "bm25",
    )


def test_kind_means_the_clause_kind(client) -> None:
    body = client.get("/api/search", params={"q": "Effect", "kind": "section"}).json()
    assert [(h["clause_id"], h["kind"]) for h in body["results"]] == [("602", "section")]
    bad = client.get("/api/search", params={"q": "Effect", "kind": "rules"})
    assert bad.status_code == 422


def test_search_thai_lookup_hit(client) -> None:
    body = client.get("/api/search", params={"q": "ข้อ 602.1.4"}).json()
    assert (body["results"][0]["clause_id"], body["results"][0]["via"]) == ("602.1.4", "lookup")
    assert body["confidence"] == "high"
    assert all(h["via"] != "lookup" for h in body["results"][1:])


def test_clause_detail_json(client, app) -> None:
    r = client.get("/api/clauses/summoner-master/602.1.4")
    assert r.status_code == 200
    body = r.json()
    assert body == {
        **clause_detail(app.state.site.store, "summoner-master", "602.1.4"),
        "rulings": [],
    }
    assert body["parents"][-1]["clause_id"] == "602.1"
    assert body["refs_in"] == [
        {
            "doc": "sm-2014",
            "clause_id": "602.1",
            "written": "602.1.4",
            "resolved": True,
            "reason": "",
        }
    ]
    assert [(a["amend_doc"], a["amend_id"], a["amend_date"]) for a in body["amendments"]] == [
        ("sm-decree-2009", "610.1", "2009-07-25")
    ]


def test_clause_detail_per_document_and_glossary(client) -> None:
    r = client.get("/api/clauses/summoner-master/602.1", params={"doc": "sm-decree-2009"})
    assert (r.json()["doc"], r.json()["other_docs"]) == ("sm-decree-2009", ["sm-2014"])
    g = client.get("/api/clauses/summoner-master/glossary/cast").json()
    assert (g["clause_id"], g["kind"], g["aliases"]) == (
        "glossary/cast",
        "glossary",
        ["Cast", "ร่าย"],
    )


def test_games_and_documents(client) -> None:
    assert client.get("/api/games").json() == [
        {
            "slug": "summoner-master",
            "name": "Summoner Master",
            "documents": ["sm-2014", "sm-decree-2009"],
            "url": "/rules/summoner-master",
        },
        {
            "slug": "vanguard",
            "name": "Cardfight!! Vanguard",
            "documents": ["vg-cr"],
            "url": "/rules/vanguard",
        },
    ]
    docs = client.get("/api/documents").json()
    assert [(d["doc_id"], d["clauses"], d["amends"]) for d in docs] == [
        ("sm-2014", 7, None),
        ("sm-decree-2009", 2, "sm-2014"),
        ("vg-cr", 5, None),
    ]


def test_healthz_reports_the_manifest(client, searcher) -> None:
    body = client.get("/healthz").json()
    assert (body["ok"], body["games"], body["documents"], body["clauses"]) == (True, 2, 3, 14)
    assert body["manifest"] == searcher.manifest
    assert body["store"]["schema_version"] == "4"


ERRORS = [
    # (url, status, extra keys expected)
    ("/api/search?q=", 400, {}),
    ("/api/search?q=%20%20", 400, {}),
    ("/api/search", 422, {"field": "q"}),
    ("/api/search?q=" + "ก" * 1001, 413, {}),
    ("/api/search?q=x&k=0", 422, {"field": "k"}),
    ("/api/search?q=x&k=abc", 422, {"field": "k"}),
    ("/api/search?q=x&mode=fast", 422, {"field": "mode"}),
    ("/api/search?q=x&kind=rule", 422, {"field": "kind"}),
    ("/api/search?q=x&lang=fr", 422, {"field": "lang"}),
    ("/api/search?q=x&game=chess", 404, {"known": ["summoner-master", "vanguard"]}),
    ("/api/search?q=x&game=vanguard&doc=sm-2014", 404, {"known": ["vg-cr"]}),
    ("/api/search?q=x&doc=nope", 404, {"known": ["sm-2014", "sm-decree-2009", "vg-cr"]}),
    (
        "/api/clauses/summoner-master/602.9",
        404,
        {"suggestions": ["602", "602.3", "602.2", "602.1", "602.1.4"]},
    ),
    ("/api/clauses/chess/1", 404, {"known": ["summoner-master", "vanguard"]}),
    ("/api/clauses/summoner-master/602.1?doc=vg-cr", 404, {"known": ["sm-2014", "sm-decree-2009"]}),
    ("/api/nope", 404, {}),
    ("/api/search?q=x&date=2025-13-01", 400, {}),
    (
        "/api/search?q=x&edition=Ver.9",
        404,
        {"known": ["20/07/2009", "Malay edition", "Update 2014-01"]},
    ),
    (
        "/api/clauses/summoner-master/602.1?edition=Ver.9",
        404,
        {"known": ["20/07/2009", "Update 2014-01"]},
    ),
    ("/api/diff/nope", 404, {"known": ["sm-2014", "vg-cr"]}),
    ("/api/diff/sm-2014", 400, {}),
    ("/api/diff/sm-2014?from=Ver.9", 404, {"known": ["Update 2014-01"]}),
    ("/api/editions?date=someday", 400, {}),
]


@pytest.mark.parametrize(("url", "status", "extra"), ERRORS)
def test_error_shape_on_every_api_route(client, url: str, status: int, extra: dict) -> None:
    r = client.get(url)
    assert r.status_code == status
    body = r.json()
    assert set(body) == {"ok", "error", "status", *extra}
    assert (body["ok"], body["status"]) == (False, status)
    assert isinstance(body["error"], str) and body["error"]
    for key, value in extra.items():
        assert body[key] == value


def test_error_messages_say_what_and_where(client) -> None:
    assert client.get("/api/search?q=x&k=0").json()["error"] == (
        "invalid parameter 'k': Input should be greater than or equal to 1"
    )
    assert client.get("/api/search?q=" + "a" * 1001).json()["error"] == (
        "query is 1001 characters long; the limit is 1000"
    )
    assert client.get("/api/clauses/chess/1").json()["error"] == (
        "unknown game 'chess'; known games: summoner-master, vanguard"
    )


def test_over_long_query_never_reaches_the_searcher(client, searcher) -> None:
    before = len(searcher.calls)
    assert client.get("/api/search", params={"q": "x" * 5000}).status_code == 413
    assert len(searcher.calls) == before


def test_method_not_allowed_uses_the_error_shape(client) -> None:
    r = client.post("/api/search?q=x")
    assert (r.status_code, r.json()) == (
        405,
        {"ok": False, "error": "Method Not Allowed", "status": 405},
    )
