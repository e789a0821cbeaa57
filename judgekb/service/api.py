"""JSON API under /api/ and /healthz: thin wiring over the searcher and the clause store."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BeforeValidator

from judgekb.config import Settings
from judgekb.corpus.export import clause_detail
from judgekb.index.query import QUERY_PATTERN, validate_query
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
from judgekb.service.answer import build_card
from judgekb.service.health import check_health
from judgekb.service.i18n import UiLang, pick_lang
from judgekb.service.kbdeps import citing_rulings, search_json
from judgekb.service.schemas import (
    ERROR_RESPONSES,
    DocumentOut,
    GameOut,
    Health,
    SafeJSONResponse,
)
from judgekb.service.site import Site

router = APIRouter(responses=ERROR_RESPONSES, default_response_class=SafeJSONResponse)

# The schema says what validate_query accepts (checked there, answering 400 / 413 in the
# error shape rather than FastAPI's 422), so that clients and schemathesis know it.
QueryText = Annotated[
    str,
    Query(
        description=(
            "A question, or a clause number to look up: at least one visible character, no "
            "control or text-direction override characters; longer than the server's limit "
            "(1000 by default) is a 413."
        ),
        json_schema_extra={
            "minLength": 1,
            "maxLength": Settings.model_fields["max_query_chars"].default,
            "pattern": QUERY_PATTERN,
        },
    ),
]
GameSlug = Annotated[str | None, Query(description="Game slug, e.g. summoner-master.")]
DocId = Annotated[str | None, Query(description="Document id, e.g. sm-decree-2009.")]
EditionQ = Annotated[
    str | None, Query(description="An edition by its printed version, e.g. Ver.1.1.0.")
]
DateQ = Annotated[
    str | None,
    Query(
        description="YYYY-MM-DD: the rules in force that day (default today); another form "
        "is a 400.",
        min_length=1,
        json_schema_extra={"format": "date"},
    ),
]


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


@router.get(
    "/api/search",
    summary="Search the rules (JSON of `judgekb search --json`), published rulings after them",
)
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
    edition: EditionQ = None,
    date: DateQ = None,
) -> Any:
    scope = Scope(game, doc, doc_kind, kind, lang, edition, date)
    search = SearchRequest(q, scope, k, mode)
    return search_json(request, search, run_search(site_of(request), search, arrival(request)))


CardLang = Annotated[
    # "lang=" (empty, as a form sends it) is the default, as "game=" is; the schema says so
    UiLang | Literal[""] | None,
    BeforeValidator(lambda v: v or None),
    Query(description="Language of the card's citation and notes (empty or absent: the judge's)."),
]


def page_card(request: Request, result: SearchResult, lang: str | None = None) -> dict[str, Any]:
    """The answer card of a search already run, in ``lang`` (default: the judge's), with the
    published rulings that cite the answer."""
    card = build_card(site_of(request), result, lang or pick_lang(request))
    answer = card["answer"]
    if answer is not None:
        rulings = citing_rulings(request, answer["game"], answer["doc"], answer["clause_id"])
        answer["rulings"] = [r.to_json() for r in rulings]
    return card


@router.get(
    "/api/answer",
    summary="The answer card: the governing clause verbatim, with its answer sentences, "
    "context, references, definitions, other wordings, known problems and one citation",
)
def api_answer(
    request: Request,
    q: QueryText,
    game: GameSlug = None,
    lang: CardLang = None,
    edition: EditionQ = None,
    date: DateQ = None,
) -> Any:
    t0 = time.perf_counter()
    search = SearchRequest(q, Scope(game=game, edition=edition, date=date))
    result = run_search(site_of(request), search, arrival(request))
    card = page_card(request, result, lang)
    card["took_ms"] = round((time.perf_counter() - t0) * 1000, 2)  # the search and the card
    return card


@router.get("/api/clauses/{game}/{clause_id:path}", summary="One clause with its neighbourhood")
def api_clause(
    request: Request,
    game: Annotated[str, Path(description="Game slug.")],
    clause_id: Annotated[str, Path(description="Clause id as printed, e.g. 602.1.4.")],
    doc: DocId = None,
    edition: EditionQ = None,
    date: DateQ = None,
) -> Any:
    from judgekb.service.edition_views import renumbered_from, resolve_clause

    site = site_of(request)
    site.store.check_game(game)
    r = resolve_clause(site, game, clause_id.rstrip("."), site.game_doc(game, doc), edition, date)
    detail = clause_detail(site.store, game, r.clause_id, r.doc_id)
    asked = renumbered_from(r)
    if asked is not None:  # an older edition's number: say which clause it means now
        detail["renumbered_from"] = asked
        detail["removed_in"] = r.removed_in.version if r.removed_in else None
    cited = citing_rulings(request, game, detail["doc"], detail["clause_id"])
    return {**detail, "rulings": [r.to_json() for r in cited]}  # published, strongest first


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


@router.get(
    "/healthz",
    summary="Ready to serve: store readable, index loaded; the generation served",
    response_model=Health,
)
def healthz(request: Request) -> Any:
    """503 in the error shape when the store or the index cannot serve a request."""
    return check_health(site_of(request))
