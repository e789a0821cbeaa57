"""Editions in the clause store: tables written with the store, and :class:`Editions` to read.

Tables (added to the store's schema; written in the same transaction as the clauses):

* ``edition_pairs`` -- every aligned pair of consecutive editions (kind, changed, score);
* ``clause_keys`` -- the stable key of every clause of a rules document;
* ``changelog`` -- the entries of each printed changelog.

A diff between any two editions of a family joins their clauses on the stable key, so
consecutive or not, "moved" always pairs a clause with its number in the older edition.
"""

from __future__ import annotations

import json
import sqlite3
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from judgekb.corpus.align import comparable, wording
from judgekb.corpus.changelog import ChangelogEntry
from judgekb.corpus.editions import edition, families, in_force
from judgekb.corpus.model import Clause, Document
from judgekb.corpus.redline import redline
from judgekb.errors import BadParameter, StoreError

if TYPE_CHECKING:
    from judgekb.corpus.lineage import Lineage
    from judgekb.corpus.store import ClauseStore

SCHEMA = """
CREATE TABLE edition_pairs (
    family TEXT NOT NULL, from_doc TEXT NOT NULL, to_doc TEXT NOT NULL, old_id TEXT,
    new_id TEXT, kind TEXT NOT NULL, changed INTEGER NOT NULL, score REAL NOT NULL,
    ord INTEGER NOT NULL);
CREATE INDEX edition_pairs_step ON edition_pairs(from_doc, to_doc);
CREATE TABLE clause_keys (
    doc_id TEXT NOT NULL, clause_id TEXT NOT NULL, key TEXT NOT NULL,
    PRIMARY KEY (doc_id, clause_id));
CREATE INDEX clause_keys_key ON clause_keys(key);
CREATE TABLE changelog (
    doc_id TEXT NOT NULL, version TEXT NOT NULL, action TEXT NOT NULL, clause_ids TEXT NOT NULL,
    text TEXT NOT NULL, line INTEGER NOT NULL);
"""


LINEAGE_TABLES = ("edition_pairs", "clause_keys", "changelog")


def lineage_rows(lineage: Lineage | None) -> dict[str, list[tuple]]:
    """The rows of the edition tables for ``lineage`` (none without one), written inside the
    store's write and hashed with the rest of the store."""
    if lineage is None:
        return {table: [] for table in LINEAGE_TABLES}
    return {
        "edition_pairs": [
            (s.family, s.from_doc, s.to_doc, p.old_id, p.new_id, p.kind, int(p.changed), p.score, i)
            for s in lineage.steps
            for i, p in enumerate(s.pairs)
        ],
        "clause_keys": [(d, c, k) for (d, c), k in lineage.keys.items()],
        "changelog": [
            (e.doc_id, e.version, e.action, json.dumps(list(e.clause_ids)), e.text, e.line)
            for e in lineage.changelog
        ],
    }


@dataclass(frozen=True)
class Moved:
    """A clause printed under another number in the newer edition."""

    old_id: str
    new_id: str
    changed: bool  # its text changed too


@dataclass(frozen=True)
class EditionDiff:
    """What changed from one edition of a family to another (ids as printed in each)."""

    family: str
    old: Document
    new: Document
    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[str, ...]  # same number, other text
    moved: tuple[Moved, ...]

    def to_json(self) -> dict[str, Any]:
        """The shape of ``judgekb diff --json`` and ``/api/diff``."""
        return {
            "from": self.old.version,
            "to": self.new.version,
            "added": list(self.added),
            "removed": list(self.removed),
            "changed": list(self.changed),
            "moved": [{"from": m.old_id, "to": m.new_id, "changed": m.changed} for m in self.moved],
        }


@dataclass(frozen=True)
class Trace:
    """Where a clause of one edition is in another: its clause there, or the edition that
    removed it."""

    from_id: str  # the number asked about
    clause: Clause | None
    removed_in: Document | None = None

    @property
    def renumbered(self) -> bool:
        return self.clause is not None and self.clause.clause_id != self.from_id


class Editions:
    """Read the edition tables of a built store."""

    def __init__(self, store: ClauseStore) -> None:
        self.store = store
        try:
            rows = store.query("SELECT doc_id, clause_id, key FROM clause_keys")
        except sqlite3.OperationalError as exc:
            raise StoreError(
                f"clause store {store.path} predates editions; run `judgekb build`"
            ) from exc
        self.key: dict[tuple[str, str], str] = {(r[0], r[1]): r[2] for r in rows}
        self.by_key: dict[tuple[str, str], str] = {(r[0], r[2]): r[1] for r in rows}
        # a built store's documents never change: read once (every search asks, for rulings)
        self.docs = {d.doc_id: d for d in store.documents()}
        self._families = families(self.docs.values())

    def rows_by_key(self, clauses: Sequence[Clause]) -> dict[str, list[int]]:
        """Stable key -> the positions in ``clauses`` of the clause it names in each edition."""
        out: dict[str, list[int]] = {}
        for i, c in enumerate(clauses):
            key = self.key.get((c.doc_id, c.clause_id))
            if key is not None:
                out.setdefault(key, []).append(i)
        return out

    # families ---------------------------------------------------------------------------
    def families(self) -> dict[str, list[Document]]:
        return {family: list(eds) for family, eds in self._families.items()}

    def family_editions(self, family: str) -> list[Document]:
        from judgekb.corpus.editions import family_of

        return family_of(self.store.documents(), family)

    def edition(self, family: str, version: str) -> Document:
        return edition(self.store.documents(), family, version)

    def previous(self, doc: Document) -> Document | None:
        eds = self.families().get(doc.family_id, [])
        i = next((i for i, d in enumerate(eds) if d.doc_id == doc.doc_id), 0)
        return eds[i - 1] if i > 0 else None

    # clauses across editions ------------------------------------------------------------
    def counterpart(self, doc_id: str, clause_id: str, target_doc: str) -> str | None:
        """The id in ``target_doc`` of the clause ``doc_id``/``clause_id`` (same stable key)."""
        key = self.key.get((doc_id, clause_id))
        return None if key is None else self.by_key.get((target_doc, key))

    def everywhere(self, doc_id: str, clause_id: str) -> list[tuple[str, str]]:
        """The clause in every edition of its rulebook (same stable key), itself first: what a
        ruling citing it in any edition is about."""
        out = [(doc_id, clause_id)]
        doc = self.docs.get(doc_id) or self.store.document(doc_id)  # unknown: named by the store
        if doc.kind != "rules" or not doc.family_id:
            return out
        for d in self.families().get(doc.family_id, []):
            cid = self.counterpart(doc_id, clause_id, d.doc_id)
            if d.doc_id != doc_id and cid is not None:
                out.append((d.doc_id, cid))
        return out

    def trace(self, doc_id: str, clause_id: str, day: date | None = None) -> Trace:
        """Where the clause is in the edition in force on ``day`` (rule: every old number maps
        to its current clause or to the edition that removed it)."""
        doc = self.store.document(doc_id)
        eds = self.families().get(doc.family_id, [doc])
        target = in_force(eds, day)
        cid = self.counterpart(doc_id, clause_id, target.doc_id)
        if cid is not None:
            return Trace(clause_id, self.store.get(target.doc_id, cid))
        later = [d for d in eds if d.effective_date > doc.effective_date]
        removed = next(
            (d for d in later if self.counterpart(doc_id, clause_id, d.doc_id) is None), None
        )
        return Trace(clause_id, None, removed)

    def diff(self, old: Document, new: Document) -> EditionDiff:
        """Join both editions on the stable key (consecutive or not)."""
        a = comparable(self.store.clauses(old.doc_id))
        b = comparable(self.store.clauses(new.doc_id))
        old_by_key = {self.key.get((c.doc_id, c.clause_id)): c for c in a}
        new_keys = {self.key.get((c.doc_id, c.clause_id)) for c in b}
        added, changed, moved = [], [], []
        for c in b:
            prev = old_by_key.get(self.key.get((c.doc_id, c.clause_id)))
            if prev is None:
                added.append(c.clause_id)
            elif prev.clause_id != c.clause_id:
                moved.append(Moved(prev.clause_id, c.clause_id, wording(prev) != wording(c)))
            elif wording(prev) != wording(c):
                changed.append(c.clause_id)
        removed = [c.clause_id for k, c in old_by_key.items() if k not in new_keys]
        return EditionDiff(
            old.family_id, old, new, tuple(added), tuple(removed), tuple(changed), tuple(moved)
        )

    def changelog(self, doc_id: str) -> list[ChangelogEntry]:
        rows = self.store.query("SELECT * FROM changelog WHERE doc_id = ? ORDER BY rowid", doc_id)
        return [ChangelogEntry(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], r[5]) for r in rows]

    def history(self, doc_id: str, clause_id: str) -> list[tuple[Document, Clause]]:
        """Each edition's copy of the clause, oldest first."""
        doc = self.store.document(doc_id)
        out = []
        for d in self.families().get(doc.family_id, [doc]):
            cid = self.counterpart(doc_id, clause_id, d.doc_id)
            found = self.store.get(d.doc_id, cid) if cid is not None else None
            if found is not None:
                out.append((d, found))
        return out


def diff_of_versions(
    editions: Editions, family: str, old: str | None, new: str | None
) -> EditionDiff:
    """The diff named by versions; ``new`` defaults to the newest edition, ``old`` to the one
    before ``new``."""
    eds = editions.family_editions(family)
    to = editions.edition(family, new) if new else eds[-1]
    frm = editions.edition(family, old) if old else editions.previous(to)
    if frm is None:
        raise BadParameter(
            f"{family} has no edition before {to.version}; editions: "
            f"{', '.join(d.version for d in eds)}"
        )
    return editions.diff(frm, to)


def render_diff(diff: EditionDiff) -> str:
    """Plain text for the terminal: counts, then each list."""
    old, new = diff.old, diff.new
    lines = [
        f"{diff.family}: {old.version} ({old.effective_date or 'undated'}) -> "
        f"{new.version} ({new.effective_date or 'undated'})",
        f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.changed)} changed, "
        f"{len(diff.moved)} renumbered ({sum(m.changed for m in diff.moved)} of them changed)",
    ]
    for label, ids in (("added", diff.added), ("removed", diff.removed), ("changed", diff.changed)):
        if ids:
            lines.append(f"{label}: {', '.join(ids)}")
    for m in diff.moved:
        lines.append(f"renumbered: {m.old_id} -> {m.new_id}" + (" (changed)" if m.changed else ""))
    return "\n".join(lines)


_OPENED: weakref.WeakKeyDictionary[ClauseStore, Editions] = weakref.WeakKeyDictionary()


def editions_of(store: ClauseStore) -> Editions:
    """The :class:`Editions` of ``store``, read once per open store."""
    found = _OPENED.get(store)
    if found is None:
        found = _OPENED[store] = Editions(store)
    return found


def history_json(editions: Editions, doc_id: str, clause_id: str) -> list[dict[str, Any]]:
    """Each edition's wording of a clause, oldest first: its number there, what happened to it
    (first | unchanged | changed | moved), a word redline against the edition before, and a
    last ``removed`` entry naming the edition that dropped it. Empty for a rulebook printed in
    one edition."""
    doc = editions.store.document(doc_id)
    eds = editions.families().get(doc.family_id, [])
    if doc.kind != "rules" or len(eds) < 2:
        return []
    out: list[dict[str, Any]] = []
    prev: Clause | None = None
    for d, c in editions.history(doc_id, clause_id):
        changed = prev is not None and wording(prev) != wording(c)
        status = "first" if prev is None else "unchanged"
        if prev is not None and prev.clause_id != c.clause_id:
            status = "moved"
        elif changed:
            status = "changed"
        spans = redline(prev.text, c.text) if prev is not None and changed else []
        out.append(
            {
                "doc": d.doc_id,
                "version": d.version,
                "effective_date": d.effective_date,
                "clause_id": c.clause_id,
                "status": status,
                "was": prev.clause_id if prev is not None else None,
                "text": c.text,
                "redline": [{"op": x.op, "text": x.text} for x in spans],
            }
        )
        prev = c
    removed = _removed_entry(eds, out[-1]) if out else None
    return out + ([removed] if removed else [])


def _removed_entry(eds: list[Document], last: dict[str, Any]) -> dict[str, Any] | None:
    """The edition after the last one printing the clause, as a ``removed`` history entry."""
    was = next(d for d in eds if d.doc_id == last["doc"])
    after = [d for d in eds if d.effective_date > was.effective_date]
    if not after:
        return None
    d = after[0]
    return {
        "doc": d.doc_id,
        "version": d.version,
        "effective_date": d.effective_date,
        "clause_id": None,
        "status": "removed",
        "was": last["clause_id"],
        "text": "",
        "redline": [],
    }
