"""Domain objects of the knowledge base (frozen dataclasses) and the one list of each choice.

Size limits live here too: the HTTP models, the web forms and ``judgekb rulings import`` all
check a ruling through :func:`check_draft`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, get_args

from judgekb.errors import ValidationFailed

Role = Literal["judge", "head-judge", "admin"]
SourceKind = Literal["official", "head-judge", "judge", "community"]
Status = Literal["pending", "published", "rejected", "retracted"]
RulingLang = Literal["th", "ms", "en"]

ROLES: tuple[str, ...] = get_args(Role)  # in order of power
SOURCE_KINDS: tuple[str, ...] = get_args(SourceKind)  # in order of authority
STATUSES: tuple[str, ...] = get_args(Status)
RULING_LANGS: tuple[str, ...] = get_args(RulingLang)
REVIEWER_ROLES = frozenset({"head-judge", "admin"})

# What each status may become, and by which action (nothing is ever deleted). A rejected
# ruling stays rejected: retracting it would make it public (retracted rulings are listed).
TRANSITIONS: dict[str, dict[str, str]] = {
    "approve": {"pending": "published", "published": "published"},  # re-approve = confirm
    "reject": {"pending": "rejected"},
    "retract": {"published": "retracted"},
}
DONE = {"approve": "approved", "reject": "rejected", "retract": "retracted"}

LIMITS = {
    "game": 64,
    "question": 2000,
    "answer": 8000,
    "clause_id": 64,
    "cites": 20,
    "url": 500,
    "event": 200,
    "reason": 2000,
    "name": 64,
    "password_min": 10,
    "password": 256,
}
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def now_iso() -> str:
    """UTC time as stored everywhere: ISO 8601 with microseconds and ``Z`` (sorts as text)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def tier(kind: str) -> int:
    """Authority of a source kind: 0 is the highest (``official``)."""
    return SOURCE_KINDS.index(kind)


@dataclass(frozen=True)
class Source:
    """Where a ruling comes from."""

    kind: str
    url: str = ""
    event: str = ""
    date: str = ""

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "url": self.url, "event": self.event, "date": self.date}


@dataclass(frozen=True)
class Citation:
    """A cited clause and its text when it was cited; ``current_text`` once it changed."""

    doc_id: str
    clause_id: str
    cited_text: str
    current_text: str | None = None  # set by the stale check: the clause's new wording

    @property
    def changed(self) -> bool:
        return self.current_text is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "doc": self.doc_id,
            "clause_id": self.clause_id,
            "cited_text": self.cited_text,
            "current_text": self.current_text,
        }


@dataclass(frozen=True)
class Draft:
    """What a judge submits or edits: the ruling without its lifecycle."""

    game: str
    question: str
    answer: str
    cites: tuple[str, ...]
    lang: str
    source: Source


@dataclass(frozen=True)
class Revision:
    """One change of a ruling: who, when, what (``changes`` maps field -> [old, new])."""

    n: int
    at: str
    actor: str
    action: str
    changes: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "at": self.at,
            "actor": self.actor,
            "action": self.action,
            "changes": self.changes,
            "note": self.note,
        }


@dataclass(frozen=True)
class Ruling:
    """A ruling as stored, with its citations; revisions are loaded on demand."""

    id: int
    game: str
    question: str
    answer: str
    lang: str
    source: Source
    cites: tuple[Citation, ...]
    status: str
    reason: str
    needs_review: bool
    created_by: str
    created_at: str
    updated_at: str
    revision: int

    @property
    def tier(self) -> int:
        return tier(self.source.kind)

    @property
    def url(self) -> str:
        return ruling_url(self.id)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "url": self.url,
            "game": self.game,
            "question": self.question,
            "answer": self.answer,
            "lang": self.lang,
            "source": self.source.to_json(),
            "cites": [c.to_json() for c in self.cites],
            "status": self.status,
            "reason": self.reason,
            "needs_review": self.needs_review,
            "created_by": self.created_by,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "revision": self.revision,
        }


@dataclass(frozen=True)
class User:
    name: str
    role: str
    created_at: str
    disabled: bool = False

    @property
    def reviewer(self) -> bool:
        return self.role in REVIEWER_ROLES


def ruling_url(ruling_id: int) -> str:
    """The permalink of a ruling (the one place it is made)."""
    return f"/rulings/{int(ruling_id)}"


# checks --------------------------------------------------------------------------------
def check_text(name: str, value: str, limit_key: str | None = None, required: bool = True) -> str:
    """``value`` stripped, or :class:`ValidationFailed` naming the field and the limit."""
    value = value.strip() if isinstance(value, str) else ""
    limit = LIMITS[limit_key or name]
    if required and not value:
        raise ValidationFailed(f"{name} is required", field=name)
    if len(value) > limit:
        raise ValidationFailed(f"{name} is longer than {limit} characters", field=name)
    if "\x00" in value:
        raise ValidationFailed(f"{name} contains a NUL character", field=name)
    return value


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValidationFailed(
            f"unknown {name} {value!r}; choose one of {', '.join(choices)}", field=name
        )
    return value


def check_source(source: Source) -> Source:
    check_choice("source.kind", source.kind, SOURCE_KINDS)
    url = check_text("source.url", source.url, "url", required=source.kind == "official")
    if url and not re.match(r"^https?://[^\s<>\"']+$", url):
        raise ValidationFailed("source.url must be an http(s) address", field="source.url")
    event = check_text("source.event", source.event, "event", required=source.kind == "head-judge")
    date = source.date.strip()
    if source.kind in ("official", "head-judge") and not date:
        raise ValidationFailed(f"a {source.kind} ruling needs source.date", field="source.date")
    if date:
        try:
            datetime.strptime(date, "%Y-%m-%d")
        except ValueError:
            raise ValidationFailed(
                "source.date must be a date YYYY-MM-DD", field="source.date"
            ) from None
    return Source(source.kind, url, event, date)


def check_draft(draft: Draft) -> Draft:
    """The draft with fields stripped, or :class:`ValidationFailed` (limits, choices, dates)."""
    cites = tuple(dict.fromkeys(c.strip().rstrip(".") for c in draft.cites if c.strip()))
    if not cites:
        raise ValidationFailed("cite at least one clause id", field="cites")
    if len(cites) > LIMITS["cites"]:
        raise ValidationFailed(f"cite at most {LIMITS['cites']} clauses", field="cites")
    for c in cites:
        check_text("cites", c, "clause_id")
    return Draft(
        check_text("game", draft.game),
        check_text("question", draft.question),
        check_text("answer", draft.answer),
        cites,
        check_choice("lang", draft.lang, RULING_LANGS),
        check_source(draft.source),
    )


def check_name(name: str) -> str:
    name = check_text("name", name)
    if not NAME_RE.match(name):
        raise ValidationFailed(
            "a user name is lower-case letters, digits, '.', '_' or '-'", field="name"
        )
    return name


def check_password(password: str) -> str:
    if len(password) < LIMITS["password_min"]:
        raise ValidationFailed(
            f"a password has at least {LIMITS['password_min']} characters", field="password"
        )
    if len(password) > LIMITS["password"]:
        raise ValidationFailed(
            f"a password has at most {LIMITS['password']} characters", field="password"
        )
    return password


@dataclass(frozen=True)
class Actor:
    """Who does a write, and from where: every write is audited with both."""

    name: str
    role: str
    address: str = "local"

    @property
    def reviewer(self) -> bool:
        return self.role in REVIEWER_ROLES


CLI_ACTOR = Actor("cli", "admin", "local")  # the shell holds the data directory anyway
SYSTEM_ACTOR = Actor("system", "admin", "local")  # the stale check after a rebuild
