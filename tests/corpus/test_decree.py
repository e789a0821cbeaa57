"""Tests of the 2009 decree parser on a tiny hand-made post and on the real file."""

from __future__ import annotations

from pathlib import Path

import pytest

from judgekb.corpus.decree import parse_decree
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.model import Document

MANIFEST = Path(__file__).parents[2] / "judgekb" / "data" / "manifest.toml"

DOC = Document(
    doc_id="sm-decree-2009",
    game="summoner-master",
    game_name="Summoner Master",
    title="Decree",
    lang="th",
    version="20/07/2009",
    effective_date="2009-07-25",
    kind="amendment",
    source="x.txt",
    amends="sm-2014",
)

TINY = (
    "Title: ประกาศ A Post by: W on May 29, 2009, 09:31:52 PM ประกาศทีม\n"
    "มีผลตั้งแต่ 25/07/2009 • แก้ไขขั้นตอน 610. ขั้นตอนการร่าย 610.1. ร่าย Seal "
    "610.1.1. ประกาศการร่าย 610.1.2. กลับไปที่ Phase 610.1.1. ใหม่ "
    "Title: Re: ประกาศ B Post by: W on June 03, 2009, 03:25:28 PM • เพิ่ม Glossary Mp คือค่า\n"
    "201.1.2.1. [PS] ติดบน Seal"
)


def test_tiny_post_clause_ids_parents_kinds() -> None:
    parsed = parse_decree(DOC, TINY)
    got = [(c.clause_id, c.parent_id, c.kind, c.line) for c in parsed.clauses]
    assert got == [
        ("preamble", None, "appendix", 1),
        ("topic/1", None, "section", 2),
        ("610", "topic/1", "section", 2),
        ("610.1", "610", "section", 2),
        ("610.1.1", "610.1", "clause", 2),
        ("610.1.2", "610.1", "clause", 2),
        ("topic/2", None, "section", 2),
        ("201.1.2.1", "topic/2", "clause", 3),
    ]
    assert [c.seq for c in parsed.clauses] == list(range(8))


def test_tiny_post_texts() -> None:
    by_id = {c.clause_id: c for c in parse_decree(DOC, TINY).clauses}
    assert by_id["preamble"].text == "ประกาศทีม มีผลตั้งแต่ 25/07/2009"
    assert by_id["610"].title == "ขั้นตอนการร่าย"
    # a number after "Phase" that was already seen is a reference, kept as text
    assert by_id["610.1.2"].text == "กลับไปที่ Phase 610.1.1. ใหม่"
    # the reply header is a boundary, not text, but stays in raw_text
    assert by_id["610.1.2"].raw_text.endswith("03:25:28 PM")
    assert by_id["topic/2"].text == "เพิ่ม Glossary Mp คือค่า"
    assert by_id["201.1.2.1"].raw_text == "201.1.2.1. [PS] ติดบน Seal"


@pytest.fixture(scope="module")
def real():
    manifest = load_manifest(MANIFEST)
    doc = manifest.document("sm-decree-2009")
    return parse_decree(doc, manifest.source_path(doc).read_text(encoding="utf-8"))


def test_real_decree_counts(real) -> None:
    ids = [c.clause_id for c in real.clauses]
    assert len(ids) == 123
    assert len(set(ids)) == 123
    assert sum(i[0].isdigit() for i in ids) == 110
    assert sum(i.startswith("topic/") for i in ids) == 12


def test_real_decree_structure(real) -> None:
    by_id = {c.clause_id: c for c in real.clauses}
    assert by_id["711.6.3"].parent_id == "711.6"
    assert by_id["711.6"].parent_id == "711"  # nearest existing ancestor, across topics
    assert by_id["201.1.2.1"].parent_id == "201.1"  # 201.1.2 is not printed
    assert by_id["610.1.11"].text.startswith("ตรวจสอบว่าการร่ายถูกต้องหรือไม่")
    assert "Phase 610.1.6. ใหม่" in by_id["610.1.11"].text
    assert by_id["401.9.6"].line == 3
    assert by_id["703.10"].text.endswith("ทันที")
    assert by_id["602"].kind == "section" and by_id["602"].title == "Effect"
