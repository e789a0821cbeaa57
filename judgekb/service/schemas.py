"""Pydantic models at the HTTP boundary only (domain objects stay frozen dataclasses)."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field
from starlette.responses import JSONResponse


class SafeJSONResponse(JSONResponse):
    """UTF-8 JSON whose ``<``, ``>`` and ``&`` are written as ``\\u003c`` …, as Go's encoder does.

    Fixes: an echoed query or id can then never be read as markup by a browser that
    sniffs, and a probe payload never appears verbatim in any body.
    """

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        return text.encode("utf-8")


class ErrorBody(BaseModel):
    """The one error shape of every API route."""

    ok: Literal[False] = False
    error: str = Field(description="What went wrong and what to do next.")
    status: int = Field(description="The HTTP status, repeated.")
    suggestions: list[str] | None = Field(
        default=None, description="Nearest clause ids (404 clause)."
    )
    known: list[str] | None = Field(
        default=None, description="Valid values (unknown game/document)."
    )
    field: str | None = Field(default=None, description="The parameter at fault (422).")

    def body(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class GameOut(BaseModel):
    slug: str
    name: str
    documents: list[str]
    url: str


class DocumentOut(BaseModel):
    doc_id: str
    game: str
    game_name: str
    title: str
    lang: str
    version: str
    effective_date: str
    kind: str
    amends: str | None = None
    clauses: int


class Health(BaseModel):
    ok: bool
    generation: str | None = Field(description="Id of the generation being served.")
    games: int
    documents: int
    clauses: int
    checks: dict[str, str] = Field(description="Each check (store, index) and its result.")
    store: dict[str, str] = Field(description="Clause store schema and corpus hash.")
    manifest: dict[str, Any] = Field(description="The loaded index's manifest.")


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 404, 413, 422, 503)
}
