"""Tests of amendment linking: the 2009 decree against the 2014 Summoner Master book.

The book is split by a small test-only helper (numbered lines only), so these tests do not
depend on the full rulebook parser.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judgekb.corpus.amend import features, link_amendments
from judgekb.corpus.corrections import correct_clauses
from judgekb.corpus.decree import parse_decree
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.model import Clause, Document, ParsedDocument

MANIFEST = Path(__file__).parents[2] / "judgekb" / "data" / "manifest.toml"
NUMBERED = re.compile(r"^\W*(\d{3}(?:\.\d+)*)\.?\s+(.*)$")


def _split_book(doc: Document, text: str) -> ParsedDocument:
    """Test-only: one clause per numbered line, continuation lines appended, parent by number."""
    rows: list[list] = []
    known: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        m = NUMBERED.match(line)
        if m and m.group(1) not in known:
            cid, parts = m.group(1), m.group(1).split(".")
            parents = (".".join(parts[:k]) for k in range(len(parts) - 1, 0, -1))
            parent = next((p for p in parents if p in known), None)
            known.add(cid)
            rows.append([cid, parent, m.group(2).strip(" *"), n])
        elif rows and line.strip() and not line.startswith("#"):
            rows[-1][2] += " " + line.strip()
    clauses = tuple(
        Clause(doc.doc_id, cid, parent, "clause", "", body, body, doc.lang, n, seq=i)
        for i, (cid, parent, body, n) in enumerate(rows)
    )
    return ParsedDocument(doc, clauses)


def _corrected(parsed: ParsedDocument) -> ParsedDocument:
    return ParsedDocument(
        parsed.document, tuple(correct_clauses(parsed.document.doc_id, parsed.clauses))
    )


@pytest.fixture(scope="module")
def links() -> dict[str, tuple[str | None, float, str]]:
    manifest = load_manifest(MANIFEST)
    decree_doc, book_doc = manifest.document("sm-decree-2009"), manifest.document("sm-2014")
    decree = parse_decree(decree_doc, manifest.source_path(decree_doc).read_text("utf-8"))
    book = _split_book(book_doc, manifest.source_path(book_doc).read_text("utf-8"))
    found = link_amendments(_corrected(decree), _corrected(book))
    assert {(x.amend_doc, x.target_doc) for x in found} == {("sm-decree-2009", "sm-2014")}
    return {x.amend_id: (x.target_id, x.score, x.note) for x in found}


def test_renumbered_dimension_curse(links) -> None:
    assert links["711.6"][0] == "709.11"
    for i in range(1, 9):
        assert links[f"711.6.{i}"][0] == f"709.11.{i}"
    assert links["711.6.3"][2] == "number differs: 711.6.3 -> 709.11.3"


def test_renumbered_mystic_card_kinds(links) -> None:
    assert links["201.1.2.1"][0] == "201.8.2.1"
    assert links["201.1.2.3"][0] == "201.8.2.3"
    assert links["201.1"][0] == "201.8"  # two levels above its printed child


def test_same_number_other_rule(links) -> None:
    target, score, note = links["601.1.5"]
    assert target == "601.1.3"
    assert score > 0.9
    assert note == "number differs: 601.1.5 -> 601.1.3"


def test_dropped_clause_has_no_counterpart(links) -> None:
    target, score, note = links["711.5"]
    assert target is None
    assert score < 0.45
    assert note.startswith("no counterpart in sm-2014")


def test_structure_breaks_ties_between_identical_texts(links) -> None:
    # 708.2.8.1 and 610.2.12.1 have the same text in both documents
    assert links["708.2.8"][0] == "708.2.8"
    assert links["708.2.8.1"][0] == "708.2.8.1"
    assert links["610.2.12.1"][0] == "610.2.12.1"
    assert links["610.1.10"] == ("610.1.10", 1.0, "same number")


def test_counts(links) -> None:
    assert len(links) == 114  # 110 numbered clauses + 4 topics without numbered clauses
    assert sorted(k for k, v in links.items() if v[0] is None) == [
        "711.5",
        "topic/10",
        "topic/11",
        "topic/12",
    ]
    assert sum(v[0] == k for k, v in links.items()) == 93


def test_features_ignore_tone_marks_and_numbers() -> None:
    assert features("การร้าย 610.1.2.") == features("การร่าย")
