"""Benchmark of issue 13: add a ~500-clause edition to a built index and time the rebuild.

    .venv/bin/python scripts/bench_editions.py [--edits 12] [--cold] [--json]

A copy of the built data dir (store, index, embedding cache; the model directory linked) gets a
manifest that extends the bundled one with a new edition of the Gundam rules (Ver.1.2.0, 537
clauses, sharing the family's OCR corrections): the bundled text with ``--edits`` clauses
reworded (leaf clauses of the clean rendering, spread over the book). The rebuild
(corpus + alignment + index) is timed, and the benchmark fails unless

* the new edition has 400-700 clauses (it is the size its label says),
* the passages that the cache did not hold before the rebuild are exactly the reworded ones,
* the rebuild embedded exactly those passages.

``--cold`` also times embedding every passage of the new edition without the cache, the cost
the cache saves.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judgekb.config import DATA_DIR, Settings  # noqa: E402

EDITION = """extends = "{bundled}"

[[document]]
doc_id = "gundam-cr-1.2"
family = "gundam-cr"
game = "gundam"
title = "Gundam Card Game Comprehensive Rules"
lang = "th"
version = "Ver.1.2.0"
effective_date = "2026-06-01"
kind = "rules"
source = "gundam-1.2.txt"
numbering = "dashed"
corrections = "gundam-cr"
"""
CLEAN_LINE = re.compile(r"^\t(\d+(?:-\d+)+)\. ")
MARK = " (แก้ไขในฉบับ Ver.1.2.0)"


def edited_gundam(text: str, clean_ids: set[str], n: int) -> tuple[str, list[str]]:
    """The Gundam text with ``n`` clean-rendering clauses (spread over the book) reworded."""
    lines = text.split("\n")
    at = [i for i, ln in enumerate(lines) if (m := CLEAN_LINE.match(ln)) and m[1] in clean_ids]
    chosen = at[:: max(1, len(at) // n)][:n]
    for i in chosen:
        lines[i] = lines[i].rstrip() + MARK
    return "\n".join(lines), [CLEAN_LINE.match(lines[i])[1] for i in chosen]  # type: ignore[index]


def passages(store):  # type: ignore[no-untyped-def]
    from judgekb.index.passages import heading_paths, passage_text

    clauses = store.clauses()
    paths = heading_paths(clauses)
    return {
        (c.doc_id, c.clause_id): passage_text(c, paths[(c.doc_id, c.clause_id)]) for c in clauses
    }


def cached_keys(cache_path: Path) -> set[str]:
    import sqlite3

    con = sqlite3.connect(cache_path)
    try:
        return {r[0] for r in con.execute("SELECT key FROM vec")}
    finally:
        con.close()


def copy_data_dir(src: Path, dst: Path) -> None:
    """The current generation, its pointer and the embedding cache; the model linked."""
    skip = shutil.ignore_patterns("models", "offline", "kb.sqlite*", ".build.lock", ".tmp-*")
    shutil.copytree(src, dst, symlinks=True, ignore=skip)
    (dst / "models").symlink_to((src / "models").resolve())


def run(data_dir: Path, n_edits: int, cold: bool) -> dict:
    from judgekb.corpus.manifest import load_manifest
    from judgekb.corpus.store import ClauseStore

    clauses = ClauseStore(Settings(data_dir=data_dir).store_path).clauses("gundam-cr")
    parents = {c.parent_id for c in clauses}
    # reworded leaves: a heading's title is part of its descendants' passages, so rewording
    # one would (rightly) re-embed its whole subtree
    clean = {c.clause_id for c in clauses if c.provenance == "clean" and c.clause_id not in parents}
    manifest = load_manifest(DATA_DIR / "manifest.toml")
    text = manifest.source_path(manifest.document("gundam-cr")).read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        copy_data_dir(data_dir, tmp / "var")
        new_text, edited = edited_gundam(text, clean, n_edits)
        (tmp / "gundam-1.2.txt").write_text(new_text, encoding="utf-8")
        (tmp / "manifest.toml").write_text(
            EDITION.format(bundled=DATA_DIR / "manifest.toml"), encoding="utf-8"
        )
        settings = Settings(data_dir=tmp / "var", manifest=tmp / "manifest.toml")
        return timed_rebuild(settings, edited, cold)


def timed_rebuild(settings: Settings, edited: list[str], cold: bool) -> dict:
    """`judgekb build` (corpus, alignment, index, new generation) after adding the edition,
    checked by :func:`check`: the passages missing from the cache were the reworded ones."""
    from judgekb.corpus.store import ClauseStore
    from judgekb.index.embed_cache import text_key
    from judgekb.index.embedder import configured_embedder
    from judgekb.index.rebuild import build_all

    cache = settings.data_dir / "cache" / "embeddings.sqlite"
    before = cached_keys(cache)
    t0 = time.perf_counter()
    report = build_all(settings)
    seconds = time.perf_counter() - t0
    store = ClauseStore(settings.store_path)
    texts = passages(store)
    fresh = {k for k, t in texts.items() if text_key(settings.model, t) not in before}
    new_ids = [c.clause_id for c in store.clauses("gundam-cr-1.2")]
    embedded = len(cached_keys(cache) - before)
    check(len(new_ids), fresh, edited)
    out = {
        "edition_clauses": len(new_ids),
        "reworded": len(edited),
        "passages_embedded": len(fresh),
        "texts_embedded": embedded,  # passages and sentences of the reworded
        "total_clauses": len(texts),
        "diff": {k: len(v) for k, v in diff_summary(store).items()},
        "rebuild_s": round(seconds, 1),
        "report": report.replace("\n", " "),
    }
    if cold:
        embedder = configured_embedder(settings)
        t2 = time.perf_counter()
        embedder.encode_passages([texts[("gundam-cr-1.2", i)] for i in new_ids])
        out["embed_whole_edition_s"] = round(time.perf_counter() - t2, 1)
    return out


def check(n_clauses: int, fresh: set, edited: list[str]) -> None:
    if not 400 <= n_clauses <= 700:
        raise SystemExit(f"the new edition has {n_clauses} clauses, not ~500")
    want = {("gundam-cr-1.2", i) for i in edited}
    if fresh != want:
        raise SystemExit(
            f"newly embedded passages {sorted(fresh)} are not the edits {sorted(want)}"
        )


def diff_summary(store):  # type: ignore[no-untyped-def]
    from judgekb.corpus.edition_store import Editions, diff_of_versions

    d = diff_of_versions(Editions(store), "gundam-cr", "Ver.1.1.0", "Ver.1.2.0").to_json()
    return {k: d[k] for k in ("added", "removed", "changed", "moved")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=REPO / "var", help="a built data dir")
    ap.add_argument("--edits", type=int, default=12, help="clauses reworded in the new edition")
    ap.add_argument("--cold", action="store_true", help="also embed the whole edition uncached")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    load = os.getloadavg()
    out = run(args.data_dir, args.edits, args.cold)
    out["machine"] = f"{platform.machine()}, {os.cpu_count()} CPU, load {load[0]:.2f}"
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return
    for k, v in out.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
