"""The judge web service: ``create_app(settings, searcher=None) -> FastAPI``.

Without an injected ``searcher`` the current generation is loaded at once (so ``judgekb
serve`` fails at start-up, naming ``judgekb build``, when it is missing or damaged), and a
watcher swaps in each new generation a build makes current (:mod:`judgekb.service.reload`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

from judgekb.config import Settings
from judgekb.kb.base import open_kb
from judgekb.service import accounts, api, changes, pages, pwa, ruling_pages, rulings
from judgekb.service.errors import install_error_handlers
from judgekb.service.kbdeps import BodyLimit
from judgekb.service.reload import GenerationWatcher
from judgekb.service.render import STATIC_DIR
from judgekb.service.security import SecurityHeaders
from judgekb.service.site import Searcher, Site, load_default_searcher

log = logging.getLogger(__name__)


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
