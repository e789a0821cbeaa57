"""Search results: frozen dataclasses and their public JSON shape."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from judgekb.index.confidence import SearchSignals
    from judgekb.index.games import GameEvidence
    from judgekb.index.plan import Elsewhere
    from judgekb.index.renumber import Renumbered


@dataclass(frozen=True)
class RefLink:
    """One end of a cross-reference as shown on a hit."""

    doc: str
    clause_id: str | None
    written: str
    preview: str = ""  # first characters of the target text, for hover previews


@dataclass(frozen=True)
class SearchHit:
    """One cited search result."""

    doc_id: str
    game: str
    clause_id: str
    kind: str
    title: str
    text: str
    raw_text: str
    score: float
    citation: str
    url: str
    heading_path: tuple[str, ...]
    doc_title: str
    version: str
    effective_date: str
    doc_kind: str  # rules | amendment
    repaired: bool
    corrected: bool
    matched: tuple[str, ...]  # query terms found in the text, for highlighting
    refs_out: tuple[RefLink, ...] = ()
    refs_in: tuple[RefLink, ...] = ()
    amendments: tuple[dict[str, Any], ...] = ()
    # lookup (a clause number the query names) | alias (a term's entry) | ref (cited by the
    # named clause) | current (the current clause an amendment hit corresponds to) | search
    via: str = "search"
    family: str = ""  # the rulebook across its editions (issue 13)
    later: dict[str, str] | None = None  # a later edition of it: doc, version, effective_date

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "doc": self.doc_id,
            "clause_id": self.clause_id,
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "score": round(self.score, 4),
            "citation": self.citation,
            "url": self.url,
            "heading_path": list(self.heading_path),
            "document": {
                "title": self.doc_title,
                "version": self.version,
                "effective_date": self.effective_date,
                "kind": self.doc_kind,
                "family": self.family,
                "later_edition": self.later,
            },
            "repaired": self.repaired,
            "corrected": self.corrected,
            "raw_text": self.raw_text,
            "matched": list(self.matched),
            "refs_out": [
                {"doc": r.doc, "clause_id": r.clause_id, "written": r.written}
                for r in self.refs_out
            ],
            "refs_in": [
                {"doc": r.doc, "clause_id": r.clause_id, "written": r.written} for r in self.refs_in
            ],
            "amendments": list(self.amendments),
            "via": self.via,
        }


@dataclass(frozen=True)
class SearchResult:
    """What a search returns: the query, time taken, ranked hits and how sure it is."""

    query: str
    took_ms: float
    hits: tuple[SearchHit, ...]
    game: str | None = None  # the game the judge chose
    mode: str = "hybrid"
    notes: tuple[str, ...] = field(default_factory=tuple)
    confidence: str = "low"  # high | low | none (judgekb.index.request.Confidence)
    ambiguous_games: tuple[str, ...] = ()  # a clause number several games print
    elsewhere: tuple[Elsewhere, ...] = ()  # a number the chosen game does not print
    inferred: GameEvidence | None = None  # the game the question named or implied
    other_games_named: tuple[str, ...] = ()  # games named besides the chosen one
    signals: SearchSignals | None = None  # what confidence was judged from (not in the JSON)
    # The lookup outcome: "" (no clause number), "found", "ambiguous" (several games print
    # it), "elsewhere" (only other games print it), "missing" (no book prints it).
    lookup: str = ""
    bare: bool = False  # the query was only clause numbers (and game or clause words)
    renumbered: tuple[Renumbered, ...] = ()  # old numbers and where their clauses are now
    # What the answer card scores sentences with (not in the JSON): the encoded question
    # (None when no dense search ran) and its BM25 terms.
    query_vector: np.ndarray | None = field(default=None, repr=False, compare=False)
    terms: tuple[str, ...] = ()
    query_truncated: bool = False  # the encoder read only the query's first 512 tokens
    # Over several games, a question that reads like no one game in particular: the page
    # offers the games its hits come from (not in the JSON; confidence is never high then).
    game_unsure: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "took_ms": round(self.took_ms, 2),
            "confidence": self.confidence,
            "ambiguous_games": list(self.ambiguous_games),
            "elsewhere": [e.to_json() for e in self.elsewhere],
            "inferred_game": self.inferred.to_json() if self.inferred else None,
            "other_games_named": list(self.other_games_named),
            "renumbered": [r.to_json() for r in self.renumbered],
            "query_truncated": self.query_truncated,
            "results": [h.to_json() for h in self.hits],
        }
