"""The one exception hierarchy of judgekb.

Every error the package raises on purpose derives from :class:`JudgeKBError`.
Each carries an HTTP ``status`` so the service maps it without a lookup table::

    JudgeKBError                      (status 500)
    ├── ConfigError                   bad setting or manifest            (500)
    │   └── ManifestError             malformed manifest entry (file, line)
    ├── RulebookError                 a rulebook cannot be read          (500)
    │   └── RulebookParseError        malformed rulebook line (file, line)
    ├── StoreError                    clause store missing or corrupt    (503)
    ├── IndexNotBuilt                 no index directory                 (503)
    ├── IndexMismatch                 index built for another model/corpus (503)
    ├── ModelError                    embedding model cannot be built/loaded (503)
    ├── Overloaded                    too many searches at once, or one waited too long (503)
    ├── QueryError                    unusable query (empty, huge, binary) (400)
    │   └── QueryTooLong              over the length limit              (413)
    ├── UnknownGame                   game slug not in the manifest      (404)
    ├── UnknownDocument               doc id not in the manifest         (404)
    └── ClauseNotFound                no clause with that id             (404)
"""

from __future__ import annotations

from collections.abc import Sequence


class JudgeKBError(Exception):
    """Base of every error judgekb raises on purpose."""

    status: int = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ConfigError(JudgeKBError):
    """A setting or a data file the program depends on is wrong."""


class ManifestError(ConfigError):
    """The corpus manifest is malformed; names the file and, where known, the line."""

    def __init__(self, message: str, *, path: str = "", line: int | None = None) -> None:
        where = path + (f":{line}" if line is not None else "")
        super().__init__(f"{where}: {message}" if where else message)
        self.path = path
        self.line = line


class RulebookError(JudgeKBError):
    """A rulebook file cannot be used (missing, binary, empty, unknown encoding)."""

    def __init__(self, message: str, *, path: str = "", line: int | None = None) -> None:
        where = path + (f":{line}" if line is not None else "")
        super().__init__(f"{where}: {message}" if where else message)
        self.path = path
        self.line = line


class RulebookParseError(RulebookError):
    """A rulebook line cannot be parsed."""


class StoreError(JudgeKBError):
    """The SQLite clause store is missing or unreadable."""

    status = 503


class IndexNotBuilt(JudgeKBError):
    """The search index directory does not exist yet."""

    status = 503


class IndexMismatch(JudgeKBError):
    """The index on disk was built for another model, normaliser or corpus."""

    status = 503


class ModelError(JudgeKBError):
    """The embedding model cannot be built or loaded."""

    status = 503


class Overloaded(JudgeKBError):
    """The service is at its admission limit, or a search waited past its deadline.

    The service answers 503 with a ``Retry-After`` header; retrying later is the fix.
    """

    status = 503


class QueryError(JudgeKBError):
    """The query cannot be searched (empty, binary, …)."""

    status = 400


class QueryTooLong(QueryError):
    """The query exceeds the configured length limit."""

    status = 413


class _NotFound(JudgeKBError):
    status = 404


class UnknownGame(_NotFound):
    """A game slug that is not in the manifest."""

    def __init__(self, game: str, known: Sequence[str]) -> None:
        super().__init__(f"unknown game {game!r}; known games: {', '.join(sorted(known))}")
        self.game = game
        self.known = list(known)


class UnknownDocument(_NotFound):
    """A document id that is not in the manifest."""

    def __init__(self, doc: str, known: Sequence[str]) -> None:
        super().__init__(f"unknown document {doc!r}; known documents: {', '.join(sorted(known))}")
        self.doc = doc
        self.known = list(known)


class ClauseNotFound(_NotFound):
    """No clause with that id in that game or document; carries the nearest ids."""

    def __init__(self, where: str, clause_id: str, suggestions: Sequence[str] = ()) -> None:
        msg = f"no clause {clause_id!r} in {where}"
        if suggestions:
            msg += f"; nearest: {', '.join(suggestions)}"
        super().__init__(msg)
        self.where = where
        self.clause_id = clause_id
        self.suggestions = list(suggestions)
