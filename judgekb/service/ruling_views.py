"""Plain dicts the rulings templates render (templates only loop and print; Jinja escapes)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from judgekb.errors import JudgeKBError
from judgekb.index.request import SearchRequest
from judgekb.index.results import SearchResult
from judgekb.kb.accounts import Session
from judgekb.kb.model import Revision, Ruling
from judgekb.service.i18n import pick_lang
from judgekb.service.kbdeps import citing_rulings, page_session, ruling_hits
from judgekb.service.ruling_i18n import ruling_labels


def _cite(request: Request, ruling: Ruling, doc_id: str, clause_id: str) -> str | None:
    site = request.app.state.site
    try:
        return site.clause_url(ruling.game, clause_id, doc_id)  # type: ignore[no-any-return]
    except JudgeKBError:
        return None


def ruling_card(request: Request, ruling: Ruling) -> dict[str, Any]:
    """One ruling: tier, status, the cited clauses linked, old and new wording when stale."""
    games = request.app.state.site.store.games()
    return {
        "id": ruling.id,
        "url": ruling.url,
        "game": ruling.game,
        "game_name": games.get(ruling.game, ruling.game),
        "question": ruling.question,
        "answer": ruling.answer,
        "lang": ruling.lang,
        "tier": ruling.source.kind,
        "source_url": ruling.source.url,
        "event": ruling.source.event,
        "date": ruling.source.date,
        "status": ruling.status,
        "reason": ruling.reason,
        "needs_review": ruling.needs_review,
        "created_by": ruling.created_by,
        "created_at": ruling.created_at[:10],
        "cites": [
            {
                "clause_id": c.clause_id,
                "doc": c.doc_id,
                "url": _cite(request, ruling, c.doc_id, c.clause_id),
                "changed": c.changed,
                "old": c.cited_text,
                "new": c.current_text,
            }
            for c in ruling.cites
        ],
    }


def revision_rows(revs: list[Revision]) -> list[dict[str, Any]]:
    return [
        {
            "n": r.n,
            "at": r.at[:19].replace("T", " "),
            "actor": r.actor,
            "action": r.action,
            "note": r.note,
            "fields": sorted(k for k in r.changes if k != "citations"),
        }
        for r in revs
    ]


def account_context(request: Request, session: Session | None = None) -> dict[str, Any]:
    """``rt`` labels, the signed-in user (or None) and the CSRF token its forms carry."""
    session = session if session is not None else page_session(request)
    return {
        "rt": ruling_labels(pick_lang(request)),
        "me": session.user if session else None,
        "csrf": session.csrf if session else "",
    }


def search_rulings_context(
    request: Request, search: SearchRequest, result: SearchResult
) -> dict[str, Any]:
    """The ruling hits the results page shows under the rule hits."""
    hits = ruling_hits(request, search, result)
    return {
        "rt": ruling_labels(pick_lang(request)),
        "rulings": [ruling_card(request, h.ruling) for h in hits],
    }


def clause_rulings_context(request: Request, game: str, detail: dict[str, Any]) -> dict[str, Any]:
    """Published rulings citing the clause of a permalink page, strongest source first."""
    found = citing_rulings(request, game, detail["doc"], detail["clause_id"])
    return {
        "rt": ruling_labels(pick_lang(request)),
        "rulings": [ruling_card(request, r) for r in found],
    }
