"""Benchmark of the rulings layer: write throughput and ruling-search latency with 10,000
published rulings loaded.

    .venv/bin/python scripts/bench_rulings.py [--n 10000] [--writers 8] [--queries 300]
        [--database-url URL]   # default: a fresh SQLite file in a temp directory

Rulings cite real clauses of the built store (var/, `make build`) and take their words from
the clause texts, so BM25 sees the corpus's vocabulary. The script checks its own inputs:
every write acknowledged is stored, all N are published before search is timed, and every
query text is distinct (a repeated query would measure a cache). Figures printed as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from judgekb.config import Settings
from judgekb.corpus.store import ClauseStore
from judgekb.kb.cites import StoreResolver
from judgekb.kb.db import open_database
from judgekb.kb.model import Actor, Draft, Source
from judgekb.kb.repo import RulingRepo
from judgekb.kb.search import RulingSearch

JUDGE = Actor("bench-judge", "judge", "bench")
HEAD = Actor("bench-head", "head-judge", "bench")


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--database-url", default=None)
    args = ap.parse_args()

    settings = Settings()
    store = ClauseStore(settings.store_path)
    rng = random.Random(14)
    clauses = [c for c in store.clauses() if c.kind == "clause" and len(c.text) > 40]
    games = {d.doc_id: d.game for d in store.documents()}
    primary = {
        g: next(d.doc_id for d in store.docs_of(g) if d.kind == "rules") for g in store.games()
    }
    clauses = [c for c in clauses if primary[games[c.doc_id]] == c.doc_id]
    url = args.database_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'kb.sqlite'}"
    db = open_database(url)
    repo = RulingRepo(db, StoreResolver(store))

    def draft(i: int) -> Draft:
        c = rng.choice(clauses)
        words = c.text.split()
        start = rng.randrange(max(1, len(words) - 12))
        q = " ".join(words[start : start + 12])
        return Draft(
            games[c.doc_id],
            f"{q} ({i})",
            f"Per §{c.clause_id}: " + " ".join(words[:30]),
            (c.clause_id,),
            c.lang if c.lang in ("th", "ms") else "en",
            Source("judge"),
        )

    drafts = [draft(i) for i in range(args.n)]
    ids: list[int] = []
    lock = threading.Lock()

    def work(part: list[Draft]) -> None:
        for d in part:
            r = repo.submit(d, JUDGE)
            with lock:
                ids.append(r.id)

    t0 = time.perf_counter()
    threads = [
        threading.Thread(target=work, args=(drafts[w :: args.writers],))
        for w in range(args.writers)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    write_s = time.perf_counter() - t0
    assert len(ids) == len(set(ids)) == args.n, "a write was lost"
    t0 = time.perf_counter()
    for rid in ids:
        repo.review(rid, "approve", HEAD)
    approve_s = time.perf_counter() - t0
    assert repo.counts().get("published") == args.n, "not every ruling is published"

    search = RulingSearch(repo, refresh_seconds=3600)
    t0 = time.perf_counter()
    search.refresh(force=True)
    build_s = time.perf_counter() - t0
    queries: list[str] = []
    seen: set[str] = set()
    while len(queries) < args.queries:
        c = rng.choice(clauses)
        words = c.text.split()
        start = rng.randrange(max(1, len(words) - 6))
        q = " ".join(words[start : start + rng.randint(3, 6)])
        if q not in seen:
            seen.add(q)
            queries.append(q)
    assert len(set(queries)) == len(queries), "queries repeat"
    lat, found = [], 0
    for q in queries:
        t = time.perf_counter()
        hits = search.search(q, k=5)
        lat.append((time.perf_counter() - t) * 1000)
        found += bool(hits)
    print(
        json.dumps(
            {
                "date": time.strftime("%Y-%m-%d"),
                "machine": f"{platform.machine()} {os.cpu_count()} CPU, {platform.python_version()}",
                "load_average": os.getloadavg()[0],
                "database": db.dialect,
                "rulings": args.n,
                "writers": args.writers,
                "submit_per_s": round(args.n / write_s, 1),
                "approve_per_s": round(args.n / approve_s, 1),
                "ruling_index_build_s": round(build_s, 2),
                "queries": len(queries),
                "queries_with_hits": found,
                "search_ms_p50": round(statistics.median(lat), 2),
                "search_ms_p95": round(pct(lat, 95), 2),
            },
            indent=1,
        )
    )
    db.dispose()


if __name__ == "__main__":
    main()
