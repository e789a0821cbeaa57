"""Editions: diffs between fixture editions made by editing the real One Piece and Gundam books.

Every case runs the real build (parse, align, stable keys, store) and asserts the exact diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judgekb.corpus.build import build_corpus, collect_corpus
from judgekb.corpus.edition_store import Editions, diff_of_versions
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.redline import Span, redline
from judgekb.corpus.store import ClauseStore
from tests.editions import (
    GUNDAM_START,
    Book,
    book_text,
    chapters,
    future,
    gundam_clean,
    shift,
    write_editions,
)

OP = book_text("op-cr")


def _moved(pairs: list[tuple[str, str]], changed: bool = False) -> list[dict]:
    return [{"from": a, "to": b, "changed": changed} for a, b in pairs]


def _built(tmp_path: Path, *texts: str, dates: tuple[str, ...] = ()) -> Editions:
    dates = dates or ("2025-02-12", "2025-09-01", "2026-03-01")[: len(texts)]
    eds = [(f"op-{n}", f"V{n}", d, t) for n, (t, d) in enumerate(zip(texts, dates, strict=True))]
    store = tmp_path / "clauses.sqlite"
    build_corpus(load_manifest(write_editions(tmp_path, eds)), store)
    return Editions(ClauseStore(store))


def _diff(tmp_path: Path, new: Book) -> dict:
    return diff_of_versions(_built(tmp_path, OP, new.text), "op", "V0", "V1").to_json()


def test_unchanged_copy_has_an_empty_diff(tmp_path):
    assert _diff(tmp_path, Book(OP)) == {
        "from": "V0",
        "to": "V1",
        "added": [],
        "removed": [],
        "changed": [],
        "moved": [],
    }


def test_changed_wording(tmp_path):
    got = _diff(tmp_path, Book(OP).reword("1-2-3", "ตลอดเวลา", "ทุกเมื่อ"))
    assert got == {
        "from": "V0",
        "to": "V1",
        "added": [],
        "removed": [],
        "changed": ["1-2-3"],
        "moved": [],
    }


def test_clause_inserted_mid_chapter_shifts_later_siblings(tmp_path):
    book = Book(OP).renumber(shift("6-5", 3, 1)).insert_after("6-5-2", "6-5-3. ประกาศก่อนโจมตี")
    got = _diff(tmp_path, book)
    assert got["added"] == ["6-5-3"]
    assert got["removed"] == [] and got["changed"] == []
    assert got["moved"] == _moved(
        [
            ("6-5-3", "6-5-4"),
            ("6-5-3-1", "6-5-4-1"),
            ("6-5-4", "6-5-5"),
            ("6-5-4-1", "6-5-5-1"),
            ("6-5-5", "6-5-6"),
            ("6-5-5-1", "6-5-6-1"),
            ("6-5-5-2", "6-5-6-2"),
            ("6-5-5-3", "6-5-6-3"),
            ("6-5-5-4", "6-5-6-4"),
            ("6-5-6", "6-5-7"),
            ("6-5-6-1", "6-5-7-1"),
            ("6-5-6-2", "6-5-7-2"),
        ]
    )


def test_deleted_clause(tmp_path):
    got = _diff(tmp_path, Book(OP).delete("11-3-2").renumber(shift("11-3", 3, -1)))
    assert got == {
        "from": "V0",
        "to": "V1",
        "added": [],
        "removed": ["11-3-2"],
        "changed": [],
        "moved": _moved([("11-3-3", "11-3-2")]),
    }


def test_renumbered_chapter(tmp_path):
    book = (
        Book(OP)
        .renumber(chapters(11, 1))
        .insert_after("10", "11. การแข่งขันแบบทีม")
        .insert_after("11", "11-1. ทีมหนึ่งมีผู้เล่นสองคน")
    )
    got = _diff(tmp_path, book)
    assert got["added"] == ["11", "11-1"]
    assert got["removed"] == [] and got["changed"] == []
    old = ["11", "11-1", "11-1-1", "11-1-1-1", "11-1-1-2", "11-1-1-3", "11-2", "11-2-1"]
    old += ["11-2-2", "11-3", "11-3-1", "11-3-2", "11-3-3"]
    assert got["moved"] == _moved([(o, "12" + o[2:]) for o in old])


def test_thai_tone_mark_only_change(tmp_path):
    editions = _built(tmp_path, OP, Book(OP).reword("1-2-3", "พ่ายแพ้", "พ่ายแพ").text)
    got = diff_of_versions(editions, "op", "V0", "V1").to_json()
    assert got["changed"] == ["1-2-3"] and got["moved"] == [] and got["added"] == []
    ((old, new),) = [(a, b) for a, b in _texts(editions, "1-2-3")]
    spans = redline(old, new)
    assert [s for s in spans if s.op != "equal"] == [
        Span("delete", "พ่ายแพ้"),
        Span("insert", "พ่ายแพ"),
    ]


def _texts(editions: Editions, cid: str) -> list[tuple[str, str]]:
    (_, a), (_, b) = editions.history("op-0", cid)
    return [(a.text, b.text)]


def test_every_change_at_once_on_an_unseen_edition(tmp_path):
    """The bars: every added/removed/changed/moved clause reported, nothing unchanged
    reported as changed, moved clauses paired with their old numbers."""
    book = (
        Book(OP)
        .reword("1-2-3", "ตลอดเวลา", "ทุกเมื่อ")
        .reword("2-1-1", "่", "้")
        .delete("11-3-2")
        .renumber(shift("11-3", 3, -1))
        .renumber(shift("6-5", 3, 1))
        .insert_after("6-5-2", "6-5-3. ประกาศก่อนโจมตี")
        .delete("8-1-3-3-4")
        .renumber(shift("8-1-3-3", 5, -1))
    )
    got = _diff(tmp_path, book)
    assert got["added"] == ["6-5-3"]
    assert got["removed"] == ["8-1-3-3-4", "11-3-2"]
    assert got["changed"] == ["1-2-3", "2-1-1"]
    assert [(m["from"], m["to"]) for m in got["moved"]][-2:] == [
        ("8-1-3-3-5", "8-1-3-3-4"),
        ("11-3-3", "11-3-2"),
    ]
    assert len(got["moved"]) == 14 and not any(m["changed"] for m in got["moved"])


def test_future_edition_is_not_in_force_today_and_old_numbers_trace(tmp_path):
    b = Book(OP).delete("11-3-2").renumber(shift("11-3", 3, -1))
    c = Book(b.text).reword("11-3-1", "กรณีที่", "เมื่อ")
    editions = _built(tmp_path, OP, b.text, c.text, dates=("2025-02-12", "2025-09-01", future()))
    trace = editions.trace("op-0", "11-3-3")
    assert (trace.clause.doc_id, trace.clause.clause_id, trace.renumbered) == (
        "op-1",
        "11-3-2",
        True,
    )
    gone = editions.trace("op-0", "11-3-2")
    assert (gone.clause, gone.removed_in.version) == (None, "V1")
    assert diff_of_versions(editions, "op", None, None).to_json()["changed"] == ["11-3-1"]
    assert [d.version for d, _ in editions.history("op-2", "11-3-2")] == ["V0", "V1", "V2"]


def _gundam_v10(book: Book, *, keep_7552: bool = False) -> Book:
    """Ver.1.1.0's clean rendering turned back into a Ver.1.0 as its changelog describes."""
    book.reword("12-2-1", "เป่ายิ้งฉุบ", "เป่ายิ้งฉุบ วนขวาวนซ้าย")
    book.renumber(shift("12-3", 7, 1)).insert_after("12-3-6", "12-3-7. ใช้ชีลด์แอเรียร่วมกัน")
    book.renumber(shift("10-3", 4, 1)).insert_after("10-3-3", "10-3-4. เอฟเฟกต์แสดงผลตามปกติ")
    if not keep_7552:
        book.delete("7-5-5-2")
    book.delete("13-2-11").delete("13-2-12").renumber(shift("13-2", 13, -2))
    return book.delete("3").renumber(chapters(4, -1))


@pytest.mark.parametrize("keep_7552", [False, True])
def test_gundam_changelog_is_checked_against_the_diff(tmp_path, keep_7552):
    new = gundam_clean()
    old = _gundam_v10(Book(new, GUNDAM_START), keep_7552=keep_7552).text
    eds = [("g10", "Ver.1.0", "2024-11-29", old), ("g110", "Ver.1.1.0", "2025-07-24", new)]
    path = write_editions(tmp_path, eds, doc_game=("g", "gundam", "dashed"), changelog=True)
    built = collect_corpus(load_manifest(path))
    entries = [(e.version, e.action, e.clause_ids) for e in built.lineage.changelog]
    assert entries[-6:] == [
        ("Ver.1.1.0", "added", ("13-2-11", "13-2-12")),
        ("Ver.1.1.0", "added", ("7-5-5-2",)),
        ("Ver.1.1.0", "removed", ("10-3-4",)),
        ("Ver.1.1.0", "changed", ("12-2-1",)),
        ("Ver.1.1.0", "removed", ("12-3-7",)),
        ("Ver.1.1.0", "added", ("3",)),
    ]
    findings = [(f.doc_id, f.code, f.clause_id) for f in built.findings if "changelog" in f.code]
    assert findings == ([("g110", "changelog-unconfirmed", "7-5-5-2")] if keep_7552 else [])


def test_first_edition_is_checked_against_its_own_changelog(tmp_path):
    """Ver.1.1.0 alone: its changelog removes 10-3-4 and 12-3-7 and it prints both numbers
    (renumbered or never removed: without the edition before, the book cannot say which)."""
    eds = [("g110", "Ver.1.1.0", "2025-07-24", gundam_clean())]
    path = write_editions(tmp_path, eds, doc_game=("g", "gundam", "dashed"), changelog=True)
    built = collect_corpus(load_manifest(path))
    findings = [(f.code, f.clause_id) for f in built.findings if "changelog" in f.code]
    assert findings == [
        ("changelog-removed-printed", "10-3-4"),
        ("changelog-removed-printed", "12-3-7"),
    ]
    removed = next(f for f in built.findings if f.code == "changelog-removed-printed")
    assert dict(removed.params)["version"] == "Ver.1.1.0"


def test_own_changelog_reports_an_added_number_the_book_lacks(tmp_path):
    book = Book(gundam_clean(), GUNDAM_START).delete("7-5-5-2")
    eds = [("g110", "Ver.1.1.0", "2025-07-24", book.text)]
    path = write_editions(tmp_path, eds, doc_game=("g", "gundam", "dashed"), changelog=True)
    built = collect_corpus(load_manifest(path))
    missing = [f for f in built.findings if f.code == "changelog-added-missing"]
    assert [dict(f.params)["cited"] for f in missing] == ["7-5-5-2"]
