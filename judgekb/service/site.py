"""What every route needs: settings, the searcher, its clause store, URLs and the glossary.

Routes read one :class:`Site` from ``request.app.state.site``; nothing here renders HTML.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any, Protocol
from urllib.parse import quote, urlencode

from starlette.requests import Request

from judgekb.config import Settings
from judgekb.corpus.model import Document
from judgekb.corpus.store import ClauseStore
from judgekb.errors import StoreError, UnknownDocument
from judgekb.index.hits import clause_url
from judgekb.index.request import SearchRequest
from judgekb.index.results import SearchResult
from judgekb.service.admission import Admission
from judgekb.service.markup import Term, term_pattern

log = logging.getLogger(__name__)

PREVIEW_CHARS = 240
MIN_TERM_CHARS = 3  # shorter glossary names ("Lv", "Mp") would link half the text
MIN_THAI_TERM_CHARS = 4  # "และ" (and) is a glossary entry of the SM rulebook: not a link


class Searcher(Protocol):
    """What the service needs from ``judgekb.index.search.Searcher``."""

    @property
    def store(self) -> ClauseStore: ...

    @property
    def manifest(self) -> dict[str, Any]: ...

    def search(self, request: SearchRequest) -> SearchResult: ...


def load_default_searcher(settings: Settings) -> Searcher:
    """The real searcher. Its errors travel by type (StoreError, IndexNotBuilt,
    IndexMismatch, ModelError), each message naming the fix."""
    if not settings.store_path.exists():
        raise StoreError(
            f"no clause store at {settings.store_path}; run `judgekb build` (or `make run`) first"
        )
    from judgekb.index.search import load_searcher

    return load_searcher(settings)


def preview(text: str, n: int = PREVIEW_CHARS) -> str:
    """The first ``n`` characters of a clause, cut at a space when one is near."""
    text = " ".join(text.split())
    if len(text) <= n:
        return text
    cut = text.rfind(" ", n - 40, n)
    return text[: cut if cut > 0 else n] + "…"


class Site:
    """The loaded searcher and store plus URL helpers and per-game glossary links."""

    def __init__(self, settings: Settings, searcher: Searcher) -> None:
        self.settings = settings
        self.searcher = searcher
        self.admission = Admission(settings.search_queue_limit, settings.search_deadline_ms)
        self.store: ClauseStore = searcher.store
        self._glossary: dict[str, tuple[re.Pattern[str] | None, dict[str, Term]]] = {}
        self._lock = threading.Lock()
        self.doc_counts = {
            d.doc_id: len(self.store.clauses(d.doc_id)) for d in self.store.documents()
        }
        self.clause_count = sum(self.doc_counts.values())

    # documents ------------------------------------------------------------------------
    def primary_doc(self, game: str) -> Document:
        """The document a game's permalinks mean without ``?doc=``: its first rules document."""
        docs = self.store.docs_of(game)
        return next((d for d in docs if d.kind == "rules"), docs[0])

    def game_doc(self, game: str, doc_id: str | None) -> str | None:
        """``doc_id`` checked to belong to ``game`` (UnknownDocument lists the game's docs)."""
        docs = self.store.docs_of(game)
        if doc_id is not None and doc_id not in [d.doc_id for d in docs]:
            raise UnknownDocument(doc_id, [d.doc_id for d in docs])
        return doc_id

    # urls -----------------------------------------------------------------------------
    def clause_url(self, game: str, clause_id: str, doc_id: str | None = None) -> str:
        """The permalink; ``?doc=`` only when the clause is not in the game's primary document."""
        return clause_url(game, clause_id, doc_id, self.primary_doc(game).doc_id)

    def doc_url(self, doc_id: str, clause_id: str) -> str:
        return self.clause_url(self.store.document(doc_id).game, clause_id, doc_id)

    def clause_preview(self, doc_id: str, clause_id: str | None) -> str:
        if clause_id is None:
            return ""
        c = self.store.get(doc_id, clause_id)
        return preview(c.text or c.title) if c else ""

    # glossary -------------------------------------------------------------------------
    def glossary(self, game: str) -> tuple[re.Pattern[str] | None, dict[str, Term]]:
        """A regex over every glossary name of ``game`` and the entry each name links to."""
        with self._lock:
            if game not in self._glossary:
                self._glossary[game] = self._build_glossary(game)
            return self._glossary[game]

    def _build_glossary(self, game: str) -> tuple[re.Pattern[str] | None, dict[str, Term]]:
        terms: dict[str, Term] = {}
        for doc in self.store.docs_of(game):
            for c in self.store.clauses(doc.doc_id):
                if c.kind != "glossary":
                    continue
                body = c.text.removeprefix(c.title).strip() or c.text
                term = Term(self.clause_url(game, c.clause_id, doc.doc_id), c.title, preview(body))
                for name in (c.title, *c.aliases):
                    name = name.strip().rstrip(":").strip()
                    if _linkable(name):
                        terms.setdefault(name.casefold(), term)
        log.debug("glossary of %s: %d names", game, len(terms))
        return term_pattern(list(terms)), terms


def _linkable(name: str) -> bool:
    """Glossary names worth a link: long enough, and no placeholder like "<xxx>"."""
    need = MIN_TERM_CHARS if name.isascii() else MIN_THAI_TERM_CHARS
    return len(name) >= need and "<" not in name


def page_url(request: Request, **params: str | None) -> str:
    """The current path with some query parameters replaced (None removes one)."""
    query = dict(request.query_params)
    for key, value in params.items():
        if value is None:
            query.pop(key, None)
        else:
            query[key] = value
    return quote(request.url.path, safe="/") + ("?" + urlencode(query) if query else "")
