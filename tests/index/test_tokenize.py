from __future__ import annotations

from judgekb.index.tokenize import tokenize


def test_thai_is_segmented_with_newmm_not_shredded():
    assert tokenize("การที่ได้") == []  # all three are particles in THAI_STOPWORDS
    assert tokenize("ผู้เล่นทั้งสองฝ่ายแพ้พร้อมกัน") == ["ผู้", "เล่น", "ทั้งสองฝ่าย", "แพ้", "พร้อมกัน"]


def test_latin_words_numbers_and_mixed_text():
    assert tokenize("Jika pemain kalah (11.6.1)") == ["pemain", "kalah", "11.6.1"]
    assert tokenize("Effect ที่เกิดจาก Skill") == ["effect", "ที่เกิด", "จาก", "skill"]


def test_same_tokens_for_damaged_sara_am_and_thai_digits():
    assert tokenize("จํานวน ๒ ใบ") == tokenize("จำนวน 2 ใบ")
