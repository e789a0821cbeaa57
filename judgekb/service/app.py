"""The judge web service: ``create_app(settings, searcher=None) -> FastAPI``.

Without an injected ``searcher`` the real one is loaded at once (so ``judgekb serve`` fails
at start-up, naming ``judgekb build``, when the store or index is missing).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles

from judgekb.config import Settings
from judgekb.errors import Overloaded
from judgekb.service import api, pages
from judgekb.service.admission import SEARCH_PATHS, Admission
from judgekb.service.errors import error_response, install_error_handlers
from judgekb.service.render import STATIC_DIR
from judgekb.service.site import Searcher, Site, load_default_searcher

log = logging.getLogger(__name__)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


async def security_headers(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """CSP without inline scripts (all JS is in /static), nosniff, no framing."""
    response = await call_next(request)
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.url.path.startswith("/static/"):
        response.headers.setdefault("Cache-Control", "public, max-age=86400")
    return response


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
    app.middleware("http")(admit_searches)  # inside security_headers: a 503 gets them too
    app.middleware("http")(security_headers)
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # venue wifi: Thai UTF-8 packs ~4x
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)
    log.info("judgekb service ready: %d clauses", app.state.site.clause_count)
    return app
