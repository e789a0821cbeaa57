"""Pydantic models of the rulings API (the HTTP boundary only; limits from kb.model.LIMITS)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from judgekb.kb.model import LIMITS, Draft, RulingLang, Source, SourceKind, Status


class SourceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: SourceKind = Field(
        description="official | head-judge | judge | community (authority order)."
    )
    url: str = Field(
        "", max_length=LIMITS["url"], description="Publisher Q&A or errata (official)."
    )
    event: str = Field("", max_length=LIMITS["event"], description="Event name (head-judge).")
    date: str = Field("", max_length=10, description="YYYY-MM-DD (official and head-judge).")


class RulingIn(BaseModel):
    """A ruling to submit or the new content of one to edit."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=LIMITS["game"], description="Game slug, e.g. summoner-master.")
    question: str = Field(max_length=LIMITS["question"])
    answer: str = Field(max_length=LIMITS["answer"])
    cites: list[str] = Field(
        min_length=1,
        max_length=LIMITS["cites"],
        description="Clause ids of the game as printed, e.g. ['602.1.4'].",
    )
    lang: RulingLang = Field(description="Language of the ruling: th, ms or en.")
    source: SourceIn
    note: str = Field("", max_length=LIMITS["reason"], description="Why (edits only).")

    def draft(self) -> Draft:
        s = self.source
        return Draft(
            self.game,
            self.question,
            self.answer,
            tuple(c[: LIMITS["clause_id"] + 1] for c in self.cites),
            self.lang,
            Source(s.kind, s.url, s.event, s.date),
        )


class ReviewIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field("", max_length=LIMITS["reason"], description="Required to reject.")


class CitationOut(BaseModel):
    doc: str
    clause_id: str
    cited_text: str = Field(description="The clause text when the ruling cited it.")
    current_text: str | None = Field(description="The changed text (needs review), else null.")
    url: str | None = None


class RulingOut(BaseModel):
    id: int
    url: str
    game: str
    question: str
    answer: str
    lang: str
    source: dict[str, str]
    cites: list[CitationOut]
    status: Status
    reason: str
    needs_review: bool
    created_by: str
    created_at: str
    updated_at: str
    revision: int


class RevisionOut(BaseModel):
    n: int
    at: str
    actor: str
    action: str
    changes: dict[str, Any]
    note: str


class RulingEnvelope(BaseModel):
    ok: Literal[True] = True
    ruling: RulingOut
    revisions: list[RevisionOut] | None = Field(None, description="Full history (reviewers).")


class RulingList(BaseModel):
    ok: Literal[True] = True
    count: int
    rulings: list[RulingOut]


class AuditOut(BaseModel):
    ok: Literal[True] = True
    entries: list[dict[str, Any]]
