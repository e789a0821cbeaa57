"""The audit log: every write of the knowledge base adds a row in the same transaction."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, insert, select

from judgekb.kb.model import Actor, now_iso
from judgekb.kb.schema import audit


def record(conn: Connection, actor: Actor, action: str, target: str, **detail: Any) -> None:
    """Append one audit row (``detail`` is stored as JSON)."""
    conn.execute(
        insert(audit).values(
            at=now_iso(),
            actor=actor.name[:64],
            address=actor.address[:64],
            action=action,
            target=target[:128],
            detail=json.dumps(detail, ensure_ascii=False, sort_keys=True),
        )
    )


def entries(conn: Connection, limit: int = 100) -> list[dict[str, Any]]:
    """The newest audit rows first."""
    rows = conn.execute(select(audit).order_by(audit.c.id.desc()).limit(limit)).mappings()
    return [{**r, "detail": json.loads(r["detail"])} for r in rows]
