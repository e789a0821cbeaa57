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


def uncached(texts: dict, model: str, cache_path: Path) -> set:
    from judgekb.index.embed_cache import EmbeddingCache, text_key

    keys = {k: text_key(model, t) for k, t in texts.items()}
    cache = EmbeddingCache(cache_path)
    try:
        held = cache.get_many(list(keys.values()))
    finally:
        cache.close()
    return {k for k, key in keys.items() if key not in held}


def copy_data_dir(src: Path, dst: Path) -> None:
    dst.mkdir()
    for name in ("clauses.sqlite", "index", "cache"):
        if (src / name).is_dir():
            shutil.copytree(src / name, dst / name)
        else:
            shutil.copy(src / name, dst / name)
    (dst / "models").symlink_to((src / "models").resolve())


def run(data_dir: Path, n_edits: int, cold: bool) -> dict:
    from judgekb.corpus.manifest import load_manifest
    from judgekb.corpus.store import ClauseStore

    clauses = ClauseStore(data_dir / "clauses.sqlite").clauses("gundam-cr")
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
    """The corpus build, then the index build (the model loaded first, as `judgekb build`
    loads it before the index stage), checked by :func:`check`."""
    from judgekb.corpus.build import build_corpus
    from judgekb.corpus.manifest import load_manifest
    from judgekb.corpus.store import ClauseStore
    from judgekb.index.build import build_index
    from judgekb.index.embedder import load_embedder

    cache = settings.data_dir / "cache" / "embeddings.sqlite"
    t0 = time.perf_counter()
    built = build_corpus(load_manifest(settings.manifest), settings.store_path)
    t_corpus = time.perf_counter() - t0
    store = ClauseStore(settings.store_path)
    texts = passages(store)
    embedder = load_embedder(
        settings.model,
        settings.models_dir,
        settings.torch_threads,
        settings.query_prefix,
        settings.passage_prefix,
        settings.encode_batch_size,
    )
    expected = uncached(texts, embedder.name, cache)
    t1 = time.perf_counter()
    result = build_index(
        store, settings.index_dir, cache, lambda: embedder, settings.model, settings.faiss_index
    )
    t_index = time.perf_counter() - t1
    new_ids = [c.clause_id for c in store.clauses("gundam-cr-1.2")]
    check(len(new_ids), expected, edited, result.embedded)
    out = {
        "edition_clauses": len(new_ids),
        "reworded": len(edited),
        "embedded": result.embedded,
        "total_clauses": result.n_clauses,
        "diff": {k: len(v) for k, v in diff_summary(store).items()},
        "corpus_s": round(t_corpus, 1),
        "index_s": round(t_index, 1),
        "rebuild_s": round(t_corpus + t_index, 1),
        "findings": len(built.findings),
    }
    if cold:
        t2 = time.perf_counter()
        embedder.encode_passages([texts[("gundam-cr-1.2", i)] for i in new_ids])
        out["embed_whole_edition_s"] = round(time.perf_counter() - t2, 1)
    return out


def check(n_clauses: int, expected: set, edited: list[str], embedded: int) -> None:
    if not 400 <= n_clauses <= 700:
        raise SystemExit(f"the new edition has {n_clauses} clauses, not ~500")
    want = {("gundam-cr-1.2", i) for i in edited}
    if expected != want:
        raise SystemExit(f"uncached passages {sorted(expected)} are not the edits {sorted(want)}")
    if embedded != len(want):
        raise SystemExit(f"embedded {embedded} passages, expected {len(want)}")


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
