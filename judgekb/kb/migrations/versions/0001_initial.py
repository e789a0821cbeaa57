"""Initial knowledge base: users, tokens, sessions, login failures, rulings, citations,
revisions, audit log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

T = sa.String(32)  # ISO-8601 UTC text


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created_at", T, nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", T, nullable=False),
        sa.Column("revoked_at", T),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", T, nullable=False),
        sa.Column("expires_at", T, nullable=False),
        sa.Column("ended_at", T),
    )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", T, nullable=False),
    )
    op.create_index("login_failures_name", "login_failures", ["name", "at"])
    op.create_index("login_failures_address", "login_failures", ["address", "at"])
    op.create_table(
        "rulings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("source_kind", sa.String(16), nullable=False),
        sa.Column("source_url", sa.Text, nullable=False),
        sa.Column("source_event", sa.Text, nullable=False),
        sa.Column("source_date", sa.String(10), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("needs_review", sa.Boolean, nullable=False),
        sa.Column("created_by", sa.String(64), nullable=False),
        sa.Column("created_at", T, nullable=False),
        sa.Column("updated_at", T, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
    )
    op.create_index("rulings_status", "rulings", ["status", "game"])
    op.create_index("rulings_updated", "rulings", ["updated_at"])
    op.create_table(
        "citations",
        sa.Column("ruling_id", sa.Integer, sa.ForeignKey("rulings.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("doc_id", sa.String(64), nullable=False),
        sa.Column("clause_id", sa.String(64), nullable=False),
        sa.Column("cited_text", sa.Text, nullable=False),
        sa.Column("current_text", sa.Text),
    )
    op.create_index("citations_clause", "citations", ["game", "clause_id"])
    op.create_table(
        "revisions",
        sa.Column("ruling_id", sa.Integer, sa.ForeignKey("rulings.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("at", T, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("changes", sa.Text, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
    )
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", T, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(128), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("audit_at", "audit", ["at"])


def downgrade() -> None:
    for table in (
        "audit",
        "revisions",
        "citations",
        "rulings",
        "login_failures",
        "sessions",
        "tokens",
        "users",
    ):
        op.drop_table(table)
