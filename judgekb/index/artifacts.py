"""The index directory: manifest, FAISS index, BM25 index, clause order; atomic writes.

Layout of ``<data_dir>/index``::

    manifest.json   model, dim, normaliser/tokenizer versions, corpus hash, counts, date
    ids.json        [[doc_id, clause_id], ...] in the row order of both indexes
    dense.faiss     FAISS inner-product index over L2-normalised passage vectors
    questions.npy   judges' questions (data/questions) embedded as queries: the question view
    question_rows.npy  (question, row) pairs sorted by row
    questions_bm25/  bm25s index over the questions' character 4-grams (index/question_view.py)
    game_model.npz  which game a question reads like (index/games.py GameModel)
    asked_words.json  word -> game -> judges' questions using it (index/games.py GameVocabulary)
    sentences.npy   the sentences of every clause of two or more, embedded (the answer card)
    sentences.json  {row: [[start, end], ...]}: where those sentences stand in each clause
    bm25/           bm25s index over pythainlp/word tokens
    bm25_chars/     bm25s index over each word's character 4-grams (index/tokenize.py)
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from judgekb.errors import IndexMismatch, IndexNotBuilt

INDEX_FORMAT = "1"
REBUILD = "run `judgekb build` (or `make run`) to rebuild it"


def read_manifest(index_dir: Path) -> dict[str, Any]:
    """The manifest of a built index; IndexNotBuilt / IndexMismatch with the fix when unusable."""
    path = index_dir / "manifest.json"
    if not index_dir.exists() or not path.exists():
        raise IndexNotBuilt(f"no search index at {index_dir}; {REBUILD}")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexMismatch(f"index manifest {path} is corrupt ({exc}); {REBUILD}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != INDEX_FORMAT:
        raise IndexMismatch(f"index at {index_dir} has an unknown format; {REBUILD}")
    for name in (
        "ids.json",
        "dense.faiss",
        "questions.npy",
        "question_rows.npy",
        "questions_bm25",
        "game_model.npz",
        "asked_words.json",
        "sentences.npy",
        "sentences.json",
        "bm25",
        "bm25_chars",
    ):
        if not (index_dir / name).exists():
            raise IndexMismatch(f"index at {index_dir} lacks {name}; {REBUILD}")
    return manifest


def check_manifest(manifest: dict[str, Any], expected: dict[str, Any], index_dir: Path) -> None:
    """Refuse an index built for another model, normaliser, tokenizer or corpus."""
    for key, want in expected.items():
        got = manifest.get(key)
        if got != want:
            raise IndexMismatch(
                f"index at {index_dir} was built with {key}={got!r} but {want!r} is expected; "
                f"{REBUILD}"
            )


def new_index_dir(index_dir: Path) -> Path:
    """A fresh temp directory beside ``index_dir`` to build into."""
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=".index-", dir=index_dir.parent))


def commit_index_dir(tmp: Path, index_dir: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest last, then swap the temp dir into place."""
    manifest = {"format": INDEX_FORMAT, **manifest}
    (tmp / "manifest.json").write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    old = None
    if index_dir.exists():
        old = index_dir.with_name(f".old-{index_dir.name}-{os.getpid()}")
        os.replace(index_dir, old)
    os.replace(tmp, index_dir)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
