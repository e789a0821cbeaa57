from __future__ import annotations

import sqlite3

import pytest

from judgekb.corpus.store import ClauseStore, write_store
from judgekb.errors import ClauseNotFound, StoreError, UnknownGame
from tests.fakes import tiny_corpus, write_tiny_store


def test_round_trip_keeps_every_field(tmp_path):
    path = tmp_path / "c.sqlite"
    write_tiny_store(path)
    store = ClauseStore(path)
    docs, clauses, _, _ = tiny_corpus()
    assert [d.doc_id for d in store.documents()] == ["th-doc", "th-decree", "ms-doc"]
    assert store.get("th-doc", "glossary/cast") == clauses[4]
    assert [c.clause_id for c in store.children("th-doc", "100")] == ["100.1", "100.2"]
    assert [r.src_id for r in store.refs_in("th-doc", "100.1")] == ["100.2"]
    assert [a.amend_doc for a in store.amendments("th-doc", "100.1")] == ["th-decree"]


def test_find_prefers_rules_document_and_suggests_nearest(tmp_path):
    path = tmp_path / "c.sqlite"
    write_tiny_store(path)
    store = ClauseStore(path)
    assert store.find("summoner-master", "100.1").doc_id == "th-doc"
    assert store.find("summoner-master", "100.1", "th-decree").doc_id == "th-decree"
    with pytest.raises(ClauseNotFound) as info:
        store.find("summoner-master", "100.9")
    assert info.value.status == 404
    assert info.value.suggestions[0] == "100"
    with pytest.raises(ClauseNotFound) as info:  # the number with the other separator
        store.find("summoner-master", "100-2")
    assert info.value.suggestions[0] == "100.2"
    with pytest.raises(UnknownGame, match="known games: summoner-master, vanguard"):
        store.find("chess", "1")


def test_duplicate_clause_is_refused_and_nothing_is_written(tmp_path):
    docs, clauses, _, _ = tiny_corpus()
    path = tmp_path / "c.sqlite"
    with pytest.raises(StoreError, match="'100.1' of th-doc appears twice"):
        write_store(path, docs, clauses + [clauses[1]])
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_missing_or_corrupt_store_names_the_fix(tmp_path):
    with pytest.raises(StoreError, match="judgekb build"):
        ClauseStore(tmp_path / "none.sqlite")
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="unreadable"):
        ClauseStore(bad)


def test_interrupted_write_keeps_the_old_store(tmp_path, monkeypatch):
    path = tmp_path / "c.sqlite"
    write_tiny_store(path)
    before = path.read_bytes()
    docs, clauses, _, _ = tiny_corpus()

    def boom(*a, **k):
        raise sqlite3.OperationalError("disk full")

    monkeypatch.setattr("judgekb.corpus.store._insert_all", boom)
    with pytest.raises(sqlite3.OperationalError):
        write_store(path, docs, clauses)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.sqlite"]


def test_a_store_of_an_older_schema_names_the_fix(tmp_path):
    path = tmp_path / "c.sqlite"
    write_tiny_store(path)
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    con.close()
    with pytest.raises(StoreError, match=r"has schema 1, this judgekb reads schema 4; run"):
        ClauseStore(path)


def test_a_misprinted_number_resolves_by_its_intended_form(tmp_path):
    from judgekb.corpus.model import Clause, Document

    doc = Document("vg", "vanguard", "Vanguard", "VG", "ms", "1", "", "rules", "v.txt")
    clauses = [
        Clause("vg", "7.35", None, "clause", "", "Induk", "Induk", "ms", 1, 0),
        Clause("vg", "7.46.1", "7.35", "clause", "", "Salah", "Salah", "ms", 2, 1,
               aliases=("7.35.1",)),
    ]  # fmt: skip
    write_store(tmp_path / "c.sqlite", [doc], clauses)
    store = ClauseStore(tmp_path / "c.sqlite")
    assert store.find("vanguard", "7.35.1").clause_id == "7.46.1"
    assert store.find("vanguard", "7.46.1").clause_id == "7.46.1"
    with pytest.raises(ClauseNotFound):
        store.find("vanguard", "7.35.2")
