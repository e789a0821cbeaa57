"""The rulings JSON API: submit, edit, review (approve / reject / retract), list, read, audit.

Writes need ``Authorization: Bearer <token>``: none or a bad one is 401, a role that may not
is 403. Every error has the service's one shape ``{"ok": false, "error": ..., "status": N}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from judgekb.errors import Forbidden, Unauthorized
from judgekb.kb.model import STATUSES, Actor, Ruling, Status
from judgekb.service.kbdeps import api_actor, kb_of, require_api_actor, require_reviewer
from judgekb.service.ruling_schemas import (
    AuditOut,
    ReviewIn,
    RulingEnvelope,
    RulingIn,
    RulingList,
)
from judgekb.service.schemas import ERROR_RESPONSES, ErrorBody, SafeJSONResponse

KB_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    **{code: {"model": ErrorBody} for code in (401, 403, 409, 429)},
}
router = APIRouter(
    prefix="/api", tags=["rulings"], responses=KB_ERRORS, default_response_class=SafeJSONResponse
)

# Dependencies run before the body is validated: an anonymous write is 401 whatever it sends.
Writer = Annotated[Actor, Depends(require_api_actor)]


def _reviewer(request: Request) -> Actor:
    return require_reviewer(require_api_actor(request))


Reviewer = Annotated[Actor, Depends(_reviewer)]
# A database integer: larger numbers name no ruling (and would overflow SQLite's INTEGER).
MAX_RULING_ID = 2**63 - 1
RulingId = Annotated[
    int,
    Path(ge=1, le=MAX_RULING_ID, description="The ruling's number (its permalink /rulings/{id})."),
]


def ruling_json(request: Request, ruling: Ruling) -> dict[str, Any]:
    """A ruling with the permalink of each cited clause."""
    site = request.app.state.site
    body = ruling.to_json()
    for cite in body["cites"]:
        try:
            cite["url"] = site.clause_url(ruling.game, cite["clause_id"], cite["doc"])
        except Exception:  # a game gone from a rebuilt corpus: the citation stays, unlinked
            cite["url"] = None
    return body


def _envelope(request: Request, ruling: Ruling, with_history: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"ok": True, "ruling": ruling_json(request, ruling)}
    if with_history:
        revs = kb_of(request).rulings.revisions(ruling.id)
        out["revisions"] = [r.to_json() for r in revs]
    return out


@router.post(
    "/rulings",
    status_code=201,
    response_model=RulingEnvelope,
    response_model_exclude_unset=True,
    summary="Submit a ruling (Bearer token; it starts pending)",
)
def submit_ruling(request: Request, actor: Writer, body: RulingIn) -> Any:
    ruling = kb_of(request).rulings.submit(body.draft(), actor)
    return _envelope(request, ruling)


@router.put(
    "/rulings/{ruling_id}",
    response_model=RulingEnvelope,
    response_model_exclude_unset=True,
    summary="Edit a ruling (its author while pending; a head judge or admin always)",
)
def edit_ruling(request: Request, actor: Writer, ruling_id: RulingId, body: RulingIn) -> Any:
    ruling = kb_of(request).rulings.edit(ruling_id, body.draft(), actor, body.note)
    return _envelope(request, ruling)


def _review(
    request: Request, actor: Actor, ruling_id: int, action: str, body: ReviewIn | None
) -> Any:
    reason = body.reason if body else ""
    ruling = kb_of(request).rulings.review(ruling_id, action, actor, reason)
    return _envelope(request, ruling)


@router.post(
    "/rulings/{ruling_id}/approve",
    response_model=RulingEnvelope,
    response_model_exclude_unset=True,
    summary="Publish a pending ruling, or confirm a published one flagged needs-review",
)
def approve_ruling(
    request: Request, actor: Reviewer, ruling_id: RulingId, body: ReviewIn | None = None
) -> Any:
    return _review(request, actor, ruling_id, "approve", body)


@router.post(
    "/rulings/{ruling_id}/reject",
    response_model=RulingEnvelope,
    response_model_exclude_unset=True,
    summary="Reject a pending ruling, with a reason (head judge or admin)",
)
def reject_ruling(request: Request, actor: Reviewer, ruling_id: RulingId, body: ReviewIn) -> Any:
    return _review(request, actor, ruling_id, "reject", body)


@router.post(
    "/rulings/{ruling_id}/retract",
    response_model=RulingEnvelope,
    response_model_exclude_unset=True,
    summary="Retract a published ruling (it stays at its permalink, marked retracted)",
)
def retract_ruling(
    request: Request, actor: Reviewer, ruling_id: RulingId, body: ReviewIn | None = None
) -> Any:
    return _review(request, actor, ruling_id, "retract", body)


@router.get(
    "/rulings",
    response_model=RulingList,
    summary="List rulings by game, cited clause and status (other than published: reviewers)",
)
def list_rulings(
    request: Request,
    game: Annotated[str | None, Query(max_length=64, description="Game slug.")] = None,
    clause: Annotated[str | None, Query(max_length=64, description="A cited clause id.")] = None,
    status: Annotated[Status, Query(description=f"One of {', '.join(STATUSES)}.")] = "published",
    needs_review: Annotated[
        bool | None, Query(description="Only rulings flagged needs-review (or not).")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_RULING_ID)] = 0,
) -> Any:
    actor = api_actor(request)
    if status not in ("published", "retracted"):
        require_reviewer(actor)
    found = kb_of(request).rulings.find(
        game=game or None,
        clause=(clause or "").rstrip(".") or None,
        status=status,
        limit=limit,
        offset=offset,
        needs_review=needs_review,
    )
    return {"ok": True, "count": len(found), "rulings": [ruling_json(request, r) for r in found]}


@router.get(
    "/rulings/{ruling_id}",
    response_model=RulingEnvelope,
    response_model_exclude_unset=True,
    summary="One ruling; with its full revision history for head judges and admins",
)
def get_ruling(request: Request, ruling_id: RulingId) -> Any:
    actor = api_actor(request)
    ruling = kb_of(request).rulings.get(ruling_id, actor)
    return _envelope(request, ruling, with_history=actor is not None and actor.reviewer)


@router.get("/audit", response_model=AuditOut, summary="The newest audit log entries (admins)")
def audit_log(request: Request, limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> Any:
    actor = api_actor(request)
    if actor is None:
        raise Unauthorized("the audit log needs an admin's API token")
    if actor.role != "admin":
        raise Forbidden(f"{actor.name} is a {actor.role}; the audit log is for admins")
    return {"ok": True, "entries": kb_of(request).rulings.audit_entries(limit)}
