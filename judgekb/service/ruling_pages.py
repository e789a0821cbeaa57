"""Rulings pages: list, permalink (with history and review forms for reviewers), submit form,
review queue. Reading is open to everyone (published and retracted rulings); every form post
needs a session and its CSRF token (none: 401; a bad token or too low a role: 403)."""

from __future__ import annotations

import re
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judgekb.errors import QueryError, ValidationFailed
from judgekb.index.query import clause_id_candidates, is_clause_word
from judgekb.kb.accounts import Session
from judgekb.kb.model import RULING_LANGS, SOURCE_KINDS, Draft, Source
from judgekb.service.i18n import LANG_NAMES, pick_lang
from judgekb.service.kbdeps import (
    actor_of,
    check_csrf,
    kb_of,
    page_session,
    read_form,
    require_reviewer,
    require_session,
)
from judgekb.service.render import render
from judgekb.service.ruling_views import account_context, revision_rows, ruling_card
from judgekb.service.rulings import RulingId

router = APIRouter(default_response_class=HTMLResponse, include_in_schema=False)

Short = Annotated[str | None, Query(max_length=64)]
REVIEW_ACTIONS = ("approve", "reject", "retract")


def cited_ids(text: str) -> tuple[str, ...]:
    """The clause ids of the form's cites field, each written as a judge writes a number in
    a search ("§103.4", "ข้อ ๑๐๓.๔", "peraturan 10.5.1.2"; separated by commas, semicolons,
    spaces or lines): its id, else the word as typed (an unknown one is named by the form)."""
    out: list[str] = []
    for word in re.split(r"[\s,;]+", text):
        if not word or is_clause_word(word):
            continue
        try:
            ids = clause_id_candidates(word)
        except QueryError:
            ids = ()
        out.append(ids[0] if ids else word)
    return tuple(out)


def _to_login(request: Request) -> Response:
    """Sign in first, then back to this very page, its query too ("?game=vanguard&cite=…")."""
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(here, safe='/')}", 303)


@router.get("/rulings")
def rulings_page(
    request: Request, game: Short = None, clause: Short = None, status: Short = None
) -> Response:
    """Published rulings (newest first), by game or cited clause; reviewers pick a status."""
    session = page_session(request)
    if status and status not in ("published", "retracted"):
        require_reviewer(actor_of(require_session(request).user, request))
    found = kb_of(request).rulings.find(
        game=game or None, clause=clause or None, status=status or "published"
    )
    return render(
        request,
        "rulings.html",
        {
            **account_context(request, session),
            "rulings": [ruling_card(request, r) for r in found],
            "filter_status": status or "published",
        },
    )


FORM_FIELDS = (
    "game",
    "question",
    "answer",
    "cites",
    "lang",
    "source_kind",
    "source_url",
    "event",
    "date",
)


def _form_context(request: Request, session: Session, values: dict[str, str]) -> dict[str, Any]:
    values = {k: values.get(k, "") for k in (*FORM_FIELDS, "_message")}
    return {
        **account_context(request, session),
        "values": values,
        "source_kinds": SOURCE_KINDS,
        "langs": {lang: LANG_NAMES.get(lang, lang) for lang in RULING_LANGS},
        "message": values.get("_message", ""),
    }


@router.get("/rulings/new")
def submit_form(request: Request, game: Short = None, cite: Short = None) -> Response:
    session = page_session(request)
    if session is None:
        return _to_login(request)
    # the ruling's language starts as the page's: a Malay judge writes in Malay
    lang = pick_lang(request)
    values = {"game": game or "", "cites": cite or "", "lang": lang, "source_kind": "judge"}
    return render(request, "ruling_form.html", _form_context(request, session, values))


@router.post("/rulings/new")
async def submit(request: Request) -> Response:
    form = await read_form(request)
    session = require_session(request)
    check_csrf(session.csrf, form.get("csrf"))
    draft = Draft(
        form.get("game", ""),
        form.get("question", ""),
        form.get("answer", ""),
        cited_ids(form.get("cites", "")),
        form.get("lang", ""),
        Source(
            form.get("source_kind", ""),
            form.get("source_url", ""),
            form.get("event", ""),
            form.get("date", ""),
        ),
    )
    try:
        ruling = kb_of(request).rulings.submit(draft, actor_of(session.user, request))
    except ValidationFailed as exc:
        values = {**form, "_message": exc.message}
        return render(
            request, "ruling_form.html", _form_context(request, session, values), status_code=422
        )
    return RedirectResponse(ruling.url, 303)


@router.get("/rulings/{ruling_id}")
def ruling_page(request: Request, ruling_id: RulingId) -> Response:
    """The permalink: anyone sees published and retracted rulings; reviewers and the author
    also pending and rejected ones; reviewers see the history and the review forms."""
    session = page_session(request)
    viewer = actor_of(session.user, request) if session else None
    kb = kb_of(request)
    ruling = kb.rulings.get(ruling_id, viewer)
    reviewer = viewer is not None and viewer.reviewer
    return render(
        request,
        "ruling.html",
        {
            **account_context(request, session),
            "r": ruling_card(request, ruling),
            "history": revision_rows(kb.rulings.revisions(ruling.id)) if reviewer else [],
            "reviewer": reviewer,
        },
    )


@router.post("/rulings/{ruling_id}/review")
async def review(request: Request, ruling_id: RulingId) -> Response:
    form = await read_form(request)
    session = require_session(request)
    check_csrf(session.csrf, form.get("csrf"))
    actor = require_reviewer(actor_of(session.user, request))
    action = form.get("action", "")
    if action not in REVIEW_ACTIONS:
        raise ValidationFailed(f"action must be one of {', '.join(REVIEW_ACTIONS)}", "action")
    ruling = kb_of(request).rulings.review(ruling_id, action, actor, form.get("reason", ""))
    return RedirectResponse(ruling.url, 303)


@router.get("/review")
def review_queue(request: Request) -> Response:
    """Pending rulings (oldest first) and published ones flagged needs-review; a judge who
    does not review sees their own rulings waiting for review, and their own flagged ones."""
    session = page_session(request)
    if session is None:
        return _to_login(request)
    mine = None if actor_of(session.user, request).reviewer else session.user.name
    repo = kb_of(request).rulings
    pending = sorted(repo.find(status="pending", limit=200, created_by=mine), key=lambda r: r.id)
    stale = repo.find(status="published", needs_review=True, limit=200, created_by=mine)
    return render(
        request,
        "review.html",
        {
            **account_context(request, session),
            "pending": [ruling_card(request, r) for r in pending],
            "stale": [ruling_card(request, r) for r in stale],
        },
    )
