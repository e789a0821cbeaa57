"""Knowledge-base fixtures: every storage and API test runs on SQLite and on a real
PostgreSQL server (started once per session, tests/pg.py), each test on a fresh database;
the rules are the tiny real clause store and index of tests/service/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judgekb.config import Settings
from judgekb.corpus.store import ClauseStore
from judgekb.kb.base import KnowledgeBase, open_kb
from judgekb.kb.model import CLI_ACTOR, Draft, Source
from judgekb.service.app import create_app
from tests.pg import PgServer
from tests.service.conftest import searcher, store_path  # noqa: F401  (session fixtures)

PASSWORD = "correct horse battery"
DBS = ["sqlite", "postgresql"]


@pytest.fixture(autouse=True)
def cheap_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Still argon2id through argon2-cffi, with a small cost so that the many logins of these
    tests are fast on a shared machine (test_accounts checks the production parameters)."""
    from argon2 import PasswordHasher

    from judgekb.kb import accounts

    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(accounts, "_hasher", cheap)
    monkeypatch.setattr(accounts, "_DUMMY_HASH", cheap.hash("judgekb-no-such-user"))


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    server = PgServer().start()
    try:
        server.make_template()
        yield server
    finally:
        server.stop()


@pytest.fixture(params=DBS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'kb.sqlite'}"
    return request.getfixturevalue("pg").fresh_database()  # type: ignore[no-any-return]


@pytest.fixture()
def kb_settings(store_path: Path, db_url: str) -> Settings:  # noqa: F811
    return Settings(data_dir=store_path.parent, database_url=db_url, rulings_refresh_seconds=0)


@pytest.fixture()
def kb(kb_settings: Settings, store_path: Path) -> Iterator[KnowledgeBase]:  # noqa: F811
    base = open_kb(kb_settings, ClauseStore(store_path))
    yield base
    base.db.dispose()


@dataclass
class Users:
    judge: str
    head: str
    admin: str

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {getattr(self, who)}"}


def add_users(base: KnowledgeBase) -> Users:
    acc = base.accounts
    for name, role in (("judy", "judge"), ("hugo", "head-judge"), ("ada", "admin")):
        acc.add_user(name, role, PASSWORD, CLI_ACTOR)
    return Users(
        acc.create_token("judy", CLI_ACTOR),
        acc.create_token("hugo", CLI_ACTOR),
        acc.create_token("ada", CLI_ACTOR),
    )


@pytest.fixture()
def app(kb_settings: Settings, searcher):  # noqa: F811
    application = create_app(kb_settings, searcher=searcher)
    yield application
    application.state.kb.db.dispose()


@pytest.fixture()
def client(app) -> TestClient:
    return TestClient(app, follow_redirects=False)


@pytest.fixture()
def users(app) -> Users:
    return add_users(app.state.kb)


def draft(**kw: object) -> Draft:
    base: dict[str, object] = {
        "game": "summoner-master",
        "question": "ร่าย Seal แล้ว Trigger Effect ทำงานเมื่อไหร่",
        "answer": "ตรวจสอบเงื่อนไขทันทีหลังร่าย",
        "cites": ("602.1.4",),
        "lang": "th",
        "source": Source("judge"),
    }
    base.update(kw)
    return Draft(**base)  # type: ignore[arg-type]


def body(**kw: object) -> dict[str, object]:
    out: dict[str, object] = {
        "game": "summoner-master",
        "question": "ร่าย Seal แล้ว Trigger Effect ทำงานเมื่อไหร่",
        "answer": "ตรวจสอบเงื่อนไขทันทีหลังร่าย",
        "cites": ["602.1.4"],
        "lang": "th",
        "source": {"kind": "head-judge", "event": "Bangkok Regional", "date": "2026-03-01"},
    }
    out.update(kw)
    return out
