"""Bounded admission for searches: a limit on searches at once, and a deadline for each.

Past the limit a search is answered at once, and a search still waiting for the encoder at its
deadline is answered then: 503 with ``Retry-After``, in the service's error shape. So under
overload the server sheds what it cannot serve in time instead of queueing without bound, and
the searches it does serve stay fast. Other routes (clause pages, the API's lookups) are cheap
and never limited.
"""

from __future__ import annotations

from starlette.requests import Request

SEARCH_PATHS = frozenset({"/api/search", "/api/answer", "/search"})


class Admission:
    """Counts the searches in flight (on the event loop: no lock needed) and sets deadlines."""

    def __init__(self, limit: int, deadline_ms: int) -> None:
        self.limit = limit
        self.deadline_ms = deadline_ms
        self.in_flight = 0
        self.refused = 0

    def enter(self) -> bool:
        """Admit one more search, or refuse it when ``limit`` are already in flight."""
        if self.limit and self.in_flight >= self.limit:
            self.refused += 1
            return False
        self.in_flight += 1
        return True

    def leave(self) -> None:
        self.in_flight -= 1

    def deadline(self, arrived: float | None) -> float | None:
        """The ``time.monotonic()`` by which a search that arrived at ``arrived`` must reach
        the encoder (None: no deadline)."""
        if arrived is None or not self.deadline_ms:
            return None
        return arrived + self.deadline_ms / 1000


def arrival(request: Request) -> float | None:
    """When ``app.admit_searches`` let ``request`` in (None outside a search route)."""
    return getattr(request.state, "arrived", None)
