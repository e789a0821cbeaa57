"""Alembic migrations of the knowledge base, shipped in the package and run on start."""
