"""Cited clauses: resolving a game's clause ids against the clause store, and their text now.

The knowledge base sees the rules only through :class:`ClauseResolver`, so the rebuilt rule
artefacts (whatever directory they live in) and the mutable rulings stay apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from judgekb.corpus.edition_store import editions_of
from judgekb.corpus.model import Clause
from judgekb.corpus.store import ClauseStore
from judgekb.errors import (
    ClauseNotFound,
    UnknownClauses,
    UnknownGame,
    ValidationFailed,
)
from judgekb.kb.model import Citation


class ClauseResolver(Protocol):
    def resolve(self, game: str, clause_ids: Sequence[str]) -> list[Citation]: ...

    def current_text(self, doc_id: str, clause_id: str) -> str | None: ...

    def current(self, doc_id: str, clause_id: str) -> Clause | None: ...


class StoreResolver:
    """Resolves against a :class:`ClauseStore` (rules documents before amendments)."""

    def __init__(self, store: ClauseStore) -> None:
        self.store = store

    def resolve(self, game: str, clause_ids: Sequence[str]) -> list[Citation]:
        """One citation per id, recording the clause text as it is now; every unknown id is
        named in one :class:`UnknownClauses`."""
        try:
            self.store.check_game(game)
        except UnknownGame as exc:
            raise ValidationFailed(
                f"unknown game {game!r}; known games: {', '.join(sorted(exc.known))}",
                field="game",
            ) from None
        found, missing = [], []
        for cid in clause_ids:
            try:
                clause = self.store.find(game, cid)
            except ClauseNotFound:
                missing.append(cid)
                continue
            found.append(Citation(clause.doc_id, clause.clause_id, clause.text))
        if missing:
            raise UnknownClauses(game, missing)
        return found

    def current_text(self, doc_id: str, clause_id: str) -> str | None:
        """The cited clause's text in the edition in force today; None when it is gone."""
        now = self.current(doc_id, clause_id)
        return now.text if now is not None else None

    def current(self, doc_id: str, clause_id: str) -> Clause | None:
        """The cited clause in the edition in force today (a ruling made under an older
        edition is about the clause the new one prints, renumbered or reworded); None when it
        is gone (removed by an edition, or its document gone after a rebuild)."""
        editions = editions_of(self.store)
        doc = editions.docs.get(doc_id)
        if doc is None:
            return None
        if doc.kind == "rules" and doc.family_id and (doc_id, clause_id) in editions.key:
            return editions.trace(doc_id, clause_id).clause
        return self.store.get(doc_id, clause_id)
