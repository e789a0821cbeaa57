"""HTML pages: home, search results, clause permalinks, tables of contents, offline API docs."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judgekb.corpus.export import clause_detail
from judgekb.index.query import parse_query
from judgekb.index.request import SearchRequest
from judgekb.service.admission import arrival
from judgekb.service.api import DocId, GameSlug, QueryText, run_search, site_of
from judgekb.service.render import render
from judgekb.service.views import clause_view, games_view, hit_view, search_status, toc_view

router = APIRouter(default_response_class=HTMLResponse, include_in_schema=False)

UiLang = Annotated[str | None, Query(description="UI language: en, th or ms.")]


@router.get("/")
def home(request: Request, lang: UiLang = None) -> Response:
    return render(request, "index.html", {"games": games_view(site_of(request))})


@router.get("/search")
def search_page(
    request: Request,
    q: QueryText = "",
    game: GameSlug = None,
    k: Annotated[int, Query(ge=1, le=50)] = 10,
    lang: UiLang = None,
) -> Response:
    """Cited hits; a clause number typed as the query goes straight to its permalink."""
    site = site_of(request)
    game = game or None
    result = run_search(site, SearchRequest.of(q, game=game, k=k), arrival(request))
    top = result.hits[0] if result.hits else None
    if top and top.via == "lookup" and result.confidence == "high" and _only_a_number(q):
        return RedirectResponse(site.clause_url(top.game, top.clause_id, top.doc_id), 303)
    return render(
        request,
        "search.html",
        {
            "q": q,
            "game": game,
            "filter_game": game,
            "took_ms": round(result.took_ms, 1),
            "hits": [hit_view(site, h) for h in result.hits],
            "status": search_status(site, request, result),
        },
    )


def _only_a_number(q: str) -> bool:
    """A query that is one clause number (and its clause word) opens the clause at once."""
    pq = parse_query(q)
    return len(pq.mentions) == 1 and pq.bare


@router.get("/rules/{game}")
def toc_page(request: Request, game: str, lang: UiLang = None) -> Response:
    site = site_of(request)
    site.store.check_game(game)
    return render(
        request,
        "toc.html",
        {
            "game": game,
            "game_name": site.store.games()[game],
            "docs": toc_view(site, game),
        },
    )


@router.get("/rules/{game}/{clause_id:path}")
def clause_page(
    request: Request, game: str, clause_id: str, doc: DocId = None, lang: UiLang = None
) -> Response:
    """The permalink of one clause (``?doc=`` picks a document where a game has several)."""
    site = site_of(request)
    site.store.check_game(game)
    if not clause_id.strip("/"):
        return RedirectResponse(f"/rules/{game}", 303)
    detail = clause_detail(site.store, game, clause_id.rstrip("."), site.game_doc(game, doc))
    return render(request, "clause.html", {"game": game, "c": clause_view(site, game, detail)})


def _endpoints(schema: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for path, ops in schema.get("paths", {}).items():
        for method, op in ops.items():
            out.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": op.get("summary", ""),
                    "params": [
                        {
                            "name": p["name"],
                            "in": p["in"],
                            "required": p.get("required", False),
                            "description": p.get("description", ""),
                        }
                        for p in op.get("parameters", [])
                    ],
                }
            )
    return out


@router.get("/docs")
def api_docs(request: Request, lang: UiLang = None) -> Response:
    """Offline API docs listing every endpoint of the OpenAPI schema (no CDN Swagger UI)."""
    return render(request, "docs.html", {"endpoints": _endpoints(request.app.openapi())})
