"""The one search boundary: a frozen :class:`SearchRequest` in (its :class:`Scope` says where).

Every caller (library, CLI, batch, API, pages, eval, benchmarks) builds a request here; the
valid choices of each field are computed from the ``Literal`` types below, so a message listing
them never goes stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from judgekb.corpus.editions import parse_day
from judgekb.corpus.model import CLAUSE_KINDS
from judgekb.errors import BadParameter

Mode = Literal["hybrid", "bm25", "dense"]
DocKind = Literal["rules", "amendment"]
ClauseKind = Literal["chapter", "section", "clause", "glossary", "appendix"]
DocLang = Literal["th", "ms", "en"]
Confidence = Literal["high", "low", "none"]

MODES: tuple[str, ...] = get_args(Mode)
DOC_KINDS: tuple[str, ...] = get_args(DocKind)
CLAUSE_KIND_CHOICES: tuple[str, ...] = get_args(ClauseKind)
DOC_LANGS: tuple[str, ...] = get_args(DocLang)
CONFIDENCES: tuple[str, ...] = get_args(Confidence)
MAX_K = 100

assert CLAUSE_KIND_CHOICES == CLAUSE_KINDS, "corpus.model.CLAUSE_KINDS and ClauseKind drifted"


def _check(name: str, value: str | None, choices: tuple[str, ...]) -> None:
    if value is not None and value not in choices:
        raise BadParameter(f"unknown {name} {value!r}; choose one of {', '.join(choices)}")


@dataclass(frozen=True)
class Scope:
    """Where to search: every field narrows it; ``None`` means no restriction.

    ``game`` and ``doc`` are checked against the loaded corpus by the searcher (it knows the
    games); the closed choices are checked here.
    """

    game: str | None = None
    doc: str | None = None
    doc_kind: DocKind | None = None  # rules | amendment
    clause_kind: ClauseKind | None = None  # chapter | section | clause | glossary | appendix
    lang: DocLang | None = None  # language of the documents
    edition: str | None = None  # a document version; None = the one in force on ``date``
    date: str | None = None  # YYYY-MM-DD: the rules in force that day; None = today

    def __post_init__(self) -> None:
        _check("document kind", self.doc_kind, DOC_KINDS)
        _check("clause kind", self.clause_kind, CLAUSE_KIND_CHOICES)
        _check("document language", self.lang, DOC_LANGS)
        for name in ("game", "doc", "edition", "date"):
            if getattr(self, name) == "":
                object.__setattr__(self, name, None)
        parse_day(self.date)  # a malformed date is a QueryError here, not at search time

    def with_game(self, game: str | None) -> Scope:
        return replace(self, game=game)


@dataclass(frozen=True)
class SearchRequest:
    """A question or clause number, where to look, how many hits and how to rank."""

    text: str
    scope: Scope = field(default_factory=Scope)
    k: int = 10
    mode: Mode = "hybrid"
    # time.monotonic() by which the search must have reached the encoder, else Overloaded
    # (the service sets it from the request's arrival; None waits as long as it takes).
    deadline: float | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _check("mode", self.mode, MODES)
        if isinstance(self.k, bool) or not isinstance(self.k, int) or not 1 <= self.k <= MAX_K:
            raise BadParameter(f"k must be a whole number between 1 and {MAX_K}")

    @classmethod
    def of(
        cls,
        text: str,
        game: str | None = None,
        k: int = 10,
        mode: str = "hybrid",
        **scope: str | None,
    ) -> SearchRequest:
        """Convenience for callers holding loose values (CLI options, query strings)."""
        return cls(text, Scope(game=game, **scope), k, mode)  # type: ignore[arg-type]
