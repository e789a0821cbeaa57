"""Editions over HTTP: "What changed" pages, the diff as JSON, and the list of editions."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from judgekb.corpus.edition_store import diff_of_versions
from judgekb.corpus.editions import in_force, parse_day
from judgekb.service.api import DateQ, site_of
from judgekb.service.edition_views import changes_view
from judgekb.service.render import render
from judgekb.service.schemas import ERROR_RESPONSES, SafeJSONResponse

router = APIRouter(responses=ERROR_RESPONSES)

Family = Annotated[str, Path(description="Rulebook family, e.g. gundam-cr.")]
FromVersion = Annotated[
    str | None,
    Query(alias="from", description="Older edition (default: the one before `to`)."),
]
ToVersion = Annotated[str | None, Query(alias="to", description="Newer edition (default: newest).")]
UiLang = Annotated[str | None, Query(description="UI language: en, th or ms.")]


@router.get(
    "/api/diff/{family}",
    summary="What changed between two editions (same JSON as `judgekb diff --json`)",
    response_class=SafeJSONResponse,
)
def api_diff(
    request: Request, family: Family, from_: FromVersion = None, to: ToVersion = None
) -> Any:
    site = site_of(request)
    return diff_of_versions(site.editions, family, from_, to).to_json()


@router.get(
    "/api/editions",
    summary="Every rulebook family with its editions",
    response_class=SafeJSONResponse,
)
def api_editions(request: Request, date: DateQ = None) -> Any:
    site = site_of(request)
    out = []
    for family, eds in site.editions.families().items():
        current = in_force(eds, parse_day(date))
        out.append(
            {
                "family": family,
                "game": eds[0].game,
                "editions": [
                    {
                        "doc": d.doc_id,
                        "version": d.version,
                        "effective_date": d.effective_date,
                        "in_force": d.doc_id == current.doc_id,
                    }
                    for d in eds
                ],
            }
        )
    return out


@router.get("/changes", response_class=HTMLResponse, include_in_schema=False)
def changes_index(request: Request, lang: UiLang = None) -> Response:
    site = site_of(request)
    families = [
        {"family": f, "title": eds[-1].title, "editions": eds}
        for f, eds in site.editions.families().items()
    ]
    return render(request, "changes_index.html", {"families": families})


@router.get("/changes/{family}", response_class=HTMLResponse, include_in_schema=False)
def changes_page(
    request: Request,
    family: str,
    from_: FromVersion = None,
    to: ToVersion = None,
    lang: UiLang = None,
) -> Response:
    """A redline per changed clause, renumbered clauses with both numbers, a chapter summary."""
    site = site_of(request)
    diff = diff_of_versions(site.editions, family, from_, to)
    eds = site.editions.family_editions(family)
    return render(request, "changes.html", {"d": changes_view(site, diff), "editions": eds})
