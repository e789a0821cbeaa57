"""Alembic environment: migrations run on the connection :func:`judgekb.kb.db.migrate` passes."""

from __future__ import annotations

from alembic import context

from judgekb.kb.schema import metadata

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - judgekb always passes one
    raise RuntimeError("run migrations through judgekb.kb.db.migrate(engine)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
