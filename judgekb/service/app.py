"""The judge web service: ``create_app(settings, searcher=None) -> FastAPI``.

Without an injected ``searcher`` the real one is loaded at once (so ``judgekb serve`` fails
at start-up, naming ``judgekb build``, when the store or index is missing).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI
from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judgekb.config import Settings
from judgekb.service import api, pages, pwa
from judgekb.service.errors import install_error_handlers
from judgekb.service.render import STATIC_DIR
from judgekb.service.site import Searcher, Site, load_default_searcher

log = logging.getLogger(__name__)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'; worker-src 'self'; manifest-src 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


class SecurityHeaders:
    """CSP without inline scripts (all JS is in /static), nosniff, no framing; a day of
    caching for /static. A plain ASGI middleware: Starlette's ``@app.middleware("http")``
    runs every response through an extra task and memory stream."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
                if static:
                    headers.setdefault("Cache-Control", "public, max-age=86400")
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(settings: Settings, searcher: Searcher | None = None) -> FastAPI:
    """Build the app; ``searcher`` defaults to ``judgekb.index.search.load_searcher``."""
    if searcher is None:
        searcher = load_default_searcher(settings)
    app = FastAPI(
        title="judgekb",
        summary="Rules search for Thai and Malay trading-card-game judges",
        version="0.1.0",
        docs_url=None,  # Swagger UI loads from a CDN; /docs is an offline page instead
        redoc_url=None,
    )
    app.state.site = Site(settings, searcher)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # venue wifi: Thai UTF-8 packs ~4x
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(pwa.router)
    log.info("judgekb service ready: %d clauses", app.state.site.clause_count)
    return app
