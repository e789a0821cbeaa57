"""A SQLite cache of passage embeddings keyed by (model, passage-text hash).

A rebuild after editing one clause re-embeds only that clause.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np


def text_key(model: str, text: str) -> str:
    return hashlib.sha256(f"{model}\x1f{text}".encode()).hexdigest()


class EmbeddingCache:
    """Vectors stored as float32 blobs; safe to delete at any time (it is only a cache)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        try:
            self.con = self._open(path)
        except sqlite3.DatabaseError:
            path.unlink(missing_ok=True)  # a corrupt cache is rebuilt, never trusted
            self.con = self._open(path)

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, dim INTEGER, v BLOB)")
        con.execute("SELECT count(*) FROM vec").fetchone()
        return con

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(keys), 500):
            chunk = list(keys[i : i + 500])
            marks = ",".join("?" * len(chunk))
            for key, dim, blob in self.con.execute(
                f"SELECT key, dim, v FROM vec WHERE key IN ({marks})", chunk
            ):
                vec = np.frombuffer(blob, dtype=np.float32)
                if vec.shape[0] == dim:
                    out[key] = vec
        return out

    def put_many(self, items: dict[str, np.ndarray]) -> None:
        with self.con:
            self.con.executemany(
                "INSERT OR REPLACE INTO vec VALUES (?, ?, ?)",
                [
                    (k, int(v.shape[0]), np.asarray(v, dtype=np.float32).tobytes())
                    for k, v in items.items()
                ],
            )

    def close(self) -> None:
        self.con.close()
