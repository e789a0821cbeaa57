"""Live reload: a running server moves to a new generation without a restart.

A thread looks at the data dir's ``current`` pointer every ``Settings.reload_interval``
seconds. When it names a generation other than the loaded one, a whole new :class:`Site`
(searcher, clause store, counts; the embedding model is shared) is loaded beside the old one,
checksums first, and swapped in with one assignment; the rulings then cite the new clause
store and are checked for stale citations against it. A request already running holds the
Site it started with and finishes on the old generation; a generation that fails to load is
logged and skipped, and the old one goes on serving.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from judgekb.config import Settings
from judgekb.index.generation import Generation, current
from judgekb.index.memory import freeze_loaded
from judgekb.service.site import Site, load_default_searcher

log = logging.getLogger(__name__)


def load_site(gen: Generation, old: Site) -> Site:
    """``gen`` loaded with the settings and embedding model of ``old``."""
    embedder = getattr(old.searcher, "embedder", None)
    new = Site(old.settings, load_default_searcher(old.settings, gen, embedder))
    new.admission = old.admission  # one count of searches in flight across the swap
    return new


class GenerationWatcher:
    """Swaps ``state.site`` for each new current generation; :meth:`poll` does one look."""

    def __init__(
        self, settings: Settings, load: Callable[[Generation, Site], Site] = load_site
    ) -> None:
        self.settings = settings
        self.load = load
        self.failed: str | None = None  # a generation that did not load: not retried
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll(self, state: Any) -> str | None:
        """Load and swap in the current generation if it is new; its id when swapped."""
        site: Site = state.site
        gen = current(self.settings.data_dir)
        if gen is None or gen.id in (site.generation, self.failed):
            return None
        try:
            new = self.load(gen, site)
        except Exception as exc:  # the old generation keeps serving, whatever went wrong
            self.failed = gen.id
            log.error(
                "generation %s not loaded, still serving %s: %s", gen.id, site.generation, exc
            )
            return None
        state.site = new
        kb = getattr(state, "kb", None)
        if kb is not None:  # rulings now cite, and are checked against, the new clause text
            kb.use_store(new.store)
        log.info("now serving generation %s (was %s)", gen.id, site.generation)
        del site
        freeze_loaded()  # the old generation's objects, kept frozen by the load, collected
        return gen.id

    def start(self, state: Any) -> None:
        def run() -> None:
            while not self._stop.wait(self.settings.reload_interval):
                self.poll(state)

        self._thread = threading.Thread(target=run, name="generation-watcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
