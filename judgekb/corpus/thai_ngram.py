"""A small character n-gram model of clean Thai, used to decide where displaced marks belong.

The model is trained on clean text of the *other* rulebooks (Summoner Master 2014 and One
Piece 1.1.8, never the Gundam file it repairs) plus pythainlp's bundled word list, and is
persisted in ``judgekb/data/thai_ngram/model.json.gz`` (a few MB), because counting 5-grams
at import time takes several seconds. Regenerate it with::

    .venv/bin/python scripts/build_thai_ngram.py

Probabilities are Witten-Bell interpolated; text is folded first (digits -> "0", Latin letters
-> "a", any other non-Thai character -> " ") so that the model spends its counts on Thai.
"""

from __future__ import annotations

import gzip
import json
import logging
import math
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from judgekb.config import DATA_DIR
from judgekb.corpus.manifest import Manifest
from judgekb.errors import ConfigError

logger = logging.getLogger(__name__)

MODEL_PATH = DATA_DIR / "thai_ngram" / "model.json.gz"
MODEL_FORMAT = 1
DEFAULT_ORDER = 5
# Clean Thai documents the model learns from; never the Gundam rules it repairs.
TRAINING_DOCS = ("sm-2014", "op-cr")
BOUNDARY = "\n"  # line/word boundary; also pads the history at the start of a text


def fold_char(ch: str) -> str:
    """Map one character to the model alphabet (Thai block kept; digits, Latin, rest folded)."""
    if "\u0e00" <= ch <= "\u0e7f":
        return "0" if "\u0e50" <= ch <= "\u0e59" else ch
    if ch == BOUNDARY:
        return ch
    if ch.isdigit():
        return "0"
    if ch.isascii() and ch.isalpha():
        return "a"
    return " "


def fold_text(text: str) -> str:
    """Fold every character of ``text`` with :func:`fold_char` (length is preserved)."""
    return "".join(fold_char(ch) for ch in text)


class CharNgramModel:
    """Witten-Bell interpolated character n-gram model over folded text."""

    def __init__(self, order: int, counts: dict[str, int], meta: dict | None = None) -> None:
        self.order = order
        self.counts = counts
        self.meta = meta or {}
        total: dict[str, int] = {}
        types: dict[str, int] = {}
        get_total, get_types = total.get, types.get  # plain dicts: ~5x faster than Counter
        for gram, count in counts.items():
            ctx = gram[:-1]
            total[ctx] = get_total(ctx, 0) + count
            types[ctx] = get_types(ctx, 0) + 1
        self.ctx_total = total
        self.ctx_types = types
        self.vocab_size = max(1, sum(1 for gram in counts if len(gram) == 1))
        self._cache: dict[tuple[str, str], float] = {}

    def logprob(self, history: str, ch: str) -> float:
        """Natural log P(ch | last order-1 characters of history); both already folded."""
        history = history[-(self.order - 1) :] if self.order > 1 else ""
        key = (history, ch)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        p = 1.0 / (self.vocab_size + 1)
        for k in range(len(history) + 1):
            ctx = history[len(history) - k :]
            total = self.ctx_total.get(ctx)
            if not total:
                break
            types = self.ctx_types[ctx]
            p = (self.counts.get(ctx + ch, 0) + types * p) / (total + types)
        value = math.log(p)
        if len(self._cache) > 500_000:
            self._cache.clear()
        self._cache[key] = value
        return value

    def score(self, text: str, history: str = BOUNDARY * 4) -> float:
        """Log probability of ``text`` (raw; folded here) after ``history``."""
        hist = fold_text(history)
        total = 0.0
        for ch in fold_text(text):
            total += self.logprob(hist, ch)
            hist = (hist + ch)[-(self.order - 1) :]
        return total


def count_ngrams(texts: Iterable[str], order: int = DEFAULT_ORDER) -> dict[str, int]:
    """Counts of every 1..order-gram of the folded texts, each text padded with boundaries."""
    counts: Counter[str] = Counter()
    for text in texts:
        padded = BOUNDARY * (order - 1) + fold_text(text) + BOUNDARY
        for n in range(1, order + 1):
            counts.update(padded[i : i + n] for i in range(len(padded) - n + 1))
    return dict(counts)


def train_model(
    texts: Iterable[str], order: int = DEFAULT_ORDER, meta: dict | None = None
) -> CharNgramModel:
    """Train a model on ``texts`` (each a line or a word; boundaries separate them)."""
    return CharNgramModel(order, count_ngrams(texts, order), meta)


def training_texts(rulebook_paths: Iterable[Path]) -> list[str]:
    """Normalised lines of the clean training rulebooks, then pythainlp's word list."""
    from pythainlp.corpus import thai_words

    from judgekb.corpus.normalize import normalize_text

    texts: list[str] = []
    for path in rulebook_paths:
        lines = (normalize_text(line) for line in path.read_text(encoding="utf-8").splitlines())
        texts.extend(line for line in lines if line)
    texts.extend(sorted(thai_words()))
    return texts


def build_default_model(manifest: Manifest, order: int = DEFAULT_ORDER) -> CharNgramModel:
    """Train the shipped model from :data:`TRAINING_DOCS` of ``manifest`` + thai_words()."""
    import pythainlp

    paths = [manifest.source_path(manifest.document(doc_id)) for doc_id in TRAINING_DOCS]
    meta = {
        "training_docs": list(TRAINING_DOCS),
        "sources": [p.name for p in paths],
        "pythainlp": pythainlp.__version__,
        "extra": "pythainlp.corpus.thai_words()",
    }
    return train_model(training_texts(paths), order, meta)


def save_model(model: CharNgramModel, path: Path = MODEL_PATH) -> None:
    """Write the model as gzipped JSON (format, order, meta, counts), via a temp file.

    Byte-for-byte reproducible: sorted keys, no timestamp in the gzip header."""
    payload = {
        "format": MODEL_FORMAT,
        "order": model.order,
        "meta": model.meta,
        "counts": model.counts,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(gzip.compress(data.encode("utf-8"), compresslevel=9, mtime=0))
    tmp.replace(path)


def load_model(path: Path = MODEL_PATH) -> CharNgramModel:
    """Read a model written by :func:`save_model`; raises ConfigError when unusable."""
    try:
        payload = json.loads(gzip.decompress(path.read_bytes()))  # ~2x faster than streaming
    except (OSError, ValueError) as exc:
        raise ConfigError(
            f"{path}: cannot read the Thai n-gram model ({exc}); "
            "regenerate it with scripts/build_thai_ngram.py"
        ) from exc
    if payload.get("format") != MODEL_FORMAT:
        raise ConfigError(
            f"{path}: model format {payload.get('format')!r}, expected {MODEL_FORMAT}; "
            "regenerate it with scripts/build_thai_ngram.py"
        )
    return CharNgramModel(int(payload["order"]), payload["counts"], payload.get("meta"))


@lru_cache(maxsize=1)
def default_model() -> CharNgramModel:
    """The persisted model, loaded once per process."""
    model = load_model(MODEL_PATH)
    logger.debug("loaded Thai %d-gram model: %d n-grams", model.order, len(model.counts))
    return model
