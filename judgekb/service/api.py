"""JSON API under /api/ and /healthz: thin wiring over the searcher and the clause store."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from judgekb.corpus.export import clause_detail
from judgekb.index.query import validate_query
from judgekb.index.request import (
    MAX_K,
    ClauseKind,
    DocKind,
    DocLang,
    Mode,
    Scope,
    SearchRequest,
)
from judgekb.index.results import SearchResult
from judgekb.service.admission import arrival
from judgekb.service.schemas import (
    ERROR_RESPONSES,
    DocumentOut,
    GameOut,
    Health,
    SafeJSONResponse,
)
from judgekb.service.site import Site

router = APIRouter(responses=ERROR_RESPONSES, default_response_class=SafeJSONResponse)

QueryText = Annotated[str, Query(description="A question, or a clause number to look up.")]
GameSlug = Annotated[str | None, Query(description="Game slug, e.g. summoner-master.")]
DocId = Annotated[str | None, Query(description="Document id, e.g. sm-decree-2009.")]


def site_of(request: Request) -> Site:
    return request.app.state.site  # type: ignore[no-any-return]


def run_search(site: Site, request: SearchRequest, arrived: float | None = None) -> SearchResult:
    """Validate at once (empty 400, too long 413, unknown game/doc 404), then search.

    ``arrived`` (when admission let the HTTP request in) sets the search's deadline.
    """
    validate_query(request.text, site.settings.max_query_chars)
    scope = request.scope
    if scope.game:
        site.store.check_game(scope.game)
        site.game_doc(scope.game, scope.doc)
    elif scope.doc:
        site.store.document(scope.doc)
    return site.searcher.search(replace(request, deadline=site.admission.deadline(arrived)))


@router.get("/api/search", summary="Search the rules (same JSON as `judgekb search --json`)")
def api_search(
    request: Request,
    q: QueryText,
    game: GameSlug = None,
    k: Annotated[int, Query(ge=1, le=MAX_K, description="Number of hits.")] = 10,
    mode: Annotated[Mode, Query(description="Retrieval mode.")] = "hybrid",
    doc: DocId = None,
    kind: Annotated[ClauseKind | None, Query(description="Only clauses of this kind.")] = None,
    doc_kind: Annotated[
        DocKind | None, Query(description="Only rulebooks or only amendments.")
    ] = None,
    lang: Annotated[
        DocLang | None, Query(description="Only documents in this language (th, ms).")
    ] = None,
) -> Any:
    scope = Scope(game=game, doc=doc, doc_kind=doc_kind, clause_kind=kind, lang=lang)
    search = SearchRequest(q, scope, k, mode)
    return run_search(site_of(request), search, arrival(request)).to_json()


@router.get("/api/clauses/{game}/{clause_id:path}", summary="One clause with its neighbourhood")
def api_clause(
    request: Request,
    game: Annotated[str, Path(description="Game slug.")],
    clause_id: Annotated[str, Path(description="Clause id as printed, e.g. 602.1.4.")],
    doc: DocId = None,
) -> Any:
    site = site_of(request)
    site.store.check_game(game)
    return clause_detail(site.store, game, clause_id.rstrip("."), site.game_doc(game, doc))


@router.get("/api/games", summary="Games and their documents", response_model=list[GameOut])
def api_games(request: Request) -> Any:
    store = site_of(request).store
    return [
        GameOut(
            slug=g, name=name, url=f"/rules/{g}", documents=[d.doc_id for d in store.docs_of(g)]
        )
        for g, name in store.games().items()
    ]


@router.get(
    "/api/documents",
    summary="Every document with version and date",
    response_model=list[DocumentOut],
)
def api_documents(request: Request) -> Any:
    site = site_of(request)
    store, counts = site.store, site.doc_counts
    return [
        DocumentOut(
            doc_id=d.doc_id,
            game=d.game,
            game_name=d.game_name,
            title=d.title,
            lang=d.lang,
            version=d.version,
            effective_date=d.effective_date,
            kind=d.kind,
            amends=d.amends,
            clauses=counts[d.doc_id],
        )
        for d in store.documents()
    ]


@router.get("/healthz", summary="Liveness and the loaded index manifest", response_model=Health)
def healthz(request: Request) -> Any:
    site = site_of(request)
    store = site.store
    return Health(
        ok=True,
        games=len(store.games()),
        documents=len(store.documents()),
        clauses=site.clause_count,
        store=dict(store.meta),
        manifest=dict(getattr(site.searcher, "manifest", {}) or {}),
    )
