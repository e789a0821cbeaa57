"""Jinja2 rendering with autoescape on, the UI language and the common page context."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from judgekb.service.i18n import COOKIE, LANG_NAMES, LANGS, labels, pick_lang
from judgekb.service.kbdeps import SESSION_COOKIE
from judgekb.service.markup import keep_together, section_ref
from judgekb.service.site import page_url

TEMPLATES_DIR = Path(__file__).resolve().parents[1] / "templates"
STATIC_DIR = Path(__file__).resolve().parent / "static"

_env = Environment(
    loader=FileSystemLoader(TEMPLATES_DIR),
    autoescape=select_autoescape(enabled_extensions=("html",), default=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters["keep_together"] = keep_together
_env.filters["sect"] = section_ref
templates = Jinja2Templates(env=_env)


def render(
    request: Request,
    name: str,
    context: dict[str, Any],
    status_code: int = 200,
    lang: str | None = None,
) -> HTMLResponse:
    """Render ``name`` in the judge's language (:func:`pick_lang`, or ``lang``); a valid
    ``?lang=`` is remembered in a cookie for later pages."""
    lang = lang or pick_lang(request)
    site = getattr(request.app.state, "site", None)
    games = site.store.games() if site is not None else {}
    menu = site.game_menu if site is not None else {}
    ctx = {
        "lang": lang,
        "t": labels(lang),
        "all_games": games,
        "game_menu": menu,
        "game": None,
        "filter_game": None,  # the game the judge chose for the search (never a page's game)
        "q": "",
        "lang_urls": {code: page_url(request, lang=code) for code in LANGS},
        "lang_names": LANG_NAMES,
        "origin": f"{request.url.scheme}://{request.url.netloc}",
        "offline": site.bundle.info if site is not None else None,
        # the footer links the judge's rulings work instead of "Sign in" (the cookie is only
        # looked at, not checked: a page stays one database read cheaper; /review checks it)
        "signed_in": SESSION_COOKIE in request.cookies,
        **context,
    }
    response = templates.TemplateResponse(request, name, ctx, status_code=status_code)
    response.headers["Content-Language"] = lang  # the worker keeps it for offline pages
    response.headers["Vary"] = "Accept-Language, Cookie"
    if request.query_params.get("lang") in LANGS:
        response.set_cookie(COOKIE, lang, max_age=365 * 86400, samesite="lax", httponly=True)
    return response
