"""The corpus build: one broken document is reported and the others still build."""

from __future__ import annotations

import shutil
from pathlib import Path

from judgekb.corpus.build import build_corpus, collect_corpus
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.store import ClauseStore

DATA = Path(__file__).resolve().parent.parent / "data"

MANIFEST = """
[[document]]
doc_id = "vg-tiny"
game = "vanguard"
title = "Tiny"
lang = "ms"
version = "1"
kind = "rules"
source = "rulebooks/tiny_bahagian_ms.txt"
numbering = "bahagian"

[[document]]
doc_id = "gone"
game = "gundam"
title = "Missing"
lang = "th"
version = "1"
kind = "rules"
source = "rulebooks/does_not_exist.txt"
numbering = "dashed"

[[document]]
doc_id = "bin"
game = "one-piece"
title = "Binary"
lang = "th"
version = "1"
kind = "rules"
source = "rulebooks/binary.txt"
numbering = "dashed"

[[document]]
doc_id = "empty"
game = "summoner-master"
title = "Empty"
lang = "th"
version = "1"
kind = "rules"
source = "rulebooks/empty.txt"
numbering = "dotted"
"""


def _manifest(tmp_path: Path):
    books = tmp_path / "rulebooks"
    books.mkdir()
    shutil.copy(DATA / "tiny_bahagian_ms.txt", books)
    (books / "binary.txt").write_bytes(b"1-1. ok\n\x00\x01\x02")
    (books / "empty.txt").write_text("", encoding="utf-8")
    path = tmp_path / "manifest.toml"
    path.write_text(MANIFEST, encoding="utf-8")
    return load_manifest(path)


def test_broken_documents_are_reported_and_the_rest_still_builds(tmp_path):
    built = collect_corpus(_manifest(tmp_path))
    assert [d.doc_id for d in built.documents] == ["vg-tiny"]
    errors = dict(built.errors)
    assert sorted(errors) == ["bin", "empty", "gone"]
    assert "does_not_exist.txt" in errors["gone"] and "not found" in errors["gone"]
    assert "binary.txt:2" in errors["bin"]
    assert "empty.txt" in errors["empty"] and "empty" in errors["empty"]
    assert {c.doc_id for c in built.clauses} == {"vg-tiny"}


def test_store_keeps_build_errors(tmp_path):
    store_path = tmp_path / "out" / "clauses.sqlite"
    build_corpus(_manifest(tmp_path), store_path)
    store = ClauseStore(store_path)
    assert [d.doc_id for d in store.documents()] == ["vg-tiny"]
    assert sorted(d for d, _ in store.build_errors()) == ["bin", "empty", "gone"]
    assert store.clauses("vg-tiny")
