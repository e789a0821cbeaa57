"""An old clause number, printed only by an older edition, looked up in the edition in force.

When a query names a number that no searched document of its game prints, but an older edition
of the game's rulebook does, the number means that older clause: the lookup goes to the clause
with the same stable key in the searched edition, and the result says it was renumbered (or
that the clause was removed, and in which edition).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as _date
from typing import TYPE_CHECKING, Any

from judgekb.corpus.editions import parse_day

if TYPE_CHECKING:
    import numpy as np

    from judgekb.index.loaded import LoadedIndex


@dataclass(frozen=True)
class Renumbered:
    """An old number and where its clause is now (``new_id`` None: removed)."""

    game: str
    old_doc: str
    old_id: str
    old_version: str
    new_doc: str | None
    new_id: str | None
    new_version: str  # the searched edition, or the one that removed the clause

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "old": {"doc": self.old_doc, "clause_id": self.old_id, "version": self.old_version},
            "now": (
                {"doc": self.new_doc, "clause_id": self.new_id, "version": self.new_version}
                if self.new_id is not None
                else None
            ),
            "removed_in": None if self.new_id is not None else self.new_version,
        }


def renumbered_rows(
    index: LoadedIndex, rows: list[int], mask: np.ndarray, date: str | None
) -> list[tuple[int | None, Renumbered]]:
    """For rows of older editions outside ``mask`` whose game has none of ``rows`` inside it:
    the row in ``mask`` holding the same clause now (None when it was removed)."""
    inside = {str(index.game_of_row[r]) for r in rows if mask[r]}
    day = (parse_day(date) or _today()).isoformat()
    out: list[tuple[int | None, Renumbered]] = []
    for r in rows:
        game = str(index.game_of_row[r])
        doc = index.docs[index.clauses[r].doc_id]
        later = doc.effective_date > day  # a number of an edition not yet in force
        if mask[r] or game in inside or doc.kind != "rules" or later:
            continue
        now = [c for c in index.same_clause(r) if mask[c]]
        old_id = index.clauses[r].clause_id
        if now:
            new = index.clauses[now[0]]
            v = index.docs[new.doc_id].version
            out.append(
                (
                    now[0],
                    Renumbered(game, doc.doc_id, old_id, doc.version, new.doc_id, new.clause_id, v),
                )
            )
            continue
        trace = index.editions.trace(doc.doc_id, old_id, parse_day(date))
        if trace.clause is None and trace.removed_in is not None:
            gone = trace.removed_in.version
            out.append((None, Renumbered(game, doc.doc_id, old_id, doc.version, None, None, gone)))
    return out


def _today() -> _date:
    return _date.today()
