"""Regenerate judgekb/data/thai_ngram/model.json.gz, the Thai character n-gram model.

Usage: .venv/bin/python scripts/build_thai_ngram.py [--order 5]

Trains on the clean Thai rulebooks named in judgekb.corpus.thai_ngram.TRAINING_DOCS (never the
Gundam file that judgekb.corpus.thai_repair repairs) plus pythainlp.corpus.thai_words().
"""

from __future__ import annotations

import argparse
import time

from judgekb.config import get_settings
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.thai_ngram import MODEL_PATH, build_default_model, load_model, save_model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--order", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    model = build_default_model(load_manifest(get_settings().manifest), args.order)
    save_model(model, MODEL_PATH)
    built = time.perf_counter() - start
    start = time.perf_counter()
    load_model(MODEL_PATH)
    loaded = time.perf_counter() - start
    size = MODEL_PATH.stat().st_size / 1e6
    print(f"{MODEL_PATH}: order {model.order}, {len(model.counts)} n-grams, {size:.2f} MB")
    print(f"built in {built:.1f} s, loads in {loaded:.2f} s; meta {model.meta}")


if __name__ == "__main__":
    main()
