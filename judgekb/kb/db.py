"""Opening the knowledge-base database: engine, SQLite pragmas, migrations, online backup.

SQLite (the default, in the data directory) runs in WAL mode with ``synchronous=FULL``, so a
commit that returned survives a crash of the process or the machine; write transactions
start with ``BEGIN IMMEDIATE`` so concurrent writers queue on the lock (``busy_timeout``)
instead of failing when a read transaction tries to upgrade. PostgreSQL needs nothing special:
replicas share it, and each one migrates under an advisory lock on start.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from judgekb.errors import ConfigError, KBUnavailable

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 30_000
MIGRATION_LOCK = 0x6A6B6B62  # pg_advisory_xact_lock key ("jkkb")


def _sqlite_pragmas(dbapi_con: sqlite3.Connection, _record: Any) -> None:
    dbapi_con.isolation_level = None  # we issue BEGIN ourselves (see _sqlite_begin)
    cur = dbapi_con.cursor()
    cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA journal_mode = WAL")
    cur.execute("PRAGMA synchronous = FULL")
    cur.execute("PRAGMA foreign_keys = ON")
    cur.close()


def _sqlite_begin(conn: Connection) -> None:
    mode = "IMMEDIATE" if conn.get_execution_options().get("kb_write") else "DEFERRED"
    conn.exec_driver_sql(f"BEGIN {mode}")


class Database:
    """An engine plus the two kinds of transaction the knowledge base uses."""

    def __init__(self, url: str) -> None:
        try:
            parsed = make_url(url)
        except SQLAlchemyError as exc:
            raise ConfigError(f"JUDGEKB_DATABASE_URL {url!r} is not a database URL: {exc}") from exc
        self.url = url
        self.dialect = parsed.get_backend_name()
        kwargs: dict[str, Any] = {"future": True}
        if self.dialect == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
        else:
            kwargs.update(pool_pre_ping=True, pool_size=10, max_overflow=20)
        self.engine: Engine = create_engine(url, **kwargs)
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", _sqlite_begin)

    @property
    def sqlite_path(self) -> Path | None:
        if self.dialect != "sqlite":
            return None
        db = make_url(self.url).database
        return Path(db) if db and db != ":memory:" else None

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction (a consistent snapshot on both databases)."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back on an exception."""
        with self.engine.connect().execution_options(kb_write=True) as conn, conn.begin():
            yield conn

    def dispose(self) -> None:
        self.engine.dispose()


def migrate(db: Database) -> str:
    """Bring the schema to the newest migration (idempotent); return the revision."""
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    try:
        with db.write() as conn:
            if db.dialect == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            rev = MigrationContext.configure(conn).get_current_revision() or ""
    except SQLAlchemyError as exc:
        raise KBUnavailable(
            f"rulings database {make_url(db.url).render_as_string(hide_password=True)} "
            f"cannot be opened or migrated: {exc.__class__.__name__}: {exc}"
        ) from exc
    log.info("knowledge base at revision %s (%s)", rev, db.dialect)
    return rev


def open_database(url: str) -> Database:
    """The database at ``url``, migrated to the newest schema."""
    db = Database(url)
    migrate(db)
    return db


def backup_sqlite(db: Database, target: Path) -> int:
    """A consistent online copy of the SQLite store (the sqlite3 backup API, which copies a
    snapshot while writers go on), written to a temp file and renamed; returns its size."""
    source = db.sqlite_path
    if source is None:
        raise ConfigError("`judgekb kb backup` copies the SQLite store; for PostgreSQL use pg_dump")
    if not source.exists():
        raise ConfigError(f"no knowledge base at {source}; nothing to back up")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".kb-backup-", suffix=".sqlite", dir=target.parent)
    os.close(fd)
    try:
        src = sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)
        dst = sqlite3.connect(tmp)
        with dst:
            src.backup(dst)
        dst.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
        dst.close()
        src.close()
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target.stat().st_size
