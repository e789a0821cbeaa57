"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` binaries (installed by
``make services``), initdb + pg_ctl in a temp directory, as ``nobody`` when run as root
(PostgreSQL refuses to run as root), on a free localhost port; stopped at the end."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

TEMPLATE = "kb_template"


def pg_bindir() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    return Path(which).parent if which else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    def __init__(self) -> None:
        bindir = pg_bindir()
        if bindir is None:
            raise RuntimeError(
                "PostgreSQL is not installed: run `make services` (apt-get install postgresql)"
            )
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="judgekb-pg-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.data.mkdir()
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "nobody")
            shutil.chown(self.data, "nobody")
            self._as = ["runuser", "-u", "nobody", "--"]
        self._n = itertools.count()

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, cwd=self.root)

    def start(self) -> PgServer:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
            "--no-sync",
        )
        opts = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-o",
            opts,
            "-w",
            "-t",
            "60",
            "start",
        )
        return self

    def url(self, db: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{db}"

    def make_template(self) -> None:
        """A migrated database every test database is copied from (fast, no migrations)."""
        from sqlalchemy import create_engine

        from judgekb.kb.db import open_database

        admin = create_engine(self.url(), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f"CREATE DATABASE {TEMPLATE}")
        admin.dispose()
        open_database(self.url(TEMPLATE)).dispose()

    def fresh_database(self) -> str:
        from sqlalchemy import create_engine

        name = f"kb_test_{next(self._n)}"
        admin = create_engine(self.url(), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        admin.dispose()
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
