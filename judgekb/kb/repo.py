"""Rulings: submit, edit, review, retract, read; every change a revision and an audit row.

Nothing is ever deleted. Who may do what is decided here (not in the routes): a judge submits
and edits their own pending ruling; a head judge or an admin publishes, rejects, retracts,
edits any ruling and sees every status and the full history.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, Row, and_, func, insert, or_, select, update

from judgekb.errors import Conflict, Forbidden, RulingNotFound
from judgekb.kb import audit
from judgekb.kb.cites import ClauseResolver
from judgekb.kb.db import Database
from judgekb.kb.model import (
    DONE,
    TRANSITIONS,
    Actor,
    Citation,
    Draft,
    Revision,
    Ruling,
    Source,
    check_draft,
    check_text,
    now_iso,
)
from judgekb.kb.schema import citations, revisions, rulings

PAGE = 100


def _ruling(row: Row[Any], cites: Sequence[Citation]) -> Ruling:
    r: Any = row._mapping
    return Ruling(
        id=r["id"],
        game=r["game"],
        question=r["question"],
        answer=r["answer"],
        lang=r["lang"],
        source=Source(r["source_kind"], r["source_url"], r["source_event"], r["source_date"]),
        cites=tuple(cites),
        status=r["status"],
        reason=r["reason"],
        needs_review=bool(r["needs_review"]),
        created_by=r["created_by"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        revision=r["revision"],
    )


def _fields(r: Ruling) -> dict[str, Any]:
    """The fields a revision compares (cites by id, as a judge sees them)."""
    return {
        "game": r.game,
        "question": r.question,
        "answer": r.answer,
        "lang": r.lang,
        "source": r.source.to_json(),
        "cites": [c.clause_id for c in r.cites],
        "status": r.status,
        "reason": r.reason,
        "needs_review": r.needs_review,
    }


def diff(old: Ruling | None, new: Ruling) -> dict[str, list[Any]]:
    before = _fields(old) if old else {}
    after = _fields(new)
    return {k: [before.get(k), v] for k, v in after.items() if before.get(k) != v}


def load_rulings(
    conn: Connection,
    where: Any = None,
    limit: int | None = None,
    offset: int = 0,
    order: Any = None,
) -> list[Ruling]:
    """Rulings matching ``where`` with their citations (two queries, whatever the count)."""
    q = select(rulings)
    if where is not None:
        q = q.where(where)
    q = q.order_by(*(order if order is not None else (rulings.c.id.desc(),)))
    if limit is not None:
        q = q.limit(limit).offset(offset)
    rows = conn.execute(q).all()
    if not rows:
        return []
    ids = [r.id for r in rows]
    by_id: dict[int, list[Citation]] = {i: [] for i in ids}
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        for c in conn.execute(
            select(citations)
            .where(citations.c.ruling_id.in_(chunk))
            .order_by(citations.c.ruling_id, citations.c.position)
        ):
            by_id[c.ruling_id].append(Citation(c.doc_id, c.clause_id, c.cited_text, c.current_text))
    return [_ruling(r, by_id[r.id]) for r in rows]


def content_values(r: Draft | Ruling) -> dict[str, Any]:
    """The columns of a ruling's content (question, answer, language, source): one mapping
    for every write of a ruling (submit, edit, review, import)."""
    return {
        "game": r.game,
        "question": r.question,
        "answer": r.answer,
        "lang": r.lang,
        "source_kind": r.source.kind,
        "source_url": r.source.url,
        "source_event": r.source.event,
        "source_date": r.source.date,
    }


class RulingRepo:
    """The rulings of one database; ``resolver`` checks cited clause ids against the rules."""

    def __init__(self, db: Database, resolver: ClauseResolver) -> None:
        self.db = db
        self.resolver = resolver

    # reading ------------------------------------------------------------------------
    def get(self, ruling_id: int, viewer: Actor | None = None) -> Ruling:
        """A ruling the viewer may see: published and retracted ones for everyone, pending
        and rejected ones for reviewers and their author."""
        with self.db.read() as conn:
            found = load_rulings(conn, rulings.c.id == ruling_id)
        if not found or not visible(found[0], viewer):
            raise RulingNotFound(ruling_id)
        return found[0]

    def revisions(self, ruling_id: int) -> list[Revision]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(revisions).where(revisions.c.ruling_id == ruling_id).order_by(revisions.c.n)
            ).all()
        return [Revision(r.n, r.at, r.actor, r.action, json.loads(r.changes), r.note) for r in rows]

    def find(
        self,
        *,
        game: str | None = None,
        clause: str | None = None,
        status: str | None = "published",
        limit: int | None = PAGE,
        offset: int = 0,
        needs_review: bool | None = None,
        created_by: str | None = None,
    ) -> list[Ruling]:
        """Rulings by game, cited clause id, status (newest first)."""
        conds = []
        if game:
            conds.append(rulings.c.game == game)
        if status:
            conds.append(rulings.c.status == status)
        if needs_review is not None:
            conds.append(rulings.c.needs_review == needs_review)
        if created_by:
            conds.append(rulings.c.created_by == created_by)
        if clause:
            cited = select(citations.c.ruling_id).where(citations.c.clause_id == clause)
            if game:
                cited = cited.where(citations.c.game == game)
            conds.append(rulings.c.id.in_(cited))
        with self.db.read() as conn:
            return load_rulings(conn, and_(*conds) if conds else None, limit, offset)

    def citing(self, game: str, clause: Sequence[tuple[str, str]]) -> list[Ruling]:
        """Published rulings citing one clause, given as its (doc_id, clause_id) in every
        edition (``Editions.everywhere``): most authoritative source first, then newest."""
        cited = select(citations.c.ruling_id).where(
            citations.c.game == game,
            or_(*(and_(citations.c.doc_id == d, citations.c.clause_id == c) for d, c in clause)),
        )
        with self.db.read() as conn:
            found = load_rulings(
                conn, and_(rulings.c.status == "published", rulings.c.id.in_(cited))
            )
        return sorted(found, key=lambda r: (r.tier, -r.id))

    def counts(self) -> dict[str, int]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(rulings.c.status, func.count()).group_by(rulings.c.status)
            ).all()
        return {r[0]: r[1] for r in rows}

    def signature(self) -> tuple[int, str]:
        """Changes when any ruling changes (count, newest update): cheap to poll."""
        with self.db.read() as conn:
            row = conn.execute(select(func.count(), func.max(rulings.c.updated_at))).one()
        return int(row[0]), str(row[1] or "")

    # writing ------------------------------------------------------------------------
    def submit(self, draft: Draft, actor: Actor) -> Ruling:
        """A new pending ruling; its cited clause texts are recorded now."""
        draft = check_draft(draft)
        cites = self.resolver.resolve(draft.game, draft.cites)
        at = now_iso()
        with self.db.write() as conn:
            new_id = conn.execute(
                insert(rulings)
                .values(
                    **content_values(draft),
                    status="pending",
                    reason="",
                    needs_review=False,
                    created_by=actor.name,
                    created_at=at,
                    updated_at=at,
                    revision=1,
                )
                .returning(rulings.c.id)
            ).scalar_one()
            _write_cites(conn, new_id, draft.game, cites)
            ruling = load_rulings(conn, rulings.c.id == new_id)[0]
            _revise(conn, None, ruling, actor, "submit", "")
        return ruling

    def edit(self, ruling_id: int, draft: Draft, actor: Actor, note: str = "") -> Ruling:
        """Change the text, citations or source: the author while pending, reviewers always
        (a retracted ruling stays as it was). Changed citations record today's text."""
        draft = check_draft(draft)
        note = check_text("note", note, "reason", required=False)
        cites = self.resolver.resolve(draft.game, draft.cites)
        with self.db.write() as conn:
            old = _locked(conn, ruling_id, actor)
            if not actor.reviewer and not (
                old.created_by == actor.name and old.status == "pending"
            ):
                raise Forbidden(
                    "a judge may edit only their own ruling while it waits for review; "
                    "a head judge or an admin may edit any"
                )
            if old.status == "retracted":
                raise Conflict(f"ruling {ruling_id} is retracted; submit a new one instead")
            keep = {(c.doc_id, c.clause_id): c for c in old.cites}
            cites = [keep.get((c.doc_id, c.clause_id), c) for c in cites]
            new = replace(
                old,
                game=draft.game,
                question=draft.question,
                answer=draft.answer,
                lang=draft.lang,
                source=draft.source,
                cites=tuple(cites),
                needs_review=any(c.changed for c in cites),
            )
            return _save(conn, old, new, actor, "edit", note)

    def review(self, ruling_id: int, action: str, actor: Actor, reason: str = "") -> Ruling:
        """``approve`` (pending -> published; on a published ruling flagged needs-review it
        confirms it against today's clause text), ``reject`` (needs a reason) or ``retract``."""
        if action not in TRANSITIONS:
            raise Conflict(f"unknown action {action!r}; one of {', '.join(TRANSITIONS)}")
        if not actor.reviewer:
            raise Forbidden(f"only a head judge or an admin may {action} a ruling")
        reason = check_text("reason", reason, required=action == "reject")
        with self.db.write() as conn:
            old = _locked(conn, ruling_id, actor)
            target = TRANSITIONS[action].get(old.status)
            if target is None:
                raise Conflict(
                    f"a {old.status} ruling cannot be {DONE[action]} (ruling {ruling_id})"
                )
            if action == "approve" and old.status == "published" and not old.needs_review:
                raise Conflict(
                    f"ruling {ruling_id} is published and not flagged: nothing to confirm"
                )
            cites = old.cites
            if action == "approve":
                cites = tuple(self._confirmed(c) for c in old.cites)
            new = replace(
                old,
                status=target,
                reason=reason,
                cites=cites,
                needs_review=old.needs_review and action != "approve",
            )
            return _save(conn, old, new, actor, action, reason)

    def flag_stale(self, actor: Actor) -> list[int]:
        """Compare every citation of a live ruling with the clause text now; flag the rulings
        whose cited text changed (or whose clause is gone) ``needs-review``. Idempotent."""
        flagged = []
        with self.db.read() as conn:
            live = load_rulings(conn, rulings.c.status.in_(("pending", "published")))
        for ruling in live:
            cites = tuple(self._recheck(c) for c in ruling.cites)
            if cites == ruling.cites:
                continue
            with self.db.write() as conn:
                old = _locked(conn, ruling.id, actor)
                if old.revision != ruling.revision:
                    continue  # changed meanwhile: the next check sees it
                new = replace(old, cites=cites, needs_review=any(c.changed for c in cites))
                _save(conn, old, new, actor, "flag", "cited clause text changed")
            flagged.append(ruling.id)
        return flagged

    def _confirmed(self, c: Citation) -> Citation:
        """A changed citation as a reviewer confirms it: the wording they were shown, under
        the number and edition that print it now (a ruling made under V0's 11-3-3 cites V1's
        11-3-2 once confirmed); unchanged ones as they are."""
        if not c.changed:
            return c
        shown = c.current_text or ""
        now = self.resolver.current(c.doc_id, c.clause_id)
        if now is not None and now.text == shown:
            return Citation(now.doc_id, now.clause_id, shown)
        return Citation(c.doc_id, c.clause_id, shown)

    def _recheck(self, c: Citation) -> Citation:
        now = self.resolver.current_text(c.doc_id, c.clause_id)
        now = "" if now is None else now
        return replace(c, current_text=None if now == c.cited_text else now)

    def audit_entries(self, limit: int = 100) -> list[dict[str, Any]]:
        with self.db.read() as conn:
            return audit.entries(conn, limit)


def visible(ruling: Ruling, viewer: Actor | None) -> bool:
    if ruling.status in ("published", "retracted"):
        return True
    return viewer is not None and (viewer.reviewer or viewer.name == ruling.created_by)


def _locked(conn: Connection, ruling_id: int, actor: Actor) -> Ruling:
    """The ruling, its row locked for this transaction (PostgreSQL; SQLite holds the write lock)."""
    conn.execute(select(rulings.c.id).where(rulings.c.id == ruling_id).with_for_update()).all()
    found = load_rulings(conn, rulings.c.id == ruling_id)
    if not found or not visible(found[0], actor):
        raise RulingNotFound(ruling_id)
    return found[0]


def _write_cites(conn: Connection, ruling_id: int, game: str, cites: Iterable[Citation]) -> None:
    conn.execute(citations.delete().where(citations.c.ruling_id == ruling_id))
    rows = [
        {
            "ruling_id": ruling_id,
            "position": i,
            "game": game,
            "doc_id": c.doc_id,
            "clause_id": c.clause_id,
            "cited_text": c.cited_text,
            "current_text": c.current_text,
        }
        for i, c in enumerate(cites)
    ]
    if rows:
        conn.execute(insert(citations), rows)


def _save(
    conn: Connection, old: Ruling, new: Ruling, actor: Actor, action: str, note: str
) -> Ruling:
    new = replace(new, revision=old.revision + 1, updated_at=now_iso())
    conn.execute(
        update(rulings)
        .where(rulings.c.id == old.id)
        .values(
            **content_values(new),
            status=new.status,
            reason=new.reason,
            needs_review=new.needs_review,
            updated_at=new.updated_at,
            revision=new.revision,
        )
    )
    if new.cites != old.cites:
        _write_cites(conn, old.id, new.game, new.cites)
    _revise(conn, old, new, actor, action, note)
    return new


def _revise(
    conn: Connection, old: Ruling | None, new: Ruling, actor: Actor, action: str, note: str
) -> None:
    changes = diff(old, new)
    if old is None or new.cites != old.cites:
        changes["citations"] = [
            [c.to_json() for c in old.cites] if old else None,
            [c.to_json() for c in new.cites],
        ]
    conn.execute(
        insert(revisions).values(
            ruling_id=new.id,
            n=new.revision,
            at=new.updated_at,
            actor=actor.name,
            action=action,
            changes=json.dumps(changes, ensure_ascii=False, sort_keys=True),
            note=note,
        )
    )
    audit.record(
        conn,
        actor,
        f"ruling.{action}",
        f"ruling:{new.id}",
        revision=new.revision,
        fields=sorted(changes),
    )
