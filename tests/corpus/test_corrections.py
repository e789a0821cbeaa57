"""Tests of the OCR correction tables: loading, context rules, clause copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from judgekb.corpus.corrections import (
    apply_corrections,
    correct_clauses,
    correction_counts,
    load_corrections,
)
from judgekb.corpus.model import Clause, Correction
from judgekb.errors import ManifestError

RULEBOOKS = Path(__file__).parents[2] / "judgekb" / "data" / "rulebooks"


def _clause(text: str, title: str = "") -> Clause:
    return Clause("op-cr", "1-1", None, "clause", title, text, text, "th", 1)


def test_missing_file_is_empty_table(tmp_path: Path) -> None:
    table = load_corrections("nope", tmp_path)
    assert table.rules == ()
    assert apply_corrections(table, "ร้าย") == ("ร้าย", ())


def test_malformed_toml_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text('[[correction]]\nwrong = "a"\nright = \n', encoding="utf-8")
    with pytest.raises(ManifestError) as err:
        load_corrections("x", tmp_path)
    assert err.value.path.endswith("x.toml")
    assert err.value.line == 3


def test_bad_pattern_names_entry_line(tmp_path: Path) -> None:
    body = '[[correction]]\nwrong = "a"\nright = "b"\n\n[[correction]]\nwrong = "c"\nright = "d"\npattern = "(?<!ab|c)x"\n'
    (tmp_path / "x.toml").write_text(body, encoding="utf-8")
    with pytest.raises(ManifestError, match="invalid pattern") as err:
        load_corrections("x", tmp_path)
    assert err.value.line == 5


def test_unknown_key_rejected(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text('[[correction]]\nwrong = "a"\nright = "b"\nwhy = 1\n')
    with pytest.raises(ManifestError, match="unknown keys why"):
        load_corrections("x", tmp_path)


def test_one_piece_terms() -> None:
    table = load_corrections("op-cr")
    text, fired = apply_corrections(table, "สิตเตอร์ของคุณได้รับตามเมฆขณะที่ไลฟ์เป็น 0 ใน")
    assert text == "ลีดเดอร์ของคุณได้รับดาเมจขณะที่ไลฟ์เป็น 0 ใบ"
    assert [(c.wrong, c.right, c.count) for c in fired] == [
        ("สิตเตอร์", "ลีดเดอร์", 1),
        ("ตามเมฆ", "ดาเมจ", 1),
        ("ใน", "ใบ", 1),
    ]


def test_context_rules_keep_real_words() -> None:
    table = load_corrections("op-cr")
    # ใน "in" before a noun stays; การดำเนิน "proceeding" stays; เคาน์เตอร์ stays
    same = "นำการ์ด 1 ใบ ในมือ การดำเนินเกม ใน 2 เทิร์น เคาน์เตอร์การ์ด เด็ดขาด"
    assert apply_corrections(table, same) == (same, ())
    assert apply_corrections(table, "ติดตั้ง!!การ์ด")[0] == "ติดดอน!!การ์ด"
    assert apply_corrections(table, "ดั้ง!เด็ค และ การดใบนั้น")[0] == "ดอน!!เด็ค และ การ์ดใบนั้น"


def test_summoner_master_cast_and_lao_letter() -> None:
    table = load_corrections("sm-2014")
    text, fired = apply_corrections(table, "การร้าย Seal ให้ Effect ไດเริ่ม ร้ายแรง")
    assert text == "การร่าย Seal ให้ Effect ใดเริ่ม ร้ายแรง"
    assert [c.count for c in fired] == [1, 1]


def test_correct_clauses_keeps_raw_and_records() -> None:
    clause = _clause("แพช และ แพช", title="โลฟ")
    (out,) = correct_clauses("op-cr", [clause])
    assert out.text == "แทรช และ แทรช"
    assert out.title == "ไลฟ์"
    assert out.raw_text == "แพช และ แพช"
    assert out.corrections == (
        Correction("โลฟ", "ไลฟ์", 1, "Life: ไ read as โ, karan dropped"),
        Correction("แพช", "แทรช", 2, "Trash: ทร read as พ"),
    )
    untouched = _clause("ลีดเดอร์")
    assert correct_clauses("op-cr", [untouched]) == [untouched]


def _whole_file_counts(doc_id: str, name: str) -> dict[str, int]:
    text = next(RULEBOOKS.glob(name)).read_text(encoding="utf-8")
    return correction_counts(doc_id, [_clause(text)])


def test_counts_on_real_books() -> None:
    op = _whole_file_counts("op-cr", "002_*.txt")
    assert sum(op.values()) == 362
    assert op["[คาแรกเตอร์] -> [เคาน์เตอร์]"] == 2  # the Counter keyword, not 2-2-4-1's type
    assert op["ดัง!! -> ดอน!!"] == 26
    assert op["เด็ก -> เด็ค"] == 11
    sm = _whole_file_counts("sm-2014", "000_*.txt")
    assert sm == {"ร้าย -> ร่าย": 144, "ไດ -> ใด": 7}
    assert sum(_whole_file_counts("sm-decree-2009", "003_*.txt").values()) == 5
    assert sum(_whole_file_counts("gundam-cr", "001_*.txt").values()) == 8
    assert sum(_whole_file_counts("vg-cr", "004_*.txt").values()) == 3
