"""What the knowledge-base routes share: the open knowledge base, who is asking (API token or
web session), CSRF checks, the body-size limit, and the ruling hits of a rules search.

API routes authenticate with ``Authorization: Bearer <token>`` only; web forms with the
session cookie plus a CSRF token (a form without a valid one gets 403).
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judgekb.errors import Forbidden, RequestTooLarge, Unauthorized
from judgekb.index.request import SearchRequest
from judgekb.index.results import SearchResult
from judgekb.kb.accounts import Session
from judgekb.kb.base import KnowledgeBase
from judgekb.kb.model import Actor, User
from judgekb.kb.search import RulingHit

SESSION_COOKIE = "jkb_session"
LOGIN_CSRF_COOKIE = "jkb_csrf"  # double-submit token of the login form (no session yet)
# A form of the longest Thai question and answer the limits allow (2,000 + 8,000 characters):
# each Thai character is 3 UTF-8 bytes, 9 once form-encoded (%E0%B8%81), about 92 kB in all.
MAX_BODY = 128 * 1024
MAX_FORM_FIELDS = 40
RULING_HITS = 5
CITED_HITS = 3  # rulings citing one of the first rule hits rank with them


def kb_of(request: Request) -> KnowledgeBase:
    return request.app.state.kb  # type: ignore[no-any-return]


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def actor_of(user: User, request: Request) -> Actor:
    return Actor(user.name, user.role, client_address(request))


# API: bearer tokens ---------------------------------------------------------------------
def api_actor(request: Request) -> Actor | None:
    """The token's user, None without an Authorization header; 401 for a bad one."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("use `Authorization: Bearer <token>` (`judgekb users token NAME`)")
    return actor_of(kb_of(request).accounts.token_user(token.strip()), request)


def require_api_actor(request: Request) -> Actor:
    actor = api_actor(request)
    if actor is None:
        raise Unauthorized(
            "this needs an API token: `Authorization: Bearer <token>` "
            "(an admin prints one with `judgekb users token NAME`)"
        )
    return actor


def require_reviewer(actor: Actor | None) -> Actor:
    if actor is None:
        raise Unauthorized("sign in or send an API token of a head judge or an admin")
    if not actor.reviewer:
        raise Forbidden(
            f"{actor.name} is a {actor.role}; only a head judge or an admin may do this"
        )
    return actor


# web: sessions and CSRF -----------------------------------------------------------------
def page_session(request: Request) -> Session | None:
    """The live session of the cookie, or None (an expired one reads as signed out)."""
    sid = request.cookies.get(SESSION_COOKIE)
    if not sid:
        return None
    try:
        return kb_of(request).accounts.session(sid)
    except Unauthorized:
        return None


def require_session(request: Request) -> Session:
    session = page_session(request)
    if session is None:
        raise Unauthorized("sign in first at /login")
    return session


def check_csrf(expected: str | None, given: str | None) -> None:
    if not expected or not given or not hmac.compare_digest(expected, given):
        raise Forbidden("the form's security token is missing or stale; reload the page")


def login_csrf(request: Request) -> str:
    """The login form's double-submit token: the cookie's, or a new one."""
    return request.cookies.get(LOGIN_CSRF_COOKIE) or secrets.token_urlsafe(32)


def set_cookie(response: Response, request: Request, name: str, value: str, max_age: int) -> None:
    settings = request.app.state.site.settings
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


async def read_form(request: Request) -> dict[str, str]:
    """An urlencoded form (the only kind our pages post), size and field count limited."""
    body = await request.body()  # BodyLimit has capped it
    try:
        pairs = parse_qsl(
            body.decode("utf-8"), keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS
        )
    except (UnicodeDecodeError, ValueError):
        raise RequestTooLarge("a form of too many fields or not UTF-8") from None
    form: dict[str, str] = {}
    for k, v in pairs:
        form[k] = f"{form[k]}\n{v}" if k in form else v
    return form


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413 in the error shape, whether declared
    (Content-Length) or streamed: the body is read (capped) before the app sees it."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length", b"")
        too_big = declared.isdigit() and int(declared) > self.max_bytes
        messages: list[Message] = []
        seen = 0
        while not too_big:
            message = await receive()
            messages.append(message)
            seen += len(message.get("body", b""))
            too_big = seen > self.max_bytes
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        if too_big:
            from judgekb.service.errors import error_response

            exc = RequestTooLarge(f"request body over {self.max_bytes // 1024} KiB")
            await error_response(Request(scope), exc)(scope, receive, send)
            return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


# search ---------------------------------------------------------------------------------
def ruling_hits(request: Request, search: SearchRequest, result: SearchResult) -> list[RulingHit]:
    """Published rulings for a rules search: shown after the rule hits, never among them."""
    kb: KnowledgeBase | None = getattr(request.app.state, "kb", None)
    if kb is None:
        return []
    editions = request.app.state.site.editions
    cited = [editions.everywhere(h.doc_id, h.clause_id) for h in result.hits[:CITED_HITS]]
    return kb.search.search(search.text, search.scope.game, RULING_HITS, cited)


def search_json(request: Request, search: SearchRequest, result: SearchResult) -> dict[str, Any]:
    """``SearchResult.to_json()`` with the ruling hits (``"kind": "ruling"``) after the rules."""
    body = result.to_json()
    body["results"] += [h.to_json() for h in ruling_hits(request, search, result)]
    return body


def citing_rulings(request: Request, game: str, doc_id: str, clause_id: str) -> list[Any]:
    """Published rulings that cite one clause (empty when no knowledge base is open)."""
    kb: KnowledgeBase | None = getattr(request.app.state, "kb", None)
    if kb is None:
        return []
    return kb.rulings.citing(game, request.app.state.site.editions.everywhere(doc_id, clause_id))
