"""Shared fixtures. Tests that need the real built corpus/index use the `built` settings,
which point at the repository's var/ (built by `make test` before pytest runs)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def built_settings():
    """Settings for the real build in var/; fails (never skips) when it was not built."""
    from judgekb.config import Settings

    settings = Settings(data_dir=REPO / "var")
    if not (settings.index_dir / "manifest.json").exists():
        pytest.fail("var/ has no built index: run `make build` (make test does it first)")
    return settings


@pytest.fixture(scope="session")
def real_searcher(built_settings):
    from judgekb.index.search import load_searcher

    return load_searcher(built_settings)
