"""Sign in and out of the web pages: a session cookie (HttpOnly, SameSite=Lax, Secure behind
HTTPS) and CSRF tokens on every form. The login form, posted before any session exists,
carries a double-submit token matched against its own HttpOnly cookie."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judgekb.errors import Unauthorized
from judgekb.kb.model import Actor
from judgekb.service.kbdeps import (
    LOGIN_CSRF_COOKIE,
    SESSION_COOKIE,
    check_csrf,
    client_address,
    kb_of,
    login_csrf,
    page_session,
    read_form,
    set_cookie,
)
from judgekb.service.render import render
from judgekb.service.ruling_views import account_context

router = APIRouter(default_response_class=HTMLResponse, include_in_schema=False)

NextPath = Annotated[str, Query(max_length=300)]


def safe_next(path: str) -> str:
    """Only a local path (never ``//host`` or a scheme) may be a redirect target."""
    if not path.startswith("/") or path.startswith("//") or "\\" in path or "\n" in path:
        return "/"
    return path


def _login_page(request: Request, next_path: str, message: str = "", status: int = 200) -> Response:
    token = login_csrf(request)
    page = render(
        request,
        "login.html",
        {
            **account_context(request),
            "login_csrf": token,
            "next": safe_next(next_path),
            "message": message,
        },
        status_code=status,
    )
    set_cookie(page, request, LOGIN_CSRF_COOKIE, token, 3600)
    return page


@router.get("/login")
def login_form(request: Request, next: NextPath = "/") -> Response:
    return _login_page(request, next)


@router.post("/login")
async def login(request: Request) -> Response:
    form = await read_form(request)
    check_csrf(request.cookies.get(LOGIN_CSRF_COOKIE), form.get("csrf"))
    next_path = safe_next(form.get("next", "/"))
    try:
        sid, _session = kb_of(request).accounts.login(
            form.get("name", ""), form.get("password", ""), client_address(request)
        )
    except Unauthorized as exc:
        return _login_page(request, next_path, exc.message, 401)
    response = RedirectResponse(next_path, 303)
    hours = request.app.state.site.settings.session_hours
    set_cookie(response, request, SESSION_COOKIE, sid, hours * 3600)
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/")
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    form = await read_form(request)
    session = page_session(request)
    response = RedirectResponse("/", 303)
    # Only a signed-in page's own form signs out: a post from another site carries no session
    # cookie (SameSite), and must not clear the judge's cookie either.
    if session is not None:
        check_csrf(session.csrf, form.get("csrf"))
        actor = Actor(session.user.name, session.user.role, client_address(request))
        kb_of(request).accounts.logout(request.cookies[SESSION_COOKIE], actor)
        response.delete_cookie(SESSION_COOKIE, path="/")
    return response
