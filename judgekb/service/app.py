"""The judge web service: ``create_app(settings, searcher=None) -> FastAPI``.

Without an injected ``searcher`` the current generation is loaded at once (so ``judgekb
serve`` fails at start-up, naming ``judgekb build``, when it is missing or damaged), and a
watcher swaps in each new generation a build makes current (:mod:`judgekb.service.reload`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from anyio import to_thread
from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles

from judgekb.config import Settings
from judgekb.errors import Overloaded
from judgekb.kb.base import open_kb
from judgekb.service import accounts, api, changes, pages, pwa, ruling_pages, rulings
from judgekb.service.admission import SEARCH_PATHS, Admission
from judgekb.service.errors import error_response, install_error_handlers
from judgekb.service.kbdeps import BodyLimit
from judgekb.service.reload import GenerationWatcher
from judgekb.service.render import STATIC_DIR
from judgekb.service.security import SecurityHeaders
from judgekb.service.site import Searcher, Site, load_default_searcher

log = logging.getLogger(__name__)


async def admit_searches(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """HTTP middleware: the admission limit on the search routes."""
    if request.url.path not in SEARCH_PATHS:
        return await call_next(request)
    admission: Admission = request.app.state.site.admission
    request.state.arrived = time.monotonic()
    if not admission.enter():
        log.debug("refused %s: %d searches in flight", request.url.path, admission.in_flight)
        busy = Overloaded(
            f"the search service is busy ({admission.in_flight} searches in progress); "
            "retry in a moment"
        )
        return error_response(request, busy)
    try:
        return await call_next(request)
    finally:
        admission.leave()


def create_app(settings: Settings, searcher: Searcher | None = None) -> FastAPI:
    """Build the app; ``searcher`` defaults to ``judgekb.index.search.load_searcher`` (and
    then a new generation is picked up live every ``settings.reload_interval`` seconds)."""
    watcher: GenerationWatcher | None = None
    if searcher is None:
        searcher = load_default_searcher(settings)
        if settings.reload_interval > 0:
            watcher = GenerationWatcher(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # sync routes run on AnyIO's thread pool: at most this many at once, for this loop
        to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        if watcher is not None:
            watcher.start(app.state)
        yield
        if watcher is not None:
            watcher.stop()

    app = FastAPI(
        title="judgekb",
        summary="Rules search for Thai and Malay trading-card-game judges",
        version="0.1.0",
        docs_url=None,  # Swagger UI loads from a CDN; /docs is an offline page instead
        redoc_url=None,
        lifespan=lifespan,
        # A slash redirect is absolute, built from the request's Host: "/static" with
        # "Host: evil.example" would redirect there. No route needs one.
        redirect_slashes=False,
    )
    app.state.site = Site(settings, searcher)
    app.state.kb = open_kb(settings, app.state.site.store)  # migrates, flags stale rulings
    app.state.watcher = watcher
    app.add_middleware(BodyLimit)
    app.middleware("http")(admit_searches)  # inside SecurityHeaders: a 503 gets them too
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # venue wifi: Thai UTF-8 packs ~4x
    app.add_middleware(SecurityHeaders)  # outermost: every response, HEAD as GET
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(api.router)
    app.include_router(rulings.router)
    app.include_router(changes.router)  # editions: /changes, /api/diff, /api/editions
    app.include_router(pages.router)
    app.include_router(accounts.router)
    app.include_router(ruling_pages.router)
    app.include_router(pwa.router)
    log.info("judgekb service ready: %d clauses", app.state.site.clause_count)
    return app
