"""Fault injection on real `judgekb build` processes (keyword encoder, tiny corpus): kill -9 at
each phase, two builds at once, a read-only data dir. After each, the previous generation
still serves and a plain `judgekb build` (no --force) repairs."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import time
from pathlib import Path

import pytest

from judgekb.corpus.store import ClauseStore
from judgekb.index import generation
from judgekb.index.rebuild import build_all
from judgekb.index.request import SearchRequest
from judgekb.index.search import load_searcher
from tests.fakes import FakeEmbedder
from tests.tinybooks import edit_books, judgekb, run, settings, write_books

NEW_CLAUSES = 12  # + their section: 13 passages to embed, 4 per cache commit


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("faults")
    write_books(root)
    build_all(settings(root), embedder_factory=FakeEmbedder)
    return root


@pytest.fixture()
def root(built: Path, tmp_path: Path) -> Path:
    shutil.copytree(built, tmp_path / "r", symlinks=True)
    return tmp_path / "r"


def current(root: Path) -> generation.Generation:
    gen = generation.current(root / "var")
    assert gen is not None
    return gen


def wait_for(path: Path, proc, timeout: float = 60) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, proc.stdout.read()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def serves(root: Path, gen: generation.Generation, clause: str = "100.1") -> None:
    """``gen`` is current, intact, consistent (store hash = index hash) and answers."""
    assert current(root) == gen
    manifest = generation.verify(gen)
    store_hash = ClauseStore(gen.store_path).meta["corpus_hash"]
    assert manifest["inputs"]["index"]["corpus_hash"] == store_hash
    searcher = load_searcher(settings(root), embedder=FakeEmbedder())
    assert searcher.generation == gen.id
    hits = searcher.search(SearchRequest.of(clause, game="summoner-master", k=1)).hits
    assert hits[0].clause_id == clause


def embedded(output: str) -> int:
    found = re.search(r"embedded (\d+) new passages", output)
    assert found, output
    return int(found.group(1))


@pytest.mark.parametrize("phase", ["corpus", "embedding", "indexing", "commit", "prune"])
def test_kill_9_at_each_phase_keeps_the_old_generation_and_build_repairs(
    root: Path, phase: str
) -> None:
    old = current(root)
    edit_books(root, NEW_CLAUSES)
    proc = judgekb(root, "build", JUDGEKB_TEST_PAUSE=phase)
    wait_for(root / "pause.mark", proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    if phase == "prune":  # killed after the switch: the new generation is whole and current
        new = current(root)
        assert new.id != old.id and old.path.exists()
        serves(root, new, "102.12")
    else:
        serves(root, old)
    gens = root / "var" / "generations"
    left = {p.name for p in gens.iterdir()} - {old.id}
    code, out = run(root, "build")
    assert code == 0, out
    assert "Traceback" not in out
    new = current(root)
    serves(root, new, "102.12")
    assert not [p.name for p in gens.iterdir() if p.name.startswith(".")]
    assert not list((root / "var").glob(".*index*")) and not list((root / "var").glob(".current-*"))
    if phase == "prune":
        assert f"generation {new.id} is up to date" in out
        return
    if phase == "commit":  # renamed into generations/ but never current: pruned
        assert len(left) == 1 and not left & {new.id} and not (gens / left.pop()).exists()
    else:
        assert "removed what an interrupted build left: .tmp-" in out
    assert sorted(p.name for p in gens.iterdir()) == sorted([old.id, new.id])
    # The cache kept what was encoded before the kill: one commit of 4 at the embedding pause.
    resumed = {"corpus": 13, "embedding": 9, "indexing": 0, "commit": 0}[phase]
    assert embedded(out) == resumed


def test_two_builds_at_once_wait_in_turn_and_never_mix_generations(
    root: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"  # a second, different input for the same data dir
    write_books(other)
    edit_books(other, 3, word="สอง")
    edit_books(root, NEW_CLAUSES)
    first = judgekb(root, "build", JUDGEKB_TEST_PAUSE="embedding")
    wait_for(root / "pause.mark", first)
    second = judgekb(root, "build", JUDGEKB_MANIFEST=str(other / "manifest.toml"))
    code, out = run(root, "build", JUDGEKB_BUILD_LOCK_WAIT="0")
    host = socket.gethostname()
    assert code == 2 and "Traceback" not in out
    assert f"error: another build is running (pid {first.pid} on {host} since " in out
    time.sleep(1.0)
    assert second.poll() is None  # waiting for the lock, not building
    (root / "pause.mark").unlink()  # let the first build go on
    out1, _ = first.communicate(timeout=60)
    out2, _ = second.communicate(timeout=60)
    assert first.returncode == 0 and second.returncode == 0, out1 + out2
    assert f"waiting for the build lock (pid {first.pid} on {host} since" in " ".join(out2.split())
    gen1 = re.search(r"generation (\S+) is current", " ".join(out1.split()))
    gen2 = current(root)
    assert gen1 and gen1.group(1) != gen2.id
    assert f"(previous {gen1.group(1)} kept)" in " ".join(out2.split())
    serves(root, gen2, "102.3")
    generation.verify(
        generation.Generation(gen1.group(1), root / "var/generations" / gen1.group(1))
    )


def read_only(var: Path) -> list[str]:
    """A command prefix that runs its command with ``var`` read-only: a read-only bind mount
    in a private mount namespace when root (whom file modes do not stop), else file modes."""
    if os.geteuid() == 0:
        script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'
        return ["unshare", "-m", "sh", "-c", script, str(var)]
    for path in [var, *var.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o555 if path.is_dir() else 0o444)
    return []


def test_a_read_only_data_dir_is_a_clear_error_and_still_serves(root: Path) -> None:
    var = root / "var"
    wrap = read_only(var)
    try:
        edit_books(root)
        code, out = run(root, "build", _wrap=wrap)
        assert code == 2 and "Traceback" not in out and "Error:" not in out, out
        assert re.search(
            rf"error: the data dir {var} is not writable \((Read-only file system|Permission "
            r"denied)\); a build writes a new generation there: make it writable, or set "
            r"JUDGEKB_DATA_DIR to a writable directory",
            out,
        ), out
        code, out = run(root, "search", "100.1", "--game", "summoner-master", _wrap=wrap)
        assert code == 0 and "§100.1" in out, out
    finally:
        for path in [var, *var.rglob("*")]:
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)
