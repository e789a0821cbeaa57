"""Rulings storage on SQLite and PostgreSQL: lifecycle, revisions, permissions, stale flags,
export/import, concurrent writers."""

from __future__ import annotations

import json
import threading
from dataclasses import replace

import pytest

from judgekb.corpus.store import ClauseStore, write_store
from judgekb.errors import Conflict, Forbidden, RulingNotFound, UnknownClauses, ValidationFailed
from judgekb.kb.cites import StoreResolver
from judgekb.kb.model import Actor, Source
from judgekb.kb.repo import RulingRepo
from judgekb.kb.transfer import export_lines, import_lines
from tests.kb.conftest import draft
from tests.service.conftest import AMENDMENTS, CLAUSES, DOCS, REFS

JUDGE = Actor("judy", "judge", "10.0.0.1")
HEAD = Actor("hugo", "head-judge", "10.0.0.2")
ADMIN = Actor("ada", "admin", "10.0.0.3")


def test_lifecycle_revisions_and_audit(kb) -> None:
    repo = kb.rulings
    r = repo.submit(draft(), JUDGE)
    assert (r.status, r.revision, r.created_by, r.needs_review) == ("pending", 1, "judy", False)
    assert [(c.doc_id, c.clause_id) for c in r.cites] == [("sm-2014", "602.1.4")]
    assert r.cites[0].cited_text == "เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect"
    with pytest.raises(Forbidden):
        repo.review(r.id, "approve", JUDGE)
    with pytest.raises(ValidationFailed, match="reason is required"):
        repo.review(r.id, "reject", HEAD)
    edited = repo.edit(r.id, draft(answer="คำตอบที่แก้แล้ว"), JUDGE, "typo")
    assert (edited.revision, edited.answer) == (2, "คำตอบที่แก้แล้ว")
    published = repo.review(r.id, "approve", HEAD)
    assert (published.status, published.revision) == ("published", 3)
    with pytest.raises(Forbidden):  # the author may no longer edit a published ruling
        repo.edit(r.id, draft(answer="x"), JUDGE)
    with pytest.raises(Conflict):
        repo.review(r.id, "reject", HEAD, "too late")
    retracted = repo.review(r.id, "retract", ADMIN, "superseded by errata")
    assert (retracted.status, retracted.reason) == ("retracted", "superseded by errata")
    revs = repo.revisions(r.id)
    assert [(v.n, v.actor, v.action) for v in revs] == [
        (1, "judy", "submit"),
        (2, "judy", "edit"),
        (3, "hugo", "approve"),
        (4, "ada", "retract"),
    ]
    assert revs[1].changes == {"answer": ["ตรวจสอบเงื่อนไขทันทีหลังร่าย", "คำตอบที่แก้แล้ว"]}
    assert revs[1].note == "typo"
    assert revs[2].changes == {"status": ["pending", "published"]}
    assert repo.get(r.id).status == "retracted"  # nothing is deleted
    actions = [e["action"] for e in repo.audit_entries()]
    assert actions[:4] == ["ruling.retract", "ruling.approve", "ruling.edit", "ruling.submit"]
    assert repo.audit_entries()[0]["address"] == "10.0.0.3"


def test_visibility(kb) -> None:
    repo = kb.rulings
    r = repo.submit(draft(), JUDGE)
    for viewer in (None, Actor("other", "judge")):
        with pytest.raises(RulingNotFound):
            repo.get(r.id, viewer)
    assert repo.get(r.id, JUDGE).id == repo.get(r.id, HEAD).id == r.id
    assert repo.find(status="published") == []
    assert [x.id for x in repo.find(status="pending")] == [r.id]


def test_unknown_clauses_are_named(kb) -> None:
    with pytest.raises(UnknownClauses) as info:
        kb.rulings.submit(draft(cites=("602.1.4", "999.9", "602.77")), JUDGE)
    assert info.value.clause_ids == ["999.9", "602.77"]
    assert "999.9, 602.77" in info.value.message
    with pytest.raises(ValidationFailed, match="unknown game 'chess'"):
        kb.rulings.submit(draft(game="chess"), JUDGE)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"question": "x" * 2001}, "question"),
        ({"answer": ""}, "answer"),
        ({"cites": ()}, "cites"),
        ({"cites": tuple(str(i) for i in range(21))}, "cites"),
        ({"lang": "fr"}, "lang"),
        ({"source": Source("official", "", "", "2026-01-01")}, "source.url"),
        ({"source": Source("official", "javascript:alert(1)", "", "2026-01-01")}, "source.url"),
        ({"source": Source("head-judge", "", "Event", "")}, "source.date"),
        ({"source": Source("head-judge", "", "Event", "2026-13-01")}, "source.date"),
        ({"source": Source("oracle")}, "source.kind"),
    ],
)
def test_limits_and_choices(kb, change, field) -> None:
    with pytest.raises(ValidationFailed) as info:
        kb.rulings.submit(draft(**change), JUDGE)
    assert info.value.field == field


def test_changed_clause_text_flags_its_rulings(kb, store_path, tmp_path) -> None:
    repo = kb.rulings
    cited = repo.review(repo.submit(draft(), JUDGE).id, "approve", HEAD)
    other = repo.review(repo.submit(draft(cites=("602.2",)), JUDGE).id, "approve", HEAD)
    assert kb.check_stale() == []
    # a rebuild corrects the text of 602.1.4 (e.g. an OCR table fix)
    new_text = "เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect ทันที"
    clauses = [
        replace(c, text=new_text) if (c.doc_id, c.clause_id) == ("sm-2014", "602.1.4") else c
        for c in CLAUSES
    ]
    rebuilt = tmp_path / "clauses.sqlite"
    write_store(rebuilt, DOCS, clauses, REFS, AMENDMENTS)
    after = RulingRepo(kb.db, StoreResolver(ClauseStore(rebuilt)))
    assert after.flag_stale(Actor("system", "admin")) == [cited.id]
    assert after.flag_stale(Actor("system", "admin")) == []  # idempotent
    flagged = after.get(cited.id)
    assert (flagged.status, flagged.needs_review) == ("published", True)
    assert flagged.cites[0].cited_text.endswith("Trigger Effect")
    assert flagged.cites[0].current_text == new_text
    assert after.get(other.id).needs_review is False
    assert [r.id for r in after.find(needs_review=True)] == [cited.id]
    assert after.revisions(cited.id)[-1].action == "flag"
    confirmed = after.review(cited.id, "approve", HEAD)  # the reviewer acts
    assert (confirmed.needs_review, confirmed.cites[0].cited_text) == (False, new_text)
    assert confirmed.cites[0].current_text is None
    assert after.flag_stale(Actor("system", "admin")) == []


def test_export_import_round_trip_is_identical(kb, kb_settings, tmp_path) -> None:
    repo = kb.rulings
    a = repo.submit(draft(), JUDGE)
    repo.review(a.id, "approve", HEAD)
    b = repo.submit(
        draft(question='คำถาม <b>"quoted"</b>\n\tสองบรรทัด', cites=("602.1", "602.2")), JUDGE
    )
    repo.review(b.id, "reject", HEAD, "duplicate of #1")
    c = repo.submit(
        draft(source=Source("official", "https://example.org/qa?x=1&y=2", "", "2026-02-03")), JUDGE
    )
    repo.review(repo.review(c.id, "approve", ADMIN).id, "retract", ADMIN, "errata")
    first = list(export_lines(kb.db))
    assert len(first) == 3
    assert json.loads(first[0])["revisions"][1]["action"] == "approve"
    from judgekb.kb.db import open_database

    fresh = open_database(f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    assert import_lines(fresh, first, JUDGE) == (3, 0)
    assert list(export_lines(fresh)) == first
    assert import_lines(fresh, first, JUDGE) == (0, 3)  # idempotent
    changed = [first[0].replace("ตรวจสอบ", "ตรวจ"), *first[1:]]
    with pytest.raises(Conflict):
        import_lines(fresh, changed, JUDGE)
    new = RulingRepo(fresh, repo.resolver).submit(draft(), JUDGE)
    assert new.id == c.id + 1  # ids continue after the imported ones
    fresh.dispose()


def test_import_into_the_other_database(kb, pg, tmp_path) -> None:
    """SQLite -> PostgreSQL (or PostgreSQL -> PostgreSQL) keeps every byte."""
    from judgekb.kb.db import open_database

    repo = kb.rulings
    repo.review(repo.submit(draft(), JUDGE).id, "approve", HEAD)
    first = list(export_lines(kb.db))
    other = open_database(pg.fresh_database())
    import_lines(other, first, JUDGE)
    assert list(export_lines(other)) == first
    assert RulingRepo(other, repo.resolver).submit(draft(), JUDGE).id == 2  # sequence moved on
    other.dispose()


def test_sixteen_concurrent_writers_lose_nothing(kb) -> None:
    repo = kb.rulings
    made: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def writer(w: int) -> None:
        try:
            for i in range(25):
                r = repo.submit(draft(question=f"writer {w} ruling {i}"), Actor(f"w{w}", "judge"))
                with lock:
                    made.append(r.id)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(made) == len(set(made)) == 400
    stored = repo.find(status="pending", limit=1000)
    assert sorted(r.id for r in stored) == sorted(made)
    assert {r.question for r in stored} == {
        f"writer {w} ruling {i}" for w in range(16) for i in range(25)
    }
    assert all(r.revision == 1 and len(repo.revisions(r.id)) == 1 for r in stored[:20])
