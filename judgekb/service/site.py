"""What every route needs: settings, the searcher, its clause store, URLs and the glossary.

Routes read one :class:`Site` from ``request.app.state.site``; nothing here renders HTML.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol
from urllib.parse import quote, urlencode

from starlette.requests import Request

from judgekb.config import Settings
from judgekb.corpus.edition_store import Editions
from judgekb.corpus.editions import permalink_pin, primary_document, visible_docs
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.model import Document
from judgekb.corpus.store import ClauseStore
from judgekb.errors import UnknownDocument
from judgekb.index.generation import Generation
from judgekb.index.hits import clause_url
from judgekb.index.request import SearchRequest
from judgekb.index.results import SearchHit, SearchResult
from judgekb.service.admission import Admission
from judgekb.service.definitions import (
    Definition,
    Definitions,
    defining_names,
    definition_text,
)
from judgekb.service.markup import Linker, preview
from judgekb.service.offline import OfflineBundle, load_bundle

log = logging.getLogger(__name__)


class Searcher(Protocol):
    """What the service needs from ``judgekb.index.search.Searcher``."""

    @property
    def store(self) -> ClauseStore: ...

    @property
    def manifest(self) -> dict[str, Any]: ...

    def search(self, request: SearchRequest) -> SearchResult: ...

    def answering(self, result: SearchResult, hit: SearchHit) -> list[tuple[int, int]]: ...


def load_default_searcher(
    settings: Settings, generation: Generation | None = None, embedder: Any = None
) -> Searcher:
    """The real searcher over the current generation (or ``generation``), reusing
    ``embedder`` when given. Its errors travel by type (IndexNotBuilt, GenerationDamaged,
    StoreError, IndexMismatch, ModelError), each message naming the fix."""
    from judgekb.index.search import load_searcher

    return load_searcher(settings, generation=generation, embedder=embedder)


class Site:
    """The loaded searcher and store plus URL helpers and per-game glossary links."""

    def __init__(self, settings: Settings, searcher: Searcher) -> None:
        self.settings = settings
        self.searcher = searcher
        self.generation: str | None = getattr(searcher, "generation", None)
        self.admission = Admission(settings.search_queue_limit, settings.search_deadline_ms)
        self.store: ClauseStore = searcher.store
        self._definitions: dict[str, Definitions] = {}
        self._lock = threading.Lock()
        self.doc_counts = {
            d.doc_id: len(self.store.clauses(d.doc_id)) for d in self.store.documents()
        }
        self.clause_count = sum(self.doc_counts.values())
        self.editions = Editions(self.store)
        self._doc_langs = {d.doc_id: d.lang for d in self.store.documents()}
        self.bundle: OfflineBundle = load_bundle(settings, self.store, searcher.manifest)
        short = load_manifest(settings.manifest).game_short
        # the game menu's labels: each game's short name (a phone has room for "Vanguard")
        self.game_menu = {g: short.get(g, name) for g, name in self.store.games().items()}

    # documents ------------------------------------------------------------------------
    def primary_doc(self, game: str) -> Document:
        """The document a game's permalinks mean without ``?doc=``: the edition in force today
        of its first rulebook (:func:`judgekb.corpus.editions.primary_document`)."""
        self.store.check_game(game)
        return primary_document(self.store.documents(), game)

    def game_doc(self, game: str, doc_id: str | None) -> str | None:
        """``doc_id`` checked to belong to ``game`` (UnknownDocument lists the game's docs)."""
        docs = self.store.docs_of(game)
        if doc_id is not None and doc_id not in [d.doc_id for d in docs]:
            raise UnknownDocument(doc_id, [d.doc_id for d in docs])
        return doc_id

    # urls -----------------------------------------------------------------------------
    def clause_url(
        self, game: str, clause_id: str, doc_id: str | None = None, pin: bool = False
    ) -> str:
        """The permalink; ``?doc=`` only when the clause is not in the game's primary document,
        ``?edition=`` when it is in another edition of the same rulebook, or always for a
        rulebook's clause with ``pin`` (the answer card's link keeps the wording it showed)."""
        primary = self.primary_doc(game)
        if doc_id is None:
            return clause_url(game, clause_id, None, primary.doc_id)
        doc = self.store.document(doc_id)
        pin_doc, edition = permalink_pin(doc, primary)
        if pin and pin_doc is None and doc.kind == "rules":
            edition = doc.version
        return clause_url(game, clause_id, pin_doc, None, edition)

    def doc_lang(self, doc_id: str) -> str:
        """The language a document is printed in: the ``lang`` of its rule text on pages."""
        return self._doc_langs.get(doc_id) or self.store.document(doc_id).lang

    def doc_url(self, doc_id: str, clause_id: str) -> str:
        return self.clause_url(self.store.document(doc_id).game, clause_id, doc_id)

    def clause_preview(self, doc_id: str, clause_id: str | None) -> str:
        if clause_id is None:
            return ""
        c = self.store.get(doc_id, clause_id)
        return preview(c.text or c.title) if c else ""

    # definitions ----------------------------------------------------------------------
    def definitions(self, game: str) -> Definitions:
        """The glossary and keyword terms of ``game``'s documents in force (built once)."""
        with self._lock:
            if game not in self._definitions:
                self._definitions[game] = self._build_definitions(game)
            return self._definitions[game]

    def glossary(self, game: str) -> Linker:
        """A regex over every defined term of ``game`` and the entry each name links to."""
        return self.definitions(game).linker()

    def _build_definitions(self, game: str) -> Definitions:
        entries: list[Definition] = []
        shown = visible_docs(self.store.documents())
        for doc in self.store.docs_of(game):
            if doc.doc_id not in shown:
                continue
            for c in self.store.clauses(doc.doc_id):
                names = defining_names(c)
                if names:
                    url = self.clause_url(game, c.clause_id, doc.doc_id)
                    text = definition_text(self.store, c)
                    entries.append(Definition(names, c.doc_id, c.clause_id, c.title, text, url))
        log.debug("definitions of %s: %d terms", game, len(entries))
        return Definitions(entries)


def page_url(request: Request, **params: str | None) -> str:
    """The current path with some query parameters replaced (None removes one)."""
    query = dict(request.query_params)
    for key, value in params.items():
        if value is None:
            query.pop(key, None)
        else:
            query[key] = value
    # "//evil.example/x" is a path to the server but a host to a browser: one slash only.
    path = "/" + request.url.path.lstrip("/")
    return quote(path, safe="/") + ("?" + urlencode(query) if query else "")
