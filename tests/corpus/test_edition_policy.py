"""Which edition is in force on a day, which documents a search sees, and the manifest keys."""

from __future__ import annotations

from datetime import date

import pytest

from judgekb.config import DATA_DIR
from judgekb.corpus.editions import (
    current_first,
    families,
    in_force,
    later_edition,
    parse_day,
    visible_docs,
)
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.model import Document
from judgekb.errors import ManifestError, QueryError, UnknownEdition


def _doc(doc_id: str, version: str, when: str, kind: str = "rules", family: str = "g") -> Document:
    amends = "g1" if kind == "amendment" else None
    return Document(doc_id, "gundam", "Gundam", "T", "th", version, when, kind, "x", amends, family)


DOCS = [
    _doc("g1", "Ver.1.0", "2024-11-29"),
    _doc("g2", "Ver.1.1.0", "2025-07-24"),
    _doc("g3", "Ver.1.2.0", "2099-01-01"),
    _doc("dec", "decree", "2025-01-01", "amendment", ""),
    _doc("vg", "Malay edition", "", family=""),
]


@pytest.mark.parametrize(
    ("day", "doc"),
    [
        (date(2024, 1, 1), "g1"),  # before the first edition: the first
        (date(2024, 11, 29), "g1"),  # on its effective date
        (date(2025, 7, 23), "g1"),
        (date(2025, 7, 24), "g2"),
        (date(2098, 12, 31), "g2"),
        (date(2099, 1, 1), "g3"),
    ],
)
def test_edition_in_force_is_the_latest_dated_on_or_before_the_day(day, doc):
    assert in_force(families(DOCS)["g"], day).doc_id == doc


def test_visible_docs_today_by_date_and_by_version():
    assert visible_docs(DOCS) == {"g2", "dec", "vg"}
    assert visible_docs(DOCS, date(2025, 1, 1)) == {"g1", "dec", "vg"}
    assert visible_docs(DOCS, version="Ver.1.2.0") == {"g3"}
    # as a judge types it: spaces and case aside
    assert visible_docs(DOCS, version="ver. 1.2.0") == {"g3"}
    assert visible_docs(DOCS, version="malayedition") == {"vg"}
    with pytest.raises(UnknownEdition, match="unknown edition 'Ver.9'"):
        visible_docs(DOCS, version="Ver.9", game="gundam")


def test_later_edition_and_lookup_order():
    assert later_edition(DOCS, DOCS[0]).doc_id == "g3"
    assert later_edition(DOCS, DOCS[2]) is None
    assert [d.doc_id for d in current_first(DOCS)] == ["g2", "vg", "dec", "g3", "g1"]


def test_parse_day():
    assert parse_day("2025-07-24") == date(2025, 7, 24)
    assert parse_day(None) is None
    with pytest.raises(QueryError, match="YYYY-MM-DD"):
        parse_day("24/07/2025")


def test_bundled_manifest_names_families_and_resolves_sources():
    m = load_manifest(DATA_DIR / "manifest.toml")
    assert {d.doc_id: d.family_id for d in m.documents} == {
        "sm-2014": "sm-cr",
        "sm-decree-2009": "sm-decree-2009",
        "gundam-cr": "gundam-cr",
        "op-cr": "op-cr",
        "vg-cr": "vg-cr",
    }
    assert m.source_path(m.document("op-cr")) == DATA_DIR / "rulebooks" / "002_05b849521a22338f.txt"
    assert m.changelog["gundam-cr"].removed == ("ลบ",)


EDITION = """extends = "bundled"

[[document]]
doc_id = "gundam-cr-1.2"
family = "gundam-cr"
game = "gundam"
title = "Gundam Card Game Comprehensive Rules"
lang = "th"
version = "Ver.1.2.0"
effective_date = "2026-01-01"
kind = "rules"
source = "SOURCE"
numbering = "dashed"
"""


def test_an_outside_manifest_adds_an_edition_to_the_bundled_ones(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "g.txt").write_text("1. x\n", encoding="utf-8")
    path = tmp_path / "manifest.toml"
    path.write_text(EDITION.replace("SOURCE", "sub/g.txt"), encoding="utf-8")
    m = load_manifest(path)
    assert [d.doc_id for d in m.documents][-2:] == ["vg-cr", "gundam-cr-1.2"]
    assert m.source_path(m.document("gundam-cr-1.2")) == tmp_path / "sub" / "g.txt"
    assert m.source_path(m.document("sm-2014")).parent == DATA_DIR / "rulebooks"
    assert (m.corrections["gundam-cr-1.2"], m.corrections["gundam-cr"]) == (
        "gundam-cr-1.2",
        "gundam-cr",
    )
    absolute = EDITION.replace("SOURCE", str(tmp_path / "sub" / "g.txt"))
    path.write_text(absolute, encoding="utf-8")
    assert load_manifest(path).source_path(m.document("gundam-cr-1.2")).is_file()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (('version = "Ver.1.2.0"', 'version = "Ver.1.1.0"'), "each edition needs its own version"),
        (('effective_date = "2026-01-01"', 'effective_date = "2025-07-24"'), "its own date"),
        (('effective_date = "2026-01-01"', 'effective_date = "1/1/2026"'), "YYYY-MM-DD"),
        (('game = "gundam"', 'game = "one-piece"'), "editions must be rules of one game"),
    ],
)
def test_bad_editions_are_manifest_errors(tmp_path, edit, message):
    path = tmp_path / "manifest.toml"
    path.write_text(EDITION.replace(*edit).replace("SOURCE", "g.txt"), encoding="utf-8")
    with pytest.raises(ManifestError, match=message):
        load_manifest(path)
