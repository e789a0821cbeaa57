"""HTML pages: home, search results, clause permalinks, tables of contents, offline API docs."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import parse_qsl, urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from judgekb.config import Settings
from judgekb.corpus.export import clause_detail
from judgekb.index.request import SearchRequest
from judgekb.index.results import SearchResult
from judgekb.service.admission import arrival
from judgekb.service.answer import on_card
from judgekb.service.api import (
    DateQ,
    DocId,
    EditionQ,
    GameSlug,
    QueryText,
    page_card,
    run_search,
    site_of,
)
from judgekb.service.edition_views import edition_panel, resolve_clause, search_editions
from judgekb.service.i18n import pick_lang
from judgekb.service.render import render
from judgekb.service.ruling_views import clause_rulings_context, search_rulings_context
from judgekb.service.views import (
    card_view,
    clause_view,
    games_view,
    hit_view,
    search_status,
    toc_view,
)

router = APIRouter(default_response_class=HTMLResponse, include_in_schema=False)

UiLang = Annotated[str | None, Query(description="UI language: en, th or ms.")]
# what a judge typed to open a clause by number: shown again in the page's search box
TypedQ = Annotated[str, Query(max_length=Settings.model_fields["max_query_chars"].default)]


@router.get("/")
def home(request: Request, lang: UiLang = None) -> Response:
    """The search page; an address with a question (``/?q=…&game=…``, as people share
    links) is the search it asks for."""
    if request.query_params.get("q", "").strip():
        return RedirectResponse(f"/search?{request.url.query}", 303)
    return render(request, "index.html", {"games": games_view(site_of(request))})


@router.get("/search")
def search_page(
    request: Request,
    q: QueryText = "",
    game: GameSlug = None,
    k: Annotated[int, Query(ge=1, le=50)] = 10,
    edition: EditionQ = None,
    date: DateQ = None,
    lang: UiLang = None,
) -> Response:
    """Cited hits; a clause number typed as the query goes straight to its permalink."""
    site = site_of(request)
    game = game or None
    search = SearchRequest.of(q, game=game, k=k, edition=edition, date=date)
    result = run_search(site, search, arrival(request))
    top = result.hits[0] if result.hits else None
    renumbered = bool(result.renumbered)  # stay: the page says where the old number went
    one = result.lookup == "found" and _only_one_number(result)
    if top is not None and top.via == "lookup" and one and not renumbered:
        url = site.clause_url(top.game, top.clause_id, top.doc_id)
        # the clause page keeps what was typed (in its search box), the page's language and
        # the edition or date asked for
        path, _, pinned = url.partition("?")
        params = dict(parse_qsl(pinned))
        kept = {"q": q, "lang": lang, "edition": edition, "date": date}
        params.update({k: v for k, v in kept.items() if v and k not in params})
        return RedirectResponse(f"{path}?{urlencode(params)}", 303)
    card = page_card(request, result)
    shown = on_card(card)
    return render(
        request,
        "search.html",
        {
            "q": q,
            "game": game,
            "filter_game": game,
            "took_ms": round(result.took_ms, 1),
            "hits": [hit_view(site, h) for h in result.hits],
            "card": card_view(site, card, pick_lang(request)),
            # the other candidates: the hits the card does not already show
            "others": [
                hit_view(site, h) for h in result.hits if (h.doc_id, h.clause_id) not in shown
            ],
            "status": search_status(site, request, result),
            **search_rulings_context(request, search, result),  # under the rules, never among
            "editions": search_editions(site, result, date, edition),
        },
    )


def _only_one_number(result: SearchResult) -> bool:
    """A query that is one clause number (with its clause word or game name) opens the clause
    at once."""
    return result.bare and sum(h.via == "lookup" for h in result.hits) == 1


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
    request: Request,
    game: str,
    clause_id: str,
    doc: DocId = None,
    edition: EditionQ = None,
    date: DateQ = None,
    lang: UiLang = None,
    q: TypedQ = "",
) -> Response:
    """The permalink of one clause (``?doc=`` picks a document where a game has several;
    ``?edition=`` pins an edition, ``?date=`` the edition in force that day)."""
    site = site_of(request)
    site.store.check_game(game)
    if not clause_id.strip("/"):
        return RedirectResponse(f"/rules/{game}", 303)
    r = resolve_clause(site, game, clause_id.rstrip("."), site.game_doc(game, doc), edition, date)
    detail = clause_detail(site.store, game, r.clause_id, r.doc_id)
    ed = edition_panel(site, game, r, date, detail["history"])
    asked = clause_id.rstrip(".")
    alias = asked if asked != r.clause_id and not r.asked else ""  # a misprint's intended id
    ctx = {"c": clause_view(site, game, detail, pick_lang(request), alias), "ed": ed}
    ctx.update(clause_rulings_context(request, game, detail))
    return render(request, "clause.html", {"game": game, "q": q, **ctx})


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
