"""Segmenter on tiny fixture rulebooks: exact ids, parents, kinds, titles and texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from judgekb.corpus import gundam
from judgekb.corpus.model import Document
from judgekb.corpus.segment import parse_rulebook
from judgekb.errors import RulebookParseError

DATA = Path(__file__).resolve().parent.parent / "data"


def parse(name: str, numbering: str, lang: str = "th"):
    doc = Document("tiny", "gundam", "Tiny", "Tiny", lang, "1", "", "rules", name)
    return parse_rulebook(doc, (DATA / name).read_text(encoding="utf-8"), numbering)


def rows(parsed):
    return [(c.clause_id, c.parent_id, c.kind) for c in parsed.clauses]


def test_dotted_tree():
    parsed = parse("tiny_dotted_th.txt", "dotted")
    assert rows(parsed)[:12] == [
        ("1", None, "chapter"),
        ("100", "1", "section"),
        ("100.1", "100", "clause"),
        ("100.2", "100", "clause"),
        ("100.2.1", "100.2", "clause"),
        ("101", "1", "section"),
        ("101.1", "101", "clause"),
        ("101.2", "101", "clause"),
        ("2", None, "chapter"),
        ("200", "2", "section"),
        ("200.1", "200", "clause"),
        ("200.1.1", "200.1", "clause"),
    ]
    by = {c.clause_id: c for c in parsed.clauses}
    assert by["1"].title == "The Game"
    assert by["200.1"].title == "ส่วนประกอบ"
    assert by["100.2"].text == "กฎข้อสอง\nต่อบรรทัด"
    assert by["100.2.1"].text == "ย่อย (ดู 100.3)\nรายการย่อย"
    assert by["101.1"].text == "ไม่มีจุดท้าย"  # "101.1 ไม่มีจุดท้าย": no trailing dot
    # a numbered list and an example stay in the clause above
    assert by["101.2"].text == "มีดังนี้\n1. หนึ่ง\n2. สอง\nเช่น ตัวอย่าง"
    assert by["200.1.1"].text == "ตัวหนา ข้อความ อ้างอิง 200.1.9"
    assert by["200.1.1"].raw_text == "200.1.1. **ตัวหนา** ข้อความ อ้างอิง 200.1.9"
    assert [c.seq for c in parsed.clauses] == list(range(1, len(parsed.clauses) + 1))


def test_dotted_glossary():
    parsed = parse("tiny_dotted_th.txt", "dotted")
    gloss = [(c.clause_id, c.parent_id, c.kind, c.aliases) for c in parsed.clauses[12:]]
    assert gloss == [
        ("glossary", None, "chapter", ()),
        ("glossary/cast", "glossary", "glossary", ("Cast", "ร่าย")),
        ("glossary/wake-up", "glossary", "glossary", ("Wake Up", "Wake Up <เงื่อนไข>")),
        ("glossary/paste-on-seal-ps", "glossary", "glossary", ("Paste on Seal (PS)", "PS")),
        ("glossary/cast-2", "glossary", "glossary", ("Cast",)),
    ]
    wake = parsed.clauses[14]
    # the numbered list "101. Ninja" collides with section 101 but belongs to the entry
    assert wake.text == "Wake Up / Wake Up <เงื่อนไข>\n1. ทำงานเมื่อเข้าสู่ Main Step\n101. Ninja: นินจา"
    assert [(f.code, f.clause_id, f.line) for f in parsed.findings] == [
        ("duplicate", "glossary/cast-2", 48)
    ]


def test_dashed_toc_wrapped_refs_and_noise():
    parsed = parse("tiny_dashed_th.txt", "dashed")
    assert rows(parsed) == [
        ("1", None, "chapter"),
        ("1-1", "1", "section"),
        ("1-1-1", "1-1", "clause"),
        ("1-1-2", "1-1", "clause"),
        ("1-1-3", "1-1", "clause"),
        ("2", None, "chapter"),
        ("2-1", "2", "section"),
        ("2-1-1", "2-1", "clause"),
        ("2-1-1-1", "2-1-1", "clause"),
    ]
    by = {c.clause_id: c for c in parsed.clauses}
    assert by["1"].line == 7  # the table of contents entry at line 4 gave way
    assert by["1-1-1"].text == "เกมสำหรับผู้เล่น 2 คน (ดู 2-1-1.) และข้อ 1-\n2-1."
    # tool marker stripped, page number "12" dropped, wrapped "2. การ์ด)" is text
    assert by["1-1-2"].text == "ข้อสอง (อ้างอิง\n2. การ์ด)"
    assert by["2-1-1"].title == "ชื่อการ์ด"
    assert parsed.findings == ()


def test_bahagian_misprints_and_order():
    parsed = parse("tiny_bahagian_ms.txt", "bahagian", "ms")
    by = {c.clause_id: c for c in parsed.clauses}
    assert by["2"].title == "Kad"
    assert (by["2.1.15"].parent_id, by["2.1.15"].aliases) == ("2.1.1", ("2.1.1.5",))
    assert (by["2.9.1"].parent_id, by["2.9.1"].aliases) == ("2.2", ("2.2.1",))
    order = [c.clause_id for c in parsed.clauses]
    assert order[order.index("2.1.1.4") + 1] == "2.1.15"  # placed by its inferred number
    assert order.index("2.3.1") < order.index("2.3.2")  # tree order, not print order
    assert by["1.1.1"].text == "Dua pemain (2.2.1).\nContoh: dua orang."
    lamp = by["appendix/lampiran-a"]
    assert (lamp.kind, lamp.parent_id, lamp.text) == (
        "appendix",
        None,
        'Lampiran A: Token\nToken "Plant"\nKuasa: 5000',
    )
    assert order[-1] == "appendix/lampiran-a"


def test_two_renderings_merge(monkeypatch):
    monkeypatch.setattr(
        gundam, "repair_lines", lambda ls: [s.replace("ยาวมาก", "ยาวมาก!") for s in ls]
    )
    parsed = parse("tiny_two_renderings_th.txt", "dashed")
    got = [(c.clause_id, c.provenance, c.repaired, c.line) for c in parsed.clauses]
    assert got == [
        ("1", "clean", False, 18),
        ("1-1", "clean", False, 19),
        ("1-1-1", "damaged-repaired", True, 7),
        ("1-1-2", "damaged", False, 11),
        ("1-1-3", "clean", False, 21),
        ("appendix/changelog", "damaged", False, 15),
    ]
    by = {c.clause_id: c for c in parsed.clauses}
    assert by["1-1-1"].text == "ข้อความเต็มยาวมาก!ที่ถูกตัดในฉบับสะอาด\nและต่อบรรทัด"
    assert by["1-1-1"].raw_text == "1-1-1. ข้อความเต็มยาวมากที่ถูกตัดในฉบับสะอาด\n\nและต่อบรรทัด"
    assert by["1-1-1"].alt_raw_text == "\t1-1-1. ข้อความเต็มยาว..."
    assert by["1-1-3"].text == "ข้อปกติ ฉบับสะอาด"
    assert by["1-1-3"].alt_raw_text == "1-1-3. ข้อปกติ"
    assert [(f.code, f.clause_id) for f in parsed.findings] == [
        ("truncated", "1-1-1"),
        ("rendering-missing", "1-1-2"),
    ]


def test_cut_mid_word_is_truncation():
    from judgekb.corpus.scan import RawNode
    from judgekb.corpus.segment_lines import read_lines
    from judgekb.corpus.tree import NodeData

    clean = RawNode("1-1", 1, "การ์ดที่ถูกวางลงในแอเรียอื่น หา", read_lines("x"))
    damaged = NodeData("1-1", 1, "", "การด์ทีถู่กวางลงในแอเรยีอืน่ หากไม่มรีะบุไว", "")
    assert gundam.is_truncated(clean, damaged)
    assert gundam.skeleton("ผูเ้ลน่") == gundam.skeleton("ผู้เล่น")


def test_unknown_numbering_and_no_clause():
    doc = Document("x", "gundam", "X", "X", "th", "1", "", "rules", "x.txt")
    with pytest.raises(RulebookParseError, match="unknown numbering 'roman'"):
        parse_rulebook(doc, "1. x", "roman")
    with pytest.raises(RulebookParseError, match="no clause numbered in the 'bahagian' style"):
        parse_rulebook(doc, "hello\nworld\n", "bahagian")
