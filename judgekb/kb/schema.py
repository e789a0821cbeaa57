"""The knowledge-base tables (SQLAlchemy Core). Alembic migrations create them; this module
is what the code queries. Times are ISO-8601 UTC text (see :func:`judgekb.kb.model.now_iso`),
so SQLite and PostgreSQL store and export them byte for byte alike.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("password_hash", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("disabled", Boolean, nullable=False, default=False),
)

tokens = Table(
    "tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", String(32), nullable=False),
    Column("revoked_at", String(32)),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("session_hash", String(64), nullable=False, unique=True),
    Column("csrf", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("expires_at", String(32), nullable=False),
    Column("ended_at", String(32)),
)

login_failures = Table(
    "login_failures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("address", String(64), nullable=False),
    Column("at", String(32), nullable=False),
    Index("login_failures_name", "name", "at"),
    Index("login_failures_address", "address", "at"),
)

rulings = Table(
    "rulings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game", String(64), nullable=False),
    Column("question", Text, nullable=False),
    Column("answer", Text, nullable=False),
    Column("lang", String(8), nullable=False),
    Column("source_kind", String(16), nullable=False),
    Column("source_url", Text, nullable=False),
    Column("source_event", Text, nullable=False),
    Column("source_date", String(10), nullable=False),
    Column("status", String(16), nullable=False),
    Column("reason", Text, nullable=False),
    Column("needs_review", Boolean, nullable=False),
    Column("created_by", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
    Column("revision", Integer, nullable=False),
    Index("rulings_status", "status", "game"),
    Index("rulings_updated", "updated_at"),
)

citations = Table(
    "citations",
    metadata,
    Column("ruling_id", Integer, ForeignKey("rulings.id"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("game", String(64), nullable=False),
    Column("doc_id", String(64), nullable=False),
    Column("clause_id", String(64), nullable=False),
    Column("cited_text", Text, nullable=False),
    Column("current_text", Text),
    Index("citations_clause", "game", "clause_id"),
)

revisions = Table(
    "revisions",
    metadata,
    Column("ruling_id", Integer, ForeignKey("rulings.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("at", String(32), nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action", String(16), nullable=False),
    Column("changes", Text, nullable=False),  # JSON: field -> [old, new]
    Column("note", Text, nullable=False),
)

audit = Table(
    "audit",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String(32), nullable=False),
    Column("actor", String(64), nullable=False),
    Column("address", String(64), nullable=False),
    Column("action", String(32), nullable=False),
    Column("target", String(128), nullable=False),
    Column("detail", Text, nullable=False),  # JSON
    Index("audit_at", "at"),
)
