"""Sentences of a clause (exact spans on real rule text) and which of them answer."""

from __future__ import annotations

import numpy as np

from judgekb.index.sentences import SentenceIndex, split_sentences, write_sentences


def pieces(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


def test_malay_full_stops_end_sentences_but_not_after_a_number() -> None:
    text = (
        "Unit diletakkan pada lingkaran melalui pelbagai cara semasa permainan. Bahagian ini "
        "mentakrifkan istilah mengenai tindakan khusus (Bahagian 7. Tindakan Khusus) yang "
        "meletakkan unit."
    )  # Vanguard 6.1.1, cut
    assert pieces(text) == [
        "Unit diletakkan pada lingkaran melalui pelbagai cara semasa permainan. ",
        "Bahagian ini mentakrifkan istilah mengenai tindakan khusus (Bahagian 7. Tindakan "
        "Khusus) yang meletakkan unit.",
    ]


def test_thai_spaces_end_sentences_unless_a_joining_word_is_next_to_them() -> None:
    text = (
        "สำหรับกฎการแพ้คัดออก ผู้เล่นที่ไม่แพ้เลยจนกระทั่งจบเกมจะเป็นผู้ชนะ เช่นเดียวกันกันการแข่งแบบ 2 คน "
        "เมื่อผู้เล่นได้รับดาเมจหรือเด็คกลายเป็น 0 ใบ การ์ดและเอฟเฟกต์ทั้งหมดของผู้เล่นคนนั้นจะถูกกำจัดออกไป"
    )  # Gundam 12-2-5-2
    assert pieces(text) == [
        "สำหรับกฎการแพ้คัดออก ผู้เล่นที่ไม่แพ้เลยจนกระทั่งจบเกมจะเป็นผู้ชนะ เช่นเดียวกันกันการแข่งแบบ 2 คน ",
        "เมื่อผู้เล่นได้รับดาเมจหรือเด็คกลายเป็น 0 ใบ ",
        "การ์ดและเอฟเฟกต์ทั้งหมดของผู้เล่นคนนั้นจะถูกกำจัดออกไป",
    ]
    # "หรือ" (or) joins: no cut around it
    assert pieces("ถ้าเงื่อนไขไม่ครบ Ability นั้นจะไม่ทำงาน หรือ หากไม่มีเป้าหมายที่ Ability สามารถส่งผล") == [
        "ถ้าเงื่อนไขไม่ครบ Ability นั้นจะไม่ทำงาน หรือ หากไม่มีเป้าหมายที่ Ability สามารถส่งผล"
    ]


def test_spans_cover_the_text_exactly_and_short_pieces_join() -> None:
    for text in ("", "สั้น", "A. B. C.", "การ์ดที่ถูกทำลาย การ์ดที่ถูกทำลายไม่สามารถตกเป็นเป้าหมาย"):
        spans = split_sentences(text)
        assert "".join(text[a:b] for a, b in spans) == text
        assert all(b - a >= 1 for a, b in spans) or text == ""
    assert pieces("การ์ดที่ถูกทำลาย การ์ดที่ถูกทำลายไม่สามารถตกเป็นเป้าหมาย") == [
        "การ์ดที่ถูกทำลาย การ์ดที่ถูกทำลายไม่สามารถตกเป็นเป้าหมาย"
    ]


def test_the_answering_sentence_scores_best_by_vector_and_terms(tmp_path) -> None:
    text = "The first sentence is about drawn games. The second one is about losing the game."
    spans = split_sentences(text)
    assert len(spans) == 2
    vecs = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
    write_sentences(tmp_path, {4: [list(s) for s in spans]}, vecs)
    index = SentenceIndex(tmp_path)
    assert index.answering(4, text, np.array([[0.0, 1.0]]), ["losing"]) == [spans[1]]
    assert index.answering(4, text, np.array([[1.0, 0.0]]), []) == [spans[0]]
    # equal vectors: the terms decide; no vector (a clause number asked): every sentence
    assert index.answering(4, text, np.array([[0.7, 0.7]]), ["drawn"]) == [spans[0]]
    assert index.answering(4, text, None, ["draws"]) == spans
    assert index.answering(3, "One sentence.", np.array([[1.0, 0.0]]), []) == [(0, 13)]
