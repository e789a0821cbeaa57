"""Index generations: a clause store, its indexes and a manifest of checksums in one directory,
made current by one atomic rename.

Layout of the data dir::

    current                 symlink to generations/<id>, replaced by one rename
    generations/<id>/       a finished generation: the current one and the one before it
        clauses.sqlite      the clause store (judgekb.corpus.store)
        index/              manifest.json, ids.json, dense.faiss, bm25/ (judgekb.index.artifacts)
        generation.json     id, date, build inputs, size and sha256 of every file above
    generations/.tmp-<id>/  a build in progress; a killed build's is removed by the next build
    .build.lock             held by the running build (judgekb.index.buildlock)
    models/  cache/         shared by every generation, never inside one (so is the rulings db)

A reader resolves ``current`` once and opens everything from that directory, so a swap while
it loads can never pair one generation's store with another's index. This module is the one
owner of these names: :class:`judgekb.config.Settings` asks it where the current store is.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from judgekb.errors import GenerationDamaged, IndexNotBuilt

log = logging.getLogger(__name__)

FORMAT = 1
CURRENT = "current"
GENERATIONS = "generations"
STORE = "clauses.sqlite"
INDEX = "index"
MANIFEST = "generation.json"
TMP_PREFIX = ".tmp-"
BUILD = "run `judgekb build` (or `make run`)"
REPAIR = f"{BUILD} to repair it"
# Left in the data dir by builds from before generations, or by one killed between renames.
LEGACY = (STORE, INDEX)
STRAYS = (".index-*", ".old-index-*", ".clauses-*.sqlite", ".current-*")


@dataclass(frozen=True)
class Generation:
    """One generation directory (finished, or a build's ``.tmp-`` one)."""

    id: str
    path: Path

    @property
    def store_path(self) -> Path:
        return self.path / STORE

    @property
    def index_dir(self) -> Path:
        return self.path / INDEX

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def manifest(self) -> dict[str, Any]:
        """generation.json; :class:`GenerationDamaged` when it is missing or unreadable."""
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            reason = "missing" if isinstance(exc, FileNotFoundError) else f"unreadable ({exc})"
            raise self.damaged(MANIFEST, f"{self.manifest_path} is {reason}") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT or "files" not in data:
            raise self.damaged(MANIFEST, f"{self.manifest_path} has an unknown format")
        return data

    def damaged(self, file: str, what: str) -> GenerationDamaged:
        return GenerationDamaged(
            f"generation {self.id}: {what}; {REPAIR}", generation=self.id, file=file
        )


def current(data_dir: Path) -> Generation | None:
    """The generation ``current`` points at (it may be missing), or None when there is none."""
    try:
        target = Path(os.readlink(data_dir / CURRENT))
    except OSError:  # no pointer yet, or not a symlink
        return None
    path = target if target.is_absolute() else data_dir / target
    return Generation(path.name, path)


def require_current(data_dir: Path) -> Generation:
    """The current generation; IndexNotBuilt / GenerationDamaged naming the build command."""
    gen = current(data_dir)
    if gen is None:
        raise IndexNotBuilt(f"no clause store or search index in {data_dir}; {BUILD} first")
    if not gen.path.is_dir():
        raise gen.damaged("", f"{gen.path} is missing")
    return gen


def current_dir(data_dir: Path) -> Path:
    """The current generation's directory; ``data_dir/current`` (not there) before any build."""
    gen = current(data_dir)
    return gen.path if gen is not None else data_dir / CURRENT


def begin(data_dir: Path) -> Generation:
    """A fresh ``generations/.tmp-<id>`` directory for a build to write into."""
    parent = data_dir / GENERATIONS
    parent.mkdir(parents=True, exist_ok=True)
    gid = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)
    path = parent / f"{TMP_PREFIX}{gid}"
    path.mkdir()
    return Generation(gid, path)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def file_digests(root: Path) -> dict[str, dict[str, Any]]:
    """Size and sha256 of every file under ``root`` (but generation.json), by relative path."""
    out = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if rel != MANIFEST:
            out[rel] = {"bytes": path.stat().st_size, "sha256": sha256_file(path)}
    return out


def verify(gen: Generation) -> dict[str, Any]:
    """Check every file against generation.json; return the manifest, or raise
    :class:`GenerationDamaged` naming the first file that is missing, resized or altered."""
    manifest = gen.manifest()
    for rel, want in manifest["files"].items():
        path = gen.path / rel
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            raise gen.damaged(rel, f"{path} is missing") from None
        if size != want["bytes"]:
            raise gen.damaged(rel, f"{path} is {size} bytes, not the {want['bytes']} written")
        if sha256_file(path) != want["sha256"]:
            raise gen.damaged(rel, f"{path} fails its sha256 check (altered on disk)")
    return manifest


def commit(tmp: Generation, data_dir: Path, inputs: dict[str, Any], **info: Any) -> Generation:
    """Record the checksums, move ``tmp`` to ``generations/<id>`` and make it current.

    Everything is fsynced first, so even a power cut leaves either the old generation
    current or the new one complete. The one step that changes what readers see is
    :func:`switch`.
    """
    manifest = {
        "format": FORMAT,
        "id": tmp.id,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "inputs": inputs,
        **info,
        "files": file_digests(tmp.path),
    }
    tmp.manifest_path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False), "utf-8")
    _fsync_tree(tmp.path)  # and readable by a server running as another user
    final = data_dir / GENERATIONS / tmp.id
    os.rename(tmp.path, final)
    _fsync(final.parent)
    switch(data_dir, tmp.id)
    return Generation(tmp.id, final)


def switch(data_dir: Path, gid: str) -> None:
    """Point ``current`` at generation ``gid`` in one atomic rename."""
    link = data_dir / f".current-{secrets.token_hex(4)}"
    os.symlink(f"{GENERATIONS}/{gid}", link)
    os.replace(link, data_dir / CURRENT)
    _fsync(data_dir)


def clean_temporaries(data_dir: Path) -> list[str]:
    """Remove what killed builds left (``.tmp-`` generations, stray temp files); only call
    with the build lock held. Returns the names removed."""
    doomed = [p for pattern in STRAYS for p in data_dir.glob(pattern)]
    gens = data_dir / GENERATIONS
    if gens.is_dir():
        doomed += [p for p in gens.iterdir() if p.name.startswith(TMP_PREFIX)]
    return _remove(doomed)


def prune(data_dir: Path, keep: Iterable[str]) -> list[str]:
    """Remove every generation but ``keep``, and the pre-generation store and index."""
    keep = set(keep)
    gens = data_dir / GENERATIONS
    doomed = [p for p in gens.iterdir() if p.name not in keep] if gens.is_dir() else []
    doomed += [data_dir / name for name in LEGACY if (data_dir / name).exists()]
    return _remove(doomed)


def _remove(paths: list[Path]) -> list[str]:
    for p in paths:
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
        log.info("removed %s", p)
    return sorted(p.name for p in paths)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_tree(root: Path) -> None:
    """Make every file readable by all (temp files are created 0600) and flush it to disk."""
    for path in [*root.rglob("*"), root]:
        path.chmod(0o755 if path.is_dir() else 0o644)
        _fsync(path)
