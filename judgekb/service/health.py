"""What ``/healthz`` checks: the things a request needs, not that the process is alive.

The clause store answers a query and its file is the one that was opened and verified; the
index is loaded with one row per stored clause. The generation is reported by id, never by
path. Any failure is a :class:`~judgekb.errors.JudgeKBError` with status 503.
"""

from __future__ import annotations

from judgekb.errors import IndexMismatch
from judgekb.service.schemas import Health
from judgekb.service.site import Site

STORE_META = ("schema_version", "corpus_hash", "normaliser_version")


def check_index(site: Site) -> None:
    rows = site.searcher.manifest.get("n_clauses")
    if rows != site.clause_count:
        raise IndexMismatch(
            f"the loaded index has {rows} rows for {site.clause_count} stored clauses; "
            "run `judgekb build`"
        )


def check_health(site: Site) -> Health:
    """The health report, or the first failing check's error (status 503)."""
    site.store.check()
    check_index(site)
    store = site.store
    return Health(
        ok=True,
        generation=site.generation,
        games=len(store.games()),
        documents=len(store.documents()),
        clauses=site.clause_count,
        checks={"store": "ok", "index": "ok"},
        store={k: v for k, v in store.meta.items() if k in STORE_META},
        manifest=dict(site.searcher.manifest or {}),
    )
