"""judgekb: rules knowledge base and search for trading-card-game tournament judges.

``judgekb.search(query, game=None, k=10, ...)`` searches the built index named by the
settings (``JUDGEKB_*`` environment variables); the index is loaded once per process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judgekb.index.results import SearchResult
    from judgekb.index.search import Searcher

__all__ = ["search"]
__version__ = "0.1.0"

_searcher: Searcher | None = None


def search(
    query: str,
    game: str | None = None,
    k: int = 10,
    mode: str = "hybrid",
    doc: str | None = None,
    lang: str | None = None,
    kind: str | None = None,
) -> SearchResult:
    """Search the rules; the first call loads the index and the embedding model.

    ``kind`` is a clause kind (chapter, section, clause, glossary, appendix); build a
    :class:`judgekb.index.request.SearchRequest` for the full scope (document kind, edition,
    date).
    """
    global _searcher
    if _searcher is None:
        from judgekb.config import get_settings
        from judgekb.index.search import load_searcher

        _searcher = load_searcher(get_settings())
    from judgekb.index.request import SearchRequest

    request = SearchRequest.of(query, game, k, mode, doc=doc, lang=lang, clause_kind=kind)
    return _searcher.search(request)
