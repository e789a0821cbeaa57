"""Keep a long-running process's heap from growing after a burst, and its collector quick.

glibc gives each thread that allocates concurrently an arena of its own (up to 8 per core) and
keeps freed memory inside them; a web service whose thread pool grows during a burst keeps that
memory for good. :func:`limit_malloc_arenas` caps the number of arenas (``mallopt(M_ARENA_MAX)``,
effective for arenas created afterwards, so call it at start-up), and :func:`release_memory`
returns free heap pages of every arena to the system (``malloc_trim(0)``); both glibc only,
no-ops elsewhere.

:func:`freeze_loaded` takes what a loaded generation allocated (about 550,000 objects: clauses,
vocabularies, the game model's n-grams) out of Python's cyclic collector: a full collection
over them took about 155 ms, longer than a search's deadline (150 ms), and one could strike any
request at random (a 503 on an idle server, seen in the tests).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
from functools import lru_cache

log = logging.getLogger(__name__)

M_ARENA_MAX = -8  # glibc's mallopt parameter number


@lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim  # noqa: B018 - glibc only; musl and others lack it
        libc.mallopt  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def limit_malloc_arenas(n: int) -> bool:
    """Cap glibc's malloc arenas at ``n`` (0 leaves the default); True when applied."""
    libc = _libc()
    if n <= 0 or libc is None:
        return False
    ok = bool(libc.mallopt(M_ARENA_MAX, n))
    log.debug("malloc arenas capped at %d: %s", n, ok)
    return ok


def release_memory() -> bool:
    """Give free C-heap pages back to the system; True when some were released."""
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0))


def freeze_loaded() -> None:
    """Collect once, then freeze every object alive (a loaded index changes no more). What an
    earlier call froze is unfrozen first, so a generation dropped since (a live reload) is
    collected here instead of being kept for good."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
