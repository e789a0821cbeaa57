"""The everyday-Thai synonym table judgekb/data/thai_synonyms.toml: well-formed, book forms real.

Measured with ``python scripts/check_synonyms.py`` (it exits 1 on any problem it prints).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judgekb.index.terms import Lexicon, load_thai_synonyms
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
SYNONYMS = ROOT / "judgekb" / "data" / "thai_synonyms.toml"
SLUGS = {"summoner-master", "gundam", "one-piece", "vanguard"}


check_synonyms = load_script("check_synonyms")


@pytest.fixture(scope="module")
def entries() -> list[dict]:
    return check_synonyms.load_synonyms(SYNONYMS)


@pytest.fixture(scope="module")
def texts():
    return check_synonyms.corpus_texts(check_synonyms.MANIFEST_PATH)


def test_table_is_valid(entries):
    assert len(entries) >= 100
    assert check_synonyms.validate_synonyms(entries, SLUGS) == []


def test_every_book_form_occurs_in_its_games_rulebooks(entries, texts):
    counts = check_synonyms.count_books(entries, texts)
    assert [c.form for c in counts if not c.total] == []


def test_no_pointless_or_short_key(entries, texts):
    counts = check_synonyms.count_books(entries, texts)
    lines = check_synonyms.key_findings(entries, texts, counts)
    assert [line for kind, line in lines if kind in ("pointless", "short")] == []


def test_validation_reports_each_kind_of_problem():
    bad = [
        {"everyday": ["ตาแรก"], "book": ["เทิร์นแรก"], "games": ["pokemon"]},
        {"everyday": [], "book": ["เทิร์นแรก"]},
        {"everyday": ["ตาแรก"], "book": ["เทิร์นแรก"], "lang": "th"},
    ]
    problems = check_synonyms.validate_synonyms(bad, SLUGS)
    assert len(problems) >= 3
    assert any("pokemon" in p for p in problems)
    assert any("lang" in p for p in problems)


def test_the_shipped_table_expands_a_judges_wording():
    lex = load_thai_synonyms(Lexicon(), SYNONYMS)
    assert "กลับขึ้นมือ" in lex.expand_thai("การ์ดที่ถูกเด้งขึ้นมือ", "summoner-master")


MALAY = ROOT / "judgekb" / "data" / "malay_colloquial.toml"


@pytest.fixture(scope="module")
def malay_texts(texts):
    from judgekb.corpus.manifest import load_manifest

    langs = {d.doc_id: d.lang for d in load_manifest(check_synonyms.MANIFEST_PATH).documents}
    return check_synonyms.lang_texts(texts, langs, "ms")


def test_malay_table_is_valid_and_its_book_forms_are_in_the_malay_book(malay_texts):
    entries = check_synonyms.load_synonyms(MALAY)
    assert len(entries) >= 30
    assert check_synonyms.validate_synonyms(entries, SLUGS) == []
    assert list(malay_texts) == ["vg-cr"]
    counts = check_synonyms.count_books(entries, malay_texts)
    assert [c.form for c in counts if not c.total] == []
    lines = check_synonyms.key_findings(entries, malay_texts, counts, min_key_chars=1)
    assert [line for kind, line in lines if kind == "pointless"] == []


def test_malay_fillers_are_not_printed_by_the_book(malay_texts):
    fillers = check_synonyms.load_synonyms(MALAY, "filler")
    assert check_synonyms.filler_findings(fillers, malay_texts) == []
    printed = check_synonyms.filler_findings([{"everyday": ["atau tidak"]}], malay_texts)
    assert printed and printed[0].startswith("printed: filler 'atau tidak'")


def test_the_shipped_malay_table_standardises_a_judges_wording():
    from judgekb.index.terms import load_malay_colloquial

    lex = load_malay_colloquial(Lexicon(), MALAY)
    assert lex.malay.normalise("Boleh tak aku guard guna unit grade 3 masa vanguard grade 1?") == (
        "boleh anda guard menggunakan unit grade 3 masa vanguard grade 1?"
    )
