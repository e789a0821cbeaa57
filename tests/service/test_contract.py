"""Security and HTTP-contract items of issue 16, on the real app (keyword encoder): no links or
redirects to another host, security headers on 500s, HEAD wherever GET, 405 with Allow, a
/healthz that checks the store and index and leaks no path, invisible or bidi queries
refused, a store damaged under a running server answered with 503s."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judgekb.config import Settings
from judgekb.corpus.store import ClauseStore
from judgekb.index.search import Searcher
from judgekb.service.app import create_app
from judgekb.service.security import SECURITY_HEADERS
from tests.fakes import FakeEmbedder
from tests.service.conftest import SpySearcher

GET_ROUTES = [
    "/",
    "/search?q=draw",
    "/rules/summoner-master",
    "/rules/summoner-master/602.1.4",
    "/docs",
    "/api/search?q=draw",
    "/api/clauses/summoner-master/602.1",
    "/api/games",
    "/api/documents",
    "/healthz",
    "/openapi.json",
    "/static/app.css",
    "/rules/nowhere",
]


def has_security_headers(headers) -> bool:  # type: ignore[no-untyped-def]
    return all(headers.get(k) == v for k, v in SECURITY_HEADERS.items())


@pytest.mark.parametrize("path", ["//evil.example/x", "//evil.example/search?q=draw", "/\\evil"])
def test_language_links_stay_on_this_site(client: TestClient, path: str) -> None:
    html = client.get("http://testserver" + path).text
    links = re.findall(r'<nav class="langs"[^>]*>(.*?)</nav>', html, re.S)[0]
    hrefs = re.findall(r'href="([^"]*)"', links)
    assert len(hrefs) == 3 and all(h.startswith("/") for h in hrefs)
    assert not [h for h in re.findall(r'(?:href|action)="([^"]*)"', html) if h.startswith("//")]


@pytest.mark.parametrize("path", ["/static", "/search/", "/docs/"])
def test_no_redirect_is_built_from_the_host_header(client: TestClient, path: str) -> None:
    r = client.get(path, headers={"host": "evil.example"})
    assert r.status_code == 404 and "location" not in r.headers
    assert has_security_headers(r.headers)


def test_500_carries_the_security_headers_and_the_error_shape(store_path: Path) -> None:
    class Boom(SpySearcher):
        def search(self, request):  # type: ignore[no-untyped-def]
            raise RuntimeError("boom")

    searcher = Boom(
        ClauseStore(store_path), store_path.parent / "index", FakeEmbedder(), FakeEmbedder.name
    )
    app = create_app(Settings(data_dir=store_path.parent), searcher=searcher)
    client = TestClient(app, raise_server_exceptions=False)
    r = client.get("/api/search", params={"q": "draw"})
    assert r.status_code == 500 and has_security_headers(r.headers)
    assert r.json() == {"ok": False, "error": "internal error; see the server log", "status": 500}
    r = client.get("/search", params={"q": "draw"})
    assert r.status_code == 500 and has_security_headers(r.headers)
    assert "internal error" in r.text and "boom" not in r.text


@pytest.mark.parametrize("path", GET_ROUTES)
def test_head_answers_wherever_get_does(client: TestClient, path: str) -> None:
    get, head = client.get(path), client.head(path)
    assert head.status_code == get.status_code and head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert has_security_headers(head.headers)


@pytest.mark.parametrize(
    ("path", "content_type"),
    [("/api/games", "application/json"), ("/", "text/html; charset=utf-8")],
)
def test_405_names_the_allowed_methods(client: TestClient, path: str, content_type: str) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        r = client.request(method, path)
        assert (r.status_code, r.headers["allow"]) == (405, "GET, HEAD")
        assert r.headers["content-type"] == content_type and has_security_headers(r.headers)
    assert client.post("/api/games").json() == {
        "ok": False,
        "error": "Method Not Allowed",
        "status": 405,
    }


def test_openapi_says_q_is_required_and_documents_413(client: TestClient) -> None:
    op = client.get("/openapi.json").json()["paths"]["/api/search"]["get"]
    q = next(p for p in op["parameters"] if p["name"] == "q")
    assert q["required"] is True and "default" not in q["schema"]
    assert (q["schema"]["minLength"], q["schema"]["maxLength"]) == (1, 1000)
    assert {"400", "413", "422", "503"} <= set(op["responses"])


@pytest.mark.parametrize(
    ("q", "error"),
    [
        ("\u200b", "query is empty"),
        ("\u200b\u200e\u200f\u061c \ufeff", "query is empty"),
        ("draw\u202e", "text-direction control characters"),
        ("\u2067draw", "text-direction control characters"),
    ],
)
def test_invisible_and_bidi_queries_are_refused(client: TestClient, q: str, error: str) -> None:
    r = client.get("/api/search", params={"q": q})
    assert r.status_code == 400 and error in r.json()["error"]


def test_healthz_reports_the_generation_and_checks_without_paths(
    client: TestClient, store_path: Path
) -> None:
    r = client.get("/healthz")
    body = r.json()
    assert body["ok"] is True and body["checks"] == {"store": "ok", "index": "ok"}
    assert "generation" in body
    assert str(store_path.parent) not in r.text and '"/' not in r.text
    assert set(body["store"]) <= {"schema_version", "corpus_hash", "normaliser_version"}


@pytest.fixture()
def damaged(store_path: Path, tmp_path: Path) -> tuple[TestClient, Path]:
    """A running app whose clause store file is then overwritten with garbage."""
    shutil.copy(store_path, tmp_path / "clauses.sqlite")
    shutil.copytree(store_path.parent / "index", tmp_path / "index")
    store = ClauseStore(tmp_path / "clauses.sqlite")
    searcher = Searcher(store, tmp_path / "index", FakeEmbedder(), FakeEmbedder.name)
    client = TestClient(create_app(Settings(data_dir=tmp_path), searcher=searcher))
    assert client.get("/healthz").status_code == 200
    data = bytearray((tmp_path / "clauses.sqlite").read_bytes())
    data[24:28] = b"\xff\xff\xff\xff"  # the change counter: readers drop their page cache
    data[4096:] = b"\xa5" * (len(data) - 4096)
    (tmp_path / "clauses.sqlite").write_bytes(bytes(data))
    return client, tmp_path


def test_a_store_damaged_while_serving_is_503_not_500(damaged) -> None:  # type: ignore[no-untyped-def]
    client, _ = damaged
    r = client.get("/rules/summoner-master/602.1.4")
    assert r.status_code == 503 and "damaged" in r.text and "judgekb build" in r.text
    r = client.get("/api/clauses/summoner-master/602.1")
    assert r.status_code == 503 and r.json()["error"].startswith("the clause store is damaged")
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json()["ok"] is False and r.json()["status"] == 503
    assert "the clause store" in r.json()["error"]
