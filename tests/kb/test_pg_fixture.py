from sqlalchemy import text

from judgekb.kb.db import Database


def test_postgres_is_real(pg) -> None:
    db = Database(pg.fresh_database())
    with db.read() as conn:
        assert conn.execute(text("select version()")).scalar().startswith("PostgreSQL")
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0001"
    db.dispose()
