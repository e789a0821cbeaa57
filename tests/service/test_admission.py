"""Bounded admission: past the limit or the deadline, 503 + Retry-After in the error shape.

Not timed: the searches in flight are held by an event until the test has seen the refusal.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from fastapi.testclient import TestClient

from judgekb.config import Settings
from judgekb.index.request import SearchRequest
from judgekb.index.results import SearchResult
from judgekb.service.admission import Admission
from judgekb.service.app import create_app

BUSY_SHAPE = {"ok": False, "status": 503}


def run(coro):  # type: ignore[no-untyped-def]
    """``asyncio.run`` on a thread of its own: the browser tests' Playwright keeps an event
    loop running on the main thread for the whole session."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


class HeldSearcher:
    """The real test searcher, but each search first waits for ``release`` (or ``delay``)."""

    def __init__(self, inner, delay: float = 0.0) -> None:  # type: ignore[no-untyped-def]
        self.inner = inner
        self.delay = delay
        self.release = threading.Event()

    @property
    def store(self):  # type: ignore[no-untyped-def]
        return self.inner.store

    @property
    def manifest(self):  # type: ignore[no-untyped-def]
        return self.inner.manifest

    def search(self, request: SearchRequest) -> SearchResult:
        if self.delay:
            time.sleep(self.delay)
        else:
            self.release.wait(10)
        return self.inner.search(request)


async def _overload(app, held: HeldSearcher):  # type: ignore[no-untyped-def]
    admission: Admission = app.state.site.admission
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        running = [
            asyncio.create_task(http.get("/api/search", params={"q": f"kalah {i}"}))
            for i in range(2)
        ]
        for _ in range(500):
            if admission.in_flight == 2:
                break
            await asyncio.sleep(0.01)
        busy = await http.get("/api/search", params={"q": "kalah"})
        page = await http.get("/search", params={"q": "kalah"})
        held.release.set()
        served = await asyncio.gather(*running)
    return busy, page, served


def test_past_the_queue_limit_searches_get_503_with_retry_after(store_path, searcher):
    held = HeldSearcher(searcher)
    settings = Settings(data_dir=store_path.parent, search_queue_limit=2, retry_after_s=3)
    app = create_app(settings, searcher=held)
    busy, page, served = run(_overload(app, held))

    assert busy.status_code == 503
    assert busy.headers["retry-after"] == "3"
    assert busy.headers["content-type"] == "application/json"
    body = busy.json()
    assert {k: body[k] for k in BUSY_SHAPE} == BUSY_SHAPE
    assert body["error"] == "the search service is busy (2 searches in progress); retry in a moment"
    assert set(body) == {"ok", "error", "status"}
    assert page.status_code == 503 and page.headers["retry-after"] == "3"
    assert "text/html" in page.headers["content-type"]
    assert "The service is busy. Try again in a few seconds." in page.text  # not "went wrong"
    assert 'name="q" value="kalah"' in page.text
    assert "Content-Security-Policy" in busy.headers  # security headers on a 503 too
    assert [r.status_code for r in served] == [200, 200]
    assert app.state.site.admission.in_flight == 0
    assert app.state.site.admission.refused == 2


def test_a_search_past_its_deadline_gets_503_with_retry_after(store_path, searcher):
    held = HeldSearcher(searcher, delay=0.05)  # waits 50 ms; the deadline is 1 ms
    settings = Settings(data_dir=store_path.parent, search_deadline_ms=1)
    app = create_app(settings, searcher=held)
    r = TestClient(app).get("/api/search", params={"q": "kalah"})
    assert r.status_code == 503
    assert r.headers["retry-after"] == "1"
    assert r.json() == {
        "ok": False,
        "error": "the search service is busy: this search waited too long to start",
        "status": 503,
    }


def test_other_routes_are_not_limited(store_path, searcher):
    settings = Settings(data_dir=store_path.parent, search_queue_limit=1)
    app = create_app(settings, searcher=searcher)
    app.state.site.admission.in_flight = 1  # one search holds the only place
    client = TestClient(app)
    assert client.get("/api/search", params={"q": "kalah"}).status_code == 503
    assert client.get("/api/games").status_code == 200
    assert client.get("/healthz").status_code == 200


def test_admission_counts_and_deadlines():
    gate = Admission(limit=2, deadline_ms=150)
    assert gate.enter() and gate.enter() and not gate.enter()
    gate.leave()
    assert gate.enter()
    assert gate.deadline(10.0) == 10.15
    assert gate.deadline(None) is None
    assert Admission(0, 0).deadline(10.0) is None
    unlimited = Admission(limit=0, deadline_ms=0)
    assert all(unlimited.enter() for _ in range(100))


def test_the_thread_pool_runs_at_most_worker_threads_requests(settings, searcher) -> None:
    """Sync routes share AnyIO's thread pool; the app bounds it (40 by default) to
    ``worker_threads`` for the loop that serves it."""
    from anyio import to_thread
    from fastapi.testclient import TestClient

    from judgekb.service.app import create_app

    app = create_app(settings.model_copy(update={"worker_threads": 3}), searcher=searcher)
    with TestClient(app) as client:
        tokens = client.portal.call(lambda: to_thread.current_default_thread_limiter().total_tokens)
        assert tokens == 3
        assert client.get("/api/search", params={"q": "602.1.4"}).status_code == 200
