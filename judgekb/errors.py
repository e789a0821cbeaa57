"""The one exception hierarchy of judgekb.

Every error the package raises on purpose derives from :class:`JudgeKBError`.
Each carries an HTTP ``status`` so the service maps it without a lookup table::

    JudgeKBError                      (status 500)
    ├── ConfigError                   bad setting or manifest            (500)
    │   ├── ManifestError             malformed manifest entry (file, line)
    │   └── DataDirError              data dir not writable (a build needs it)
    ├── RulebookError                 a rulebook cannot be read          (500)
    │   └── RulebookParseError        malformed rulebook line (file, line)
    ├── BuildLocked                   another build holds the data dir   (503)
    ├── StoreError                    clause store missing or corrupt    (503)
    ├── IndexNotBuilt                 no index / no current generation   (503)
    ├── IndexMismatch                 index built for another model/corpus (503)
    │   └── GenerationDamaged         an artifact fails its checksum     (503)
    ├── ModelError                    embedding model cannot be built/loaded (503)
    ├── Overloaded                    too many searches at once, or one waited too long (503)
    ├── QueryError                    unusable query (empty, huge, binary) (400)
    │   └── QueryTooLong              over the length limit              (413)
    ├── UnknownGame                   game slug not in the manifest      (404)
    ├── UnknownDocument               doc id not in the manifest         (404)
    ├── UnknownFamily                 no rulebook family of that name    (404)
    ├── UnknownEdition                no edition printed as that version (404)
    ├── ClauseNotFound                no clause with that id             (404)
    ├── RulingNotFound                no ruling with that id (or not visible) (404)
    ├── KBUnavailable                 rulings database unreachable / unmigrated (503)
    ├── Unauthorized                  no, bad or expired token or session (401)
    ├── Forbidden                     signed in, but the role may not do it, or bad CSRF (403)
    ├── TooManyAttempts               login throttled for the account or address (429)
    ├── RequestTooLarge               a request body over the size limit (413)
    ├── Conflict                      state does not allow it (publish a retracted ruling, …) (409)
    └── ValidationFailed              a field is missing, too long or malformed (field) (422)
        └── UnknownClauses            cited clause ids the game does not have (names them)
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


class DataDirError(ConfigError):
    """The data dir cannot be written (a build needs to), e.g. a read-only mount."""


class BuildLocked(JudgeKBError):
    """Another build holds the data dir's lock; names the holder (pid, host, since)."""

    status = 503


class StoreError(JudgeKBError):
    """The SQLite clause store is missing or unreadable."""

    status = 503


class IndexNotBuilt(JudgeKBError):
    """The search index directory does not exist yet."""

    status = 503


class IndexMismatch(JudgeKBError):
    """The index on disk was built for another model, normaliser or corpus."""

    status = 503


class GenerationDamaged(IndexMismatch):
    """A file of a generation is missing or fails its recorded checksum; names the file."""

    def __init__(self, message: str, *, generation: str = "", file: str = "") -> None:
        super().__init__(message)
        self.generation = generation
        self.file = file


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


class BadParameter(QueryError):
    """A value beside the query text is not valid (a date, an edition pair, a mode, k): the
    judge is told the address is wrong, not to type another question."""


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


class UnknownFamily(_NotFound):
    """A rulebook family (manifest ``family``) that no document belongs to."""

    def __init__(self, family: str, known: Sequence[str]) -> None:
        super().__init__(f"unknown rulebook family {family!r}; known: {', '.join(sorted(known))}")
        self.family = family
        self.known = list(known)


class UnknownEdition(_NotFound):
    """A version that no edition (of the named family or game) is printed as."""

    def __init__(self, version: str, known: Sequence[str], where: str = "") -> None:
        of = f" of {where}" if where else ""
        super().__init__(
            f"unknown edition {version!r}{of}; known editions: {', '.join(known) or 'none'}"
        )
        self.version = version
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


class RulingNotFound(_NotFound):
    """No ruling with that id, or not one the caller may see."""

    def __init__(self, ruling_id: int | str) -> None:
        super().__init__(f"no ruling {ruling_id}; see /rulings for the published ones")
        self.ruling_id = ruling_id


class KBUnavailable(JudgeKBError):
    """The rulings database cannot be opened or migrated."""

    status = 503


class Unauthorized(JudgeKBError):
    """No credentials, or credentials that do not match a live token or session."""

    status = 401
    headers = {"WWW-Authenticate": "Bearer"}


class Forbidden(JudgeKBError):
    """Authenticated, but not allowed (role too low, or a form without a valid CSRF token)."""

    status = 403


class TooManyAttempts(JudgeKBError):
    """Too many failed logins for an account or an address; carries ``retry_after`` seconds."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


class RequestTooLarge(JudgeKBError):
    """A request body larger than the service accepts."""

    status = 413


class Conflict(JudgeKBError):
    """The request is valid but the current state does not allow it."""

    status = 409


class ValidationFailed(JudgeKBError):
    """A field is missing, too long or malformed; ``field`` names it."""

    status = 422

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class UnknownClauses(ValidationFailed):
    """Cited clause ids that the game's rulebooks do not have; the message names every one."""

    def __init__(self, game: str, clause_ids: Sequence[str]) -> None:
        super().__init__(
            f"unknown clause ids in {game}: {', '.join(clause_ids)}; "
            f"cite clauses as printed, e.g. /rules/{game} lists them",
            field="cites",
        )
        self.game = game
        self.clause_ids = list(clause_ids)
