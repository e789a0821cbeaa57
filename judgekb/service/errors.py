"""HTTP error mapping: one JSON shape for the API, one HTML page for people.

``{"ok": false, "error": "...", "status": 404}`` plus ``suggestions`` (unknown clause),
``known`` (unknown game or document) or ``field`` (422). Every :class:`JudgeKBError`
carries its own ``status``, so no lookup table is needed.
"""

from __future__ import annotations

import logging
from urllib.parse import quote

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import Response

from judgekb.errors import ClauseNotFound, JudgeKBError, Overloaded, UnknownDocument, UnknownGame
from judgekb.service.render import render
from judgekb.service.schemas import ErrorBody, SafeJSONResponse

log = logging.getLogger(__name__)

JSON_PATHS = ("/api/", "/healthz", "/openapi.json")


def wants_json(request: Request) -> bool:
    return request.url.path.startswith(JSON_PATHS)


def error_body(exc: Exception) -> ErrorBody:
    """The error shape for any exception (unexpected ones say only "internal error")."""
    if isinstance(exc, JudgeKBError):
        body = ErrorBody(error=str(exc), status=exc.status)
        if isinstance(exc, ClauseNotFound):
            body.suggestions = list(dict.fromkeys(exc.suggestions))  # one per id, docs merged
        if isinstance(exc, UnknownGame | UnknownDocument):
            body.known = sorted(exc.known)
        return body
    if isinstance(exc, RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        field = str(first.get("loc", ("", "?"))[-1])
        return ErrorBody(
            error=f"invalid parameter {field!r}: {first.get('msg', 'invalid')}",
            status=422,
            field=field,
        )
    if isinstance(exc, StarletteHTTPException):
        detail = str(exc.detail)
        if exc.status_code == 404 and detail == "Not Found":
            detail = "no such page; see /docs for the API and / for search"
        return ErrorBody(error=detail, status=exc.status_code)
    return ErrorBody(error="internal error; see the server log", status=500)


def _suggestion_links(request: Request, body: ErrorBody) -> list[dict]:
    site = getattr(request.app.state, "site", None)
    game = request.path_params.get("game")
    if site is None or not body.suggestions or not game:
        return []
    doc = request.query_params.get("doc")
    out = []
    for cid in body.suggestions:
        try:
            url = site.clause_url(game, cid, doc)
        except JudgeKBError:
            url = site.clause_url(game, cid)
        out.append({"label": cid, "url": url})
    return out


def _known_links(request: Request, exc: Exception, body: ErrorBody) -> list[dict]:
    """Links to the valid games, or to the clause in each valid document."""
    cid = request.path_params.get("clause_id")
    game = request.path_params.get("game")
    if isinstance(exc, UnknownDocument) and game and cid:
        base = f"/rules/{quote(game, safe='')}/{quote(cid, safe='/')}?doc="
        return [{"label": k, "url": base + quote(k, safe="")} for k in body.known or []]
    return [{"label": k, "url": f"/rules/{quote(k, safe='')}"} for k in body.known or []]


def retry_headers(request: Request, exc: Exception) -> dict[str, str]:
    """``Retry-After`` for an overloaded service (seconds from the settings)."""
    if not isinstance(exc, Overloaded):
        return {}
    site = getattr(request.app.state, "site", None)
    return {"Retry-After": str(site.settings.retry_after_s if site is not None else 1)}


def error_response(request: Request, exc: Exception) -> Response:
    body = error_body(exc)
    if isinstance(exc, Overloaded):
        log.info("%s %s -> 503: %s", request.method, request.url.path, exc)
    elif body.status >= 500:
        log.error("%s %s -> %s", request.method, request.url.path, exc, exc_info=exc)
    headers = retry_headers(request, exc)
    if wants_json(request):
        return SafeJSONResponse(body.body(), status_code=body.status, headers=headers)
    known = _known_links(request, exc, body)
    response = render(
        request,
        "error.html",
        {
            "status": body.status,
            "message": body.error,
            "suggestions": _suggestion_links(request, body),
            "known": known,
        },
        status_code=body.status,
    )
    response.headers.update(headers)
    return response


def install_error_handlers(app: FastAPI) -> None:
    """Route every error through :func:`error_response`."""
    for exc_type in (JudgeKBError, RequestValidationError, StarletteHTTPException, Exception):
        app.add_exception_handler(exc_type, error_response)
