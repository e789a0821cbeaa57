"""Repair of Thai marks a PDF emitted one character late: rules, detector, gating."""

from __future__ import annotations

import pytest

from judgekb.corpus.thai_damage import damage_score, impossible_positions
from judgekb.corpus.thai_ngram import default_model, fold_text, train_model
from judgekb.corpus.thai_repair import (
    cluster_ok,
    damaged_lines,
    drop_spaces_before_marks,
    is_damaged,
    order_marks,
    repair_lines,
    repair_thai,
    split_cells,
)

# Lines of a clean Thai rule text (Gundam-like wording, written for these tests).
CLEAN = [
    "1-1-1. เกมนี้เป็นเกมที่ดำเนินการแข่งขันโดยผู้เล่น 2 คน",
    "1-2-1. กรณีที่ผู้เล่นฝ่ายใดฝ่ายหนึ่งพ่ายแพ้ เกมจะสิ้นสุดลงตรงนั้น",
    "1-2-4. ผู้เล่นทั้งหมดสามารถขอยอมแพ้ได้ตลอดเวลาในระหว่างเกม",
    "1-3-1. กฎที่ถูกนิยามไว้ในกฎกติกาโดยรวมนี้ถือเป็นหลักการโดยทั่วไป",
    "1-3-2. ไม่ว่าด้วยเหตุผลใดก็ตาม หากผู้เล่นถูกร้องขอให้กระทำสิ่งที่ไม่สามารถทำได้",
    "",
    "2-2-4. การ์ด 1 ใบอาจมีชื่อการ์ดได้หลายชื่อ",
]
# The same lines as the damaged PDF rendering of the Gundam file prints them.
DAMAGED = [
    "1-1-1. เกมนีเ้ป็นเกมทีด่ําเนินการแข่งขนัโดยผูเ้ล่น 2 คน ",
    "1-2-1. กรณีทีผู่เ้ล่นฝ่ายใดฝ่ายหน่ึงพ่ายแพ ้ เกมจะสิน้สุดลงตรงน้ัน ",
    "1-2-4. ผูเ้ล่นทัง้หมดสามารถขอยอมแพไ้ดต้ลอดเวลาในระหว่างเกม ",
    "1-3-1. กฎทีถู่กนิยามไวใ้นกฎกตกิาโดยรวมนีถ้อืเป็นหลกัการโดยทั่วไป ",
    "1-3-2. ไม่วา่ดว้ยเหตุผลใดก็ตาม หากผูเ้ลน่ถกูรอ้งขอใหก้ระทําสิง่ทีไ่มส่ามารถทําได ้",
    "",
    "2-2-4. การด์ 1 ใบอาจมชีือ่การด์ไดห้ลายชือ่ ",
]


@pytest.mark.parametrize(
    ("damaged", "clean"),
    [
        ("ผูเ้ลน่", "ผู้เล่น"),  # tone one character late, past a leading vowel
        ("การด์", "การ์ด"),  # THANTHAKHAT one consonant late
        ("คร ัง้", "ครั้ง"),  # artefact space before a mark, tone one consonant late
        ("จํานวน", "จำนวน"),  # NIKHAHIT + SARA AA -> SARA AM
        ("แพ ้", "แพ้"),  # tone pushed past a space
        ("ทําได ้", "ทำได้"),  # both at once
        ("กตกิา", "กติกา"),  # vowel one consonant late
        ("ดาํเนิน", "ดำเนิน"),  # NIKHAHIT pushed past SARA AA
        ("น้ัน", "นั้น"),  # tone written before the vowel
        ("หน่ึง", "หนึ่ง"),  # ditto with SARA UE
        ("ซํา้", "ซ้ำ"),  # tone after SARA AA, then SARA AM composed
        ("ญีปุ่่น", "ญี่ปุ่น"),  # two tones on one consonant: one goes back
        ("【ระหว่างลิง้ก】์", "【ระหว่างลิ้งก์】"),  # THANTHAKHAT pushed past punctuation
        ("เอฟเฟกตน้ั์น", "เอฟเฟกต์นั้น"),  # THANTHAKHAT past a whole marked consonant
        ("【ใชไ้ด ้1 คร ัง้ตอ่เทริน์】", "【ใช้ได้ 1 ครั้งต่อเทิร์น】"),  # mark past a real space
    ],
)
def test_repair_thai_exact(damaged: str, clean: str) -> None:
    assert repair_thai(damaged) == clean


def test_repair_thai_damaged_lines() -> None:
    assert [repair_thai(line).rstrip() for line in DAMAGED] == CLEAN


def test_drop_spaces_before_marks() -> None:
    # the artefact space goes; a mark pushed past a real space before a digit swaps back
    assert drop_spaces_before_marks("คร ัง้") == "ครัง้"
    assert drop_spaces_before_marks("แพ ้ เกม") == "แพ้ เกม"
    assert drop_spaces_before_marks("ได ้1") == "ได้ 1"
    assert drop_spaces_before_marks("A ้") == "A ้"  # not after Thai: left alone


def test_order_marks_and_cluster_ok() -> None:
    assert order_marks(["\u0e49", "\u0e31"]) == "\u0e31\u0e49"  # vowel before tone
    assert order_marks(["\u0e4d", "\u0e49"]) == "\u0e49\u0e4d"  # tone before NIKHAHIT
    assert cluster_ok(["\u0e34", "\u0e4c"])  # ฤทธิ์
    assert not cluster_ok(["\u0e48", "\u0e49"])  # two tones
    assert not cluster_ok(["\u0e31", "\u0e34"])  # two vowels
    assert not cluster_ok(["\u0e47", "\u0e48"])  # MAITAIKHU with a tone


def test_split_cells() -> None:
    cells = split_cells("1. ผูเ้")
    assert [(c.base, c.lead, c.late, c.rest) for c in cells] == [
        ("", (), (), "1. "),
        ("ผ", ("\u0e39",), ("\u0e49",), "เ"),
    ]


def test_impossible_positions_and_score() -> None:
    assert impossible_positions("ผูเ้ลน่") == [3]  # the tone after SARA E
    assert impossible_positions("ผู้เล่น") == []
    assert damage_score("ผู้เล่น") == 0.0
    assert damage_score("no thai") == 0.0
    assert damage_score("ผูเ้ลน่") == pytest.approx(1000 / 7)


def test_clean_text_scores_zero() -> None:
    assert damage_score("\n".join(CLEAN)) == 0.0
    assert damage_score("\n".join(DAMAGED)) > 40


def test_gating_leaves_clean_lines_identical() -> None:
    assert repair_lines(CLEAN) == CLEAN
    assert not is_damaged(CLEAN)


def test_a_typo_in_clean_text_is_not_repaired() -> None:
    lines = [*CLEAN, "ใบดีียว คือ Main Seal", *CLEAN]  # one impossible sequence
    assert repair_lines(lines) == lines


def test_damaged_block_is_repaired_line_for_line() -> None:
    lines = [*CLEAN, *DAMAGED, *CLEAN]
    out = repair_lines(lines)
    assert len(out) == len(lines)
    assert out[: len(CLEAN)] == CLEAN
    assert out[-len(CLEAN) :] == CLEAN
    assert [line.rstrip() for line in out[len(CLEAN) : -len(CLEAN)]] == CLEAN
    assert is_damaged(lines)
    mask = damaged_lines(lines)
    assert mask == [False] * len(CLEAN) + [True] * len(DAMAGED) + [False] * len(CLEAN)


def test_repair_lines_keeps_line_count_and_empty_input() -> None:
    assert repair_lines([]) == []
    assert repair_lines(["", "abc", ""]) == ["", "abc", ""]


def test_fold_text() -> None:
    assert fold_text("ก1๒Ab【\n") == "ก00aa \n"


def test_tiny_model_scores_seen_text_higher() -> None:
    model = train_model(["ผู้เล่น", "การ์ด"], order=3)
    assert model.score("ผู้เล่น") > model.score("ผูเ้ลน่")


def test_default_model_is_trained_on_other_documents_only() -> None:
    default_model.cache_clear()
    model = default_model()
    assert model.order == 5
    assert model.meta["training_docs"] == ["sm-2014", "op-cr"]


def _rulebook(prefix: str) -> list[str]:
    from judgekb.config import DATA_DIR

    path = next((DATA_DIR / "rulebooks").glob(f"{prefix}_*.txt"))
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("prefix", ["000", "002", "003", "004"])
def test_real_clean_rulebooks_are_untouched(prefix: str) -> None:
    lines = _rulebook(prefix)
    assert repair_lines(lines) == lines


@pytest.mark.slow
def test_real_gundam_file() -> None:
    lines = _rulebook("001")
    out = repair_lines(lines)
    assert len(out) == len(lines)
    cut = next(i for i, line in enumerate(lines) if "●Ver." in line)
    assert damage_score("\n".join(lines[:cut])) > 40
    assert damage_score("\n".join(out[:cut])) == 0.0
    clean_start = next(i for i in range(cut, len(lines)) if "\t" in lines[i])  # tab-indented
    assert out[clean_start:] == lines[clean_start:]  # the clean rendering is not touched
    assert out[cut + 14] == "・เพิ่มหัวข้อใหม่ 3. ประเภทการ์ด "  # changelog: no impossible mark
    assert repair_lines(out) == out  # repaired text no longer looks damaged
