"""JSON Lines export and import of rulings, lossless: export -> import -> export is identical.

One line per ruling, oldest first: every stored field, its citations with the text recorded
at citation (and the changed text, when flagged), and its revisions. Importing keeps ids,
times, authors and revisions; a ruling already present with the same content is skipped, one
present with other content is a :class:`~judgekb.errors.Conflict` (nothing is overwritten).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy import Connection, func, insert, select

from judgekb.errors import Conflict, ValidationFailed
from judgekb.kb import audit
from judgekb.kb.db import Database
from judgekb.kb.model import (
    RULING_LANGS,
    SOURCE_KINDS,
    STATUSES,
    Actor,
    Citation,
    Revision,
    Ruling,
    Source,
    check_choice,
    check_text,
)
from judgekb.kb.repo import content_values, load_rulings
from judgekb.kb.schema import citations, revisions, rulings

BATCH = 500


def ruling_line(ruling: Ruling, revs: list[Revision]) -> str:
    body = ruling.to_json()
    body.pop("url")
    body["revisions"] = [r.to_json() for r in revs]
    return json.dumps(body, ensure_ascii=False, sort_keys=True)


def export_lines(db: Database) -> Iterator[str]:
    """Every ruling (any status), oldest first, in batches of one read transaction each."""
    last = 0
    while True:
        with db.read() as conn:
            batch = load_rulings(conn, rulings.c.id > last, BATCH, 0, (rulings.c.id,))
            revs = _revisions(conn, [r.id for r in batch])
        if not batch:
            return
        for r in batch:
            yield ruling_line(r, revs.get(r.id, []))
        last = batch[-1].id


def _revisions(conn: Connection, ids: list[int]) -> dict[int, list[Revision]]:
    out: dict[int, list[Revision]] = {}
    if not ids:
        return out
    rows = conn.execute(
        select(revisions)
        .where(revisions.c.ruling_id.in_(ids))
        .order_by(revisions.c.ruling_id, revisions.c.n)
    )
    for r in rows:
        out.setdefault(r.ruling_id, []).append(
            Revision(r.n, r.at, r.actor, r.action, json.loads(r.changes), r.note)
        )
    return out


def parse_line(line: str, lineno: int) -> tuple[Ruling, list[Revision]]:
    """One exported line back into a ruling and its revisions (fields and limits checked)."""
    try:
        d = json.loads(line)
        src = d["source"]
        ruling = Ruling(
            id=int(d["id"]),
            game=check_text("game", d["game"]),
            question=check_text("question", d["question"]),
            answer=check_text("answer", d["answer"]),
            lang=check_choice("lang", d["lang"], RULING_LANGS),
            source=Source(
                check_choice("source.kind", src["kind"], SOURCE_KINDS),
                check_text("source.url", src["url"], "url", required=False),
                check_text("source.event", src["event"], "event", required=False),
                src["date"],
            ),
            cites=tuple(
                Citation(c["doc"], c["clause_id"], c["cited_text"], c["current_text"])
                for c in d["cites"]
            ),
            status=check_choice("status", d["status"], STATUSES),
            reason=d["reason"],
            needs_review=bool(d["needs_review"]),
            created_by=d["created_by"],
            created_at=d["created_at"],
            updated_at=d["updated_at"],
            revision=int(d["revision"]),
        )
        revs = [
            Revision(r["n"], r["at"], r["actor"], r["action"], r["changes"], r["note"])
            for r in d["revisions"]
        ]
    except ValidationFailed as exc:
        raise ValidationFailed(f"line {lineno}: {exc.message}", exc.field) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise ValidationFailed(f"line {lineno}: not an exported ruling ({exc!r})") from None
    return ruling, revs


def import_lines(db: Database, lines: Iterable[str], actor: Actor) -> tuple[int, int]:
    """Import exported lines in one transaction; returns (imported, already present)."""
    parsed = [parse_line(line, i) for i, line in enumerate(lines, 1) if line.strip()]
    added = same = 0
    with db.write() as conn:
        for ruling, revs in parsed:
            existing = load_rulings(conn, rulings.c.id == ruling.id)
            if existing:
                if ruling_line(existing[0], _revisions(conn, [ruling.id]).get(ruling.id, [])) != (
                    ruling_line(ruling, revs)
                ):
                    raise Conflict(
                        f"ruling {ruling.id} exists with other content; import into an empty "
                        "knowledge base or remove that line"
                    )
                same += 1
                continue
            _insert(conn, ruling, revs)
            added += 1
        if added and db.dialect == "postgresql":
            top = conn.execute(select(func.max(rulings.c.id))).scalar_one()
            conn.exec_driver_sql(
                f"SELECT setval(pg_get_serial_sequence('rulings', 'id'), {int(top)})"
            )
        audit.record(conn, actor, "rulings.import", "rulings", imported=added, present=same)
    return added, same


def _insert(conn: Connection, r: Ruling, revs: list[Revision]) -> None:
    conn.execute(
        insert(rulings).values(
            id=r.id,
            **content_values(r),
            status=r.status,
            reason=r.reason,
            needs_review=r.needs_review,
            created_by=r.created_by,
            created_at=r.created_at,
            updated_at=r.updated_at,
            revision=r.revision,
        )
    )
    rows: list[dict[str, Any]] = [
        {
            "ruling_id": r.id,
            "position": i,
            "game": r.game,
            "doc_id": c.doc_id,
            "clause_id": c.clause_id,
            "cited_text": c.cited_text,
            "current_text": c.current_text,
        }
        for i, c in enumerate(r.cites)
    ]
    if rows:
        conn.execute(insert(citations), rows)
    if revs:
        conn.execute(
            insert(revisions),
            [
                {
                    "ruling_id": r.id,
                    "n": v.n,
                    "at": v.at,
                    "actor": v.actor,
                    "action": v.action,
                    "changes": json.dumps(v.changes, ensure_ascii=False, sort_keys=True),
                    "note": v.note,
                }
                for v in revs
            ],
        )
