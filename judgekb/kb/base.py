"""``open_kb(settings, store)``: the knowledge base a process uses (database, migrations run,
rulings, accounts, ruling search), and the stale check run at load and after a rebuild."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from judgekb.config import Settings
from judgekb.corpus.store import ClauseStore
from judgekb.kb.accounts import Accounts, Throttle
from judgekb.kb.cites import StoreResolver
from judgekb.kb.db import Database, open_database
from judgekb.kb.model import SYSTEM_ACTOR
from judgekb.kb.repo import RulingRepo
from judgekb.kb.search import RulingSearch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class KnowledgeBase:
    db: Database
    rulings: RulingRepo
    accounts: Accounts
    search: RulingSearch

    def use_store(self, store: ClauseStore) -> list[int]:
        """Cite against ``store`` from now on (a live reload's new generation) and run the
        stale check against it."""
        self.rulings.resolver = StoreResolver(store)
        return self.check_stale()

    def check_stale(self) -> list[int]:
        """Flag ``needs-review`` every live ruling whose cited clause text changed."""
        flagged = self.rulings.flag_stale(SYSTEM_ACTOR)
        if flagged:
            log.warning("%d rulings cite changed clause text: flagged needs-review", len(flagged))
        return flagged


def open_kb(settings: Settings, store: ClauseStore, check: bool = True) -> KnowledgeBase:
    """Open (and migrate) the database of ``settings``; with ``check``, run the stale check."""
    db = open_database(settings.kb_url)
    repo = RulingRepo(db, StoreResolver(store))
    throttle = Throttle(
        settings.login_max_failures,
        settings.login_max_failures_per_address,
        settings.login_window_seconds,
    )
    kb = KnowledgeBase(
        db,
        repo,
        Accounts(db, throttle, settings.session_hours),
        RulingSearch(repo, settings.rulings_refresh_seconds),
    )
    if check:
        kb.check_stale()
        kb.search.refresh(force=True)  # a service starts with its ruling index built
    return kb
