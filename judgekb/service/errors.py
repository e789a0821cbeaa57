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
from starlette.routing import Match

from judgekb.errors import (
    BadParameter,
    ClauseNotFound,
    JudgeKBError,
    Overloaded,
    QueryError,
    QueryTooLong,
    UnknownDocument,
    UnknownEdition,
    UnknownFamily,
    UnknownGame,
    ValidationFailed,
)
from judgekb.service.render import render
from judgekb.service.schemas import ErrorBody, SafeJSONResponse
from judgekb.service.security import add_security_headers
from judgekb.service.site import page_url

log = logging.getLogger(__name__)

JSON_PATHS = ("/api/", "/healthz", "/openapi.json")


PARAMETER_PLACES = ("query", "path", "header", "cookie")


def wants_json(request: Request) -> bool:
    return request.url.path.startswith(JSON_PATHS)


def error_body(exc: Exception) -> ErrorBody:
    """The error shape for any exception (unexpected ones say only "internal error")."""
    if isinstance(exc, JudgeKBError):
        body = ErrorBody(error=str(exc), status=exc.status)
        if isinstance(exc, ClauseNotFound):
            body.suggestions = list(dict.fromkeys(exc.suggestions))  # one per id, docs merged
        if isinstance(exc, UnknownGame | UnknownDocument | UnknownFamily | UnknownEdition):
            body.known = sorted(exc.known)
        if isinstance(exc, ValidationFailed) and exc.field:
            body.field = exc.field
        return body
    if isinstance(exc, RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":  # the body, not a parameter ("'8'" was its offset)
            pos = first.get("loc", ("body", "?"))[-1]
            why = first.get("ctx", {}).get("error", "invalid JSON")
            return ErrorBody(error=f"request body is not valid JSON ({why}, at character {pos})",
                             status=422, field="body")  # fmt: skip
        loc = first.get("loc", ("", "?"))
        # a parameter is named by loc[1]; what follows it is where inside its type the value
        # failed ("lang", "literal['en','th','ms']"); a body's field is its innermost key
        field = str(loc[1] if len(loc) > 1 and loc[0] in PARAMETER_PLACES else loc[-1])
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


# The sentence an HTML error page leads with, in the judge's language (a label key of
# judgekb.service.i18n); the English detail of the error follows it.
MESSAGE_KEYS: tuple[tuple[type[Exception], str], ...] = (
    (QueryTooLong, "err_too_long"),
    (Overloaded, "err_busy"),
    (BadParameter, "err_invalid"),
    (QueryError, "err_query"),
    (UnknownGame, "err_unknown_game"),
    (UnknownDocument, "err_unknown_doc"),
    (ClauseNotFound, "err_no_clause"),
    (RequestValidationError, "err_invalid"),
)


def message_key(exc: Exception, status: int) -> str:
    """The label key of the translated sentence for ``exc`` (first match of MESSAGE_KEYS)."""
    for exc_type, key in MESSAGE_KEYS:
        if isinstance(exc, exc_type):
            return key
    if status == 404:
        return "err_not_found"
    return "err_internal" if status >= 500 else "err_generic"


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
    if isinstance(exc, UnknownDocument | UnknownEdition) and game and cid:
        key = "doc" if isinstance(exc, UnknownDocument) else "edition"
        base = f"/rules/{quote(game, safe='')}/{quote(cid, safe='/')}?{key}="
        return [{"label": k, "url": base + quote(k, safe="")} for k in body.known or []]
    if isinstance(exc, UnknownFamily):
        return [{"label": k, "url": f"/changes/{quote(k, safe='')}"} for k in body.known or []]
    if isinstance(exc, UnknownEdition):
        return [{"label": k, "url": page_url(request, edition=k)} for k in body.known or []]
    return [{"label": k, "url": f"/rules/{quote(k, safe='')}"} for k in body.known or []]


def retry_headers(request: Request, exc: Exception) -> dict[str, str]:
    """``Retry-After`` for an overloaded service (seconds from the settings)."""
    if not isinstance(exc, Overloaded):
        return {}
    site = getattr(request.app.state, "site", None)
    return {"Retry-After": str(site.settings.retry_after_s if site is not None else 1)}


def error_response(request: Request, exc: Exception) -> Response:
    """The error page or JSON, with the security headers (a 500 passes no middleware) and
    the exception's own headers (``Allow`` of a 405)."""
    response = _error_response(request, exc)
    add_security_headers(response.headers)
    if isinstance(exc, StarletteHTTPException) and exc.headers:
        response.headers.update(exc.headers)
    if isinstance(exc, StarletteHTTPException) and exc.status_code == 405:
        response.headers["Allow"] = allowed_methods(request)
    return response


HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(request: Request) -> str:
    """Every method some route of the app answers at this path (Starlette's own 405 names
    only the first route that matched the path, not e.g. GET beside POST)."""
    routes = request.app.routes
    allowed = [
        method
        for method in HTTP_METHODS
        if any(r.matches({**request.scope, "method": method})[0] == Match.FULL for r in routes)
    ]
    return ", ".join(allowed)


def _error_response(request: Request, exc: Exception) -> Response:
    body = error_body(exc)
    if isinstance(exc, Overloaded):
        log.info("%s %s -> 503: %s", request.method, request.url.path, exc)
    elif body.status >= 500:
        log.error("%s %s -> %s", request.method, request.url.path, exc, exc_info=exc)
    # WWW-Authenticate (401), Retry-After (429, and 503 when overloaded)
    headers = {**(getattr(exc, "headers", None) or {}), **retry_headers(request, exc)}
    if wants_json(request):
        return SafeJSONResponse(body.body(), status_code=body.status, headers=headers)
    known = _known_links(request, exc, body)
    site = getattr(request.app.state, "site", None)
    limit = site.settings.max_query_chars if site is not None else 1000
    page = render(
        request,
        "error.html",
        {
            "status": body.status,
            "message": body.error,
            "message_key": message_key(exc, body.status),
            "limit": limit,
            "field": body.field or "",
            "suggestions": _suggestion_links(request, body),
            "known": known,
            # what was typed stays in the search box, to fix rather than retype
            "q": request.query_params.get("q", "")[:limit],
        },
        status_code=body.status,
    )
    page.headers.update(headers)
    return page


def install_error_handlers(app: FastAPI) -> None:
    """Route every error through :func:`error_response`."""
    for exc_type in (JudgeKBError, RequestValidationError, StarletteHTTPException, Exception):
        app.add_exception_handler(exc_type, error_response)
