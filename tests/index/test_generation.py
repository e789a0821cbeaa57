"""Generations on the tiny corpus with the keyword encoder: one directory made current by one
rename, up-to-date builds doing nothing, checksums naming a damaged file at load, `build`
repairing it from the embedding cache, the build lock naming its holder."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import pytest

from judgekb.corpus.store import ClauseStore
from judgekb.errors import BuildLocked, GenerationDamaged, IndexNotBuilt, JudgeKBError
from judgekb.index import generation
from judgekb.index.buildlock import build_lock
from judgekb.index.rebuild import build_all
from judgekb.index.request import SearchRequest
from judgekb.index.search import load_searcher
from tests.fakes import FakeEmbedder
from tests.tinybooks import edit_books, settings, write_books

FILES = [
    "clauses.sqlite",
    "index/asked_words.json",
    "index/bm25/data.csc.index.npy",
    "index/bm25/indices.csc.index.npy",
    "index/bm25/indptr.csc.index.npy",
    "index/bm25/params.index.json",
    "index/bm25/vocab.index.json",
    "index/bm25_chars/data.csc.index.npy",
    "index/bm25_chars/indices.csc.index.npy",
    "index/bm25_chars/indptr.csc.index.npy",
    "index/bm25_chars/params.index.json",
    "index/bm25_chars/vocab.index.json",
    "index/dense.faiss",
    "index/game_model.npz",
    "index/ids.json",
    "index/manifest.json",
    "index/question_rows.npy",
    "index/questions.npy",
    "index/questions_bm25/data.csc.index.npy",
    "index/questions_bm25/indices.csc.index.npy",
    "index/questions_bm25/indptr.csc.index.npy",
    "index/questions_bm25/params.index.json",
    "index/questions_bm25/vocab.index.json",
    "index/sentences.json",
    "index/sentences.npy",
]


def build(root: Path, **kw: object) -> str:
    return build_all(settings(root, **kw), embedder_factory=FakeEmbedder)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gen")
    write_books(root)
    build(root)
    return root


@pytest.fixture()
def root(built: Path, tmp_path: Path) -> Path:
    shutil.copytree(built, tmp_path / "r", symlinks=True)
    return tmp_path / "r"


def current(root: Path) -> generation.Generation:
    gen = generation.current(root / "var")
    assert gen is not None
    return gen


def search_ids(root: Path, q: str) -> list[str]:
    s = load_searcher(settings(root), embedder=FakeEmbedder())
    return [h.clause_id for h in s.search(SearchRequest.of(q, game="summoner-master", k=2)).hits]


def test_one_generation_holds_store_indexes_and_checksums(root: Path) -> None:
    var = root / "var"
    gen = current(root)
    assert os.readlink(var / "current") == f"generations/{gen.id}"
    assert sorted(p.name for p in var.iterdir()) == [
        ".build.lock",
        "cache",
        "current",
        "generations",
    ]
    manifest = generation.verify(gen)
    assert sorted(manifest["files"]) == FILES
    assert manifest["id"] == gen.id and (manifest["clauses"], manifest["documents"]) == (40, 2)
    store_hash = ClauseStore(gen.store_path).meta["corpus_hash"]
    assert manifest["inputs"]["index"]["corpus_hash"] == store_hash
    index_manifest = json.loads((gen.index_dir / "manifest.json").read_text())
    assert index_manifest["corpus_hash"] == store_hash
    assert settings(root).store_path == gen.store_path  # Settings asks the generation
    assert search_ids(root, "100.1") == ["100.1", "101.2"]


def test_unchanged_inputs_are_up_to_date_and_build_nothing(root: Path) -> None:
    before = current(root)
    report = build(root)
    assert f"generation {before.id} is up to date" in report
    assert current(root) == before
    assert [p.name for p in (root / "var" / "generations").iterdir()] == [before.id]


def test_new_inputs_make_a_new_generation_and_keep_only_the_previous(root: Path) -> None:
    first = current(root)
    edit_books(root, 2)
    report = build(root)
    second = current(root)
    assert f"embedded 3 new passages; generation {second.id} is current" in report
    assert f"(previous {first.id} kept)" in report
    assert search_ids(root, "102.2")[0] == "102.2"
    edit_books(root, 1, word="อีก")
    build(root)
    third = current(root)
    names = sorted(p.name for p in (root / "var" / "generations").iterdir())
    assert names == sorted([second.id, third.id])


def test_force_builds_a_new_generation_from_the_cache(root: Path) -> None:
    old = current(root)
    report = build_all(settings(root), force=True, embedder_factory=_no_model)
    assert "embedded 0 new passages" in report and current(root).id != old.id


def _no_model() -> FakeEmbedder:
    raise AssertionError("every vector is cached: the model must not load")


DAMAGES = [
    *((f, d) for f in [*FILES, "generation.json"] for d in ("truncate", "delete")),
    *((f, "flip") for f in ("clauses.sqlite", "index/dense.faiss", "index/bm25/vocab.index.json")),
]


@pytest.mark.parametrize(("file", "damage"), DAMAGES)
def test_a_damaged_artifact_is_named_at_load_and_rebuilt_by_build(
    root: Path, file: str, damage: str
) -> None:
    gen = current(root)
    path = gen.path / file
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "delete":
        path.unlink()
    else:  # one byte changed in the middle, size kept
        mid = len(data) // 2
        path.write_bytes(data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1 :])
    with pytest.raises(GenerationDamaged) as info:
        load_searcher(settings(root), embedder=FakeEmbedder())
    assert str(path) in str(info.value) and "run `judgekb build`" in str(info.value)
    assert info.value.status == 503 and info.value.generation == gen.id
    report = build_all(settings(root), embedder_factory=_no_model)
    assert "embedded 0 new passages" in report
    repaired = current(root)
    assert repaired.id != gen.id and not gen.path.exists()
    generation.verify(repaired)
    assert search_ids(root, "100.1") == ["100.1", "101.2"]


def test_a_missing_current_generation_is_named_and_rebuilt(root: Path) -> None:
    gen = current(root)
    shutil.rmtree(gen.path)
    with pytest.raises(GenerationDamaged, match=f"{gen.id}: .* is missing; run `judgekb build`"):
        load_searcher(settings(root), embedder=FakeEmbedder())
    assert "is current" in build(root)
    generation.verify(current(root))


def test_no_generation_names_the_build_command(tmp_path: Path) -> None:
    write_books(tmp_path)
    with pytest.raises(IndexNotBuilt, match=r"run `judgekb build` \(or `make run`\) first"):
        load_searcher(settings(tmp_path), embedder=FakeEmbedder())


def test_a_build_removes_leftovers_of_killed_builds_and_the_old_layout(root: Path) -> None:
    var = root / "var"
    for name in (".index-abc", ".old-index-12", "index", "generations/.tmp-x"):
        (var / name).mkdir()
        (var / name / "dense.faiss").write_bytes(b"half")
    for name in (".clauses-1.sqlite", "clauses.sqlite"):
        (var / name).write_bytes(b"half")
    (var / ".current-dead").symlink_to("generations/nowhere")
    edit_books(root)
    build(root)
    assert sorted(p.name for p in var.iterdir()) == [
        ".build.lock",
        "cache",
        "current",
        "generations",
    ]
    assert not any(p.name.startswith(".") for p in (var / "generations").iterdir())


def test_a_second_build_waits_for_the_lock_then_names_its_holder(root: Path) -> None:
    with build_lock(root / "var", wait=0):
        with pytest.raises(BuildLocked) as info:
            build(root, build_lock_wait=0)
        holder = f"pid {os.getpid()} on {socket.gethostname()} since "
        assert holder in str(info.value) and "wait for it to finish" in str(info.value)
        with pytest.raises(BuildLocked, match=r"still running after 0 s \(pid"):
            build(root, build_lock_wait=0.3)
    assert (root / "var" / ".build.lock").read_bytes() == b""  # no stale holder
    assert "is up to date" in build(root, build_lock_wait=0)


def test_corrupt_store_pages_are_refused_at_open(root: Path, tmp_path: Path) -> None:
    copy = tmp_path / "c.sqlite"
    data = bytearray(current(root).store_path.read_bytes())
    page = 4096
    data[2 * page : 6 * page] = b"\xa5" * (4 * page)  # b-tree pages overwritten
    copy.write_bytes(bytes(data))
    with pytest.raises(JudgeKBError, match="is unreadable .*run `judgekb build`"):
        ClauseStore(copy)


@pytest.mark.parametrize("args", [["serve"], ["search", "100.1"]])
def test_serve_and_search_name_the_damaged_file_and_the_fix(
    root: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    from typer.testing import CliRunner

    from judgekb import cli

    gen = current(root)
    (gen.index_dir / "dense.faiss").write_bytes(b"")
    monkeypatch.setattr(cli, "_settings", lambda: settings(root))
    result = CliRunner().invoke(cli.app, args)
    out = "".join(result.output.split())  # rich wraps long paths anywhere
    assert result.exit_code == 2 and "Traceback" not in out
    want = f"error: generation {gen.id}: {gen.index_dir / 'dense.faiss'} is 0 bytes, not the"
    assert out.startswith("".join(want.split()))
    assert out.endswith("run`judgekbbuild`(or`makerun`)torepairit")
