"""Live reload on the tiny corpus (keyword encoder): a new generation is loaded beside the
old one and swapped in; a request in flight finishes on the old one; a generation that does
not load leaves the old one serving."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judgekb.index import generation
from judgekb.index.rebuild import build_all
from judgekb.index.search import load_searcher
from judgekb.service.app import create_app
from judgekb.service.reload import GenerationWatcher
from tests.fakes import FakeEmbedder
from tests.tinybooks import edit_books, settings, write_books


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reload")
    write_books(root)
    build_all(settings(root), embedder_factory=FakeEmbedder)
    return root


@pytest.fixture()
def root(built: Path, tmp_path: Path) -> Path:
    shutil.copytree(built, tmp_path / "r", symlinks=True)
    return tmp_path / "r"


def rebuild(root: Path, n: int = 1, word: str = "ใหม่") -> str:
    edit_books(root, n, word)
    build_all(settings(root), embedder_factory=FakeEmbedder)
    gen = generation.current(root / "var")
    assert gen is not None
    return gen.id


def first_hit(client: TestClient, q: str) -> str:
    r = client.get("/api/search", params={"q": q, "game": "summoner-master", "k": 1})
    return r.json()["results"][0]["clause_id"]  # type: ignore[no-any-return]


def test_a_new_generation_is_swapped_in_and_requests_in_flight_finish_on_the_old(
    root: Path,
) -> None:
    s = settings(root, search_deadline_ms=0)  # the search below is held longer on purpose
    app = create_app(s, searcher=load_searcher(s, embedder=FakeEmbedder()))
    client = TestClient(app)
    old = app.state.site
    assert client.get("/healthz").json()["generation"] == old.generation
    release, started, served = threading.Event(), threading.Event(), []
    search = old.searcher.search

    def slow_search(request):  # type: ignore[no-untyped-def]
        started.set()
        release.wait(10)
        served.append(old.generation)
        return search(request)

    old.searcher.search = slow_search
    in_flight: list[str] = []
    thread = threading.Thread(target=lambda: in_flight.append(first_hit(client, "100.2.1")))
    thread.start()
    assert started.wait(10)
    new_id = rebuild(root, 2)
    watcher = GenerationWatcher(s)
    assert watcher.poll(app.state) == new_id and watcher.poll(app.state) is None
    assert app.state.site.generation == new_id and app.state.site is not old
    assert first_hit(client, "102.2") == "102.2"  # only the new generation has it
    rebuild(root, 3, word="สาม")  # the old generation's files are now removed
    assert not (root / "var" / "generations" / old.generation).exists()
    release.set()
    thread.join(10)
    assert in_flight == ["100.2.1"] and served == [old.generation]
    assert client.get("/healthz").json()["generation"] == new_id


def test_a_generation_that_does_not_load_leaves_the_old_one_serving(root: Path) -> None:
    s = settings(root)
    app = create_app(s, searcher=load_searcher(s, embedder=FakeEmbedder()))
    old_id = app.state.site.generation
    new_id = rebuild(root)
    (root / "var" / "generations" / new_id / "index" / "dense.faiss").write_bytes(b"")
    watcher = GenerationWatcher(s)
    assert watcher.poll(app.state) is None and watcher.failed == new_id
    assert app.state.site.generation == old_id
    assert TestClient(app).get("/healthz").json()["generation"] == old_id


def test_the_server_watches_by_itself(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import judgekb.index.embedder as embedder

    monkeypatch.setattr(embedder, "load_embedder", lambda *a, **k: FakeEmbedder())
    app = create_app(settings(root, reload_interval=0.1))
    with TestClient(app) as client:  # the lifespan starts the watcher thread
        before = client.get("/healthz").json()["generation"]
        new_id = rebuild(root)
        deadline = time.monotonic() + 10
        while client.get("/healthz").json()["generation"] == before:
            assert time.monotonic() < deadline, "the new generation was never picked up"
            time.sleep(0.05)
        assert client.get("/healthz").json()["generation"] == new_id
        assert first_hit(client, "102.1") == "102.1"
    assert app.state.watcher._thread is not None and not app.state.watcher._thread.is_alive()
