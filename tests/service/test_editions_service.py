"""Editions end to end: three editions of the real One Piece book (V1 deletes 11-3-2 and rewords
1-2-3; V2, effective next year, rewords 11-3-1), built into a real store and index (keyword
encoder), searched and served."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from judgekb import cli
from judgekb.config import Settings, get_settings
from judgekb.corpus.store import ClauseStore
from judgekb.index.rebuild import build_all
from judgekb.index.request import SearchRequest
from judgekb.index.search import Searcher
from judgekb.service.app import create_app
from tests.editions import Book, book_text, future, shift, write_editions
from tests.fakes import FakeEmbedder

OP = book_text("op-cr")
V1 = Book(OP).reword("1-2-3", "ตลอดเวลา", "ทุกเมื่อ").delete("11-3-2").renumber(shift("11-3", 3, -1))
V2 = Book(V1.text).reword("11-3-1", "กรณีที่", "เมื่อ")
NEXT_YEAR = future()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("editions")
    eds = [
        ("op-0", "V0", "2025-02-12", OP),
        ("op-1", "V1", "2025-09-01", V1.text),
        ("op-2", "V2", NEXT_YEAR, V2.text),
    ]
    manifest = write_editions(tmp, eds)
    settings = Settings(data_dir=tmp / "var", manifest=manifest, model=FakeEmbedder.name)
    build_all(settings, embedder_factory=FakeEmbedder)  # a real generation, keyword encoder
    store = ClauseStore(settings.store_path)
    searcher = Searcher(store, settings.index_dir, FakeEmbedder(), FakeEmbedder.name)
    return settings, searcher


@pytest.fixture(scope="module")
def client(built):
    settings, searcher = built
    return TestClient(create_app(settings, searcher=searcher), follow_redirects=False)


def _top(client, q: str, **params: str) -> dict:
    body = client.get("/api/search", params={"q": q, "game": "one-piece", **params}).json()
    return body["results"][0]


@pytest.mark.parametrize(
    ("params", "doc", "word"),
    [
        ({"date": "2025-08-31"}, "op-0", "ตลอดเวลา"),  # the day before V1: the older wording
        ({"date": "2025-09-01"}, "op-1", "ทุกเมื่อ"),  # from V1's effective date: the newer
        ({}, "op-1", "ทุกเมื่อ"),  # today: V1 (V2 is not in force yet)
        ({"edition": "V0"}, "op-0", "ตลอดเวลา"),
    ],
)
def test_date_and_edition_choose_the_wording(client, params, doc, word):
    hit = _top(client, "1-2-3", **params)
    assert (hit["doc"], hit["clause_id"], hit["via"]) == (doc, "1-2-3", "lookup")
    assert word in hit["text"]


def test_every_hit_says_its_edition_and_whether_a_later_one_exists(client):
    hit = _top(client, "1-2-3")
    assert hit["document"]["version"] == "V1"
    assert hit["document"]["later_edition"] == {
        "doc": "op-2",
        "version": "V2",
        "effective_date": NEXT_YEAR,
    }
    assert hit["url"] == "/rules/one-piece/1-2-3"
    old = _top(client, "1-2-3", date="2025-03-01")
    assert old["url"] == "/rules/one-piece/1-2-3?edition=V0"
    assert old["document"]["later_edition"]["version"] == "V2"


def test_an_old_number_resolves_to_its_moved_clause(client):
    body = client.get("/api/search", params={"q": "11-3-3", "game": "one-piece"}).json()
    assert [(h["doc"], h["clause_id"]) for h in body["results"][:1]] == [("op-1", "11-3-2")]
    assert body["renumbered"] == [
        {
            "game": "one-piece",
            "old": {"doc": "op-0", "clause_id": "11-3-3", "version": "V0"},
            "now": {"doc": "op-1", "clause_id": "11-3-2", "version": "V1"},
            "removed_in": None,
        }
    ]
    detail = client.get("/api/clauses/one-piece/11-3-3").json()
    assert (detail["doc"], detail["clause_id"]) == ("op-1", "11-3-2")
    assert detail["renumbered_from"] == {
        "doc": "op-0",
        "version": "V0",
        "date": "2025-02-12",
        "clause_id": "11-3-3",
    }
    page = client.get("/rules/one-piece/11-3-3").text
    assert "Renumbered: this clause was §11-3-3 (V0)" in page


def test_a_pinned_permalink_and_a_clause_history(client):
    page = client.get("/rules/one-piece/1-2-3?edition=V0").text
    assert "ตลอดเวลา" in page and "Superseded edition: V0" in page
    assert (
        'In the edition in force this clause is <a href="/rules/one-piece/1-2-3">§1-2-3</a>' in page
    )
    detail = client.get("/api/clauses/one-piece/11-3-2").json()
    assert [(h["version"], h["clause_id"], h["status"], h["was"]) for h in detail["history"]] == [
        ("V0", "11-3-3", "first", None),
        ("V1", "11-3-2", "moved", "11-3-3"),
        ("V2", "11-3-2", "unchanged", "11-3-2"),
    ]
    removed = client.get("/api/clauses/one-piece/11-3-2?edition=V0").json()["history"]
    assert [(h["version"], h["status"]) for h in removed] == [("V0", "first"), ("V1", "removed")]
    changed = client.get("/api/clauses/one-piece/1-2-3").json()["history"][1]
    assert [s for s in changed["redline"] if s["op"] != "equal"] == [
        {"op": "delete", "text": "ตลอดเวลา"},
        {"op": "insert", "text": "ทุกเมื่อ"},
    ]


def test_what_changed_page_and_json(client):
    assert client.get("/api/diff/op", params={"from": "V0", "to": "V1"}).json() == {
        "from": "V0",
        "to": "V1",
        "added": [],
        "removed": ["11-3-2"],
        "changed": ["1-2-3"],
        "moved": [{"from": "11-3-3", "to": "11-3-2", "changed": False}],
    }
    html = client.get("/changes/op", params={"from": "V0", "to": "V1"}).text
    assert "<del>ตลอดเวลา</del><ins>ทุกเมื่อ</ins>" in html
    assert (
        '<a href="/rules/one-piece/11-3-3?edition=V0">§11-3-3</a> → '
        '<a href="/rules/one-piece/11-3-2">§11-3-2</a>'
    ) in html
    assert "<td>11 อื่นๆ</td><td>0</td><td>1</td><td>0</td><td>1</td>" in html
    editions = client.get("/api/editions").json()
    assert [(e["version"], e["in_force"]) for e in editions[0]["editions"]] == [
        ("V0", False),
        ("V1", True),
        ("V2", False),
    ]


def test_search_page_says_the_day_searched(client):
    html = client.get("/search", params={"q": "ยอมแพ้", "date": "2025-03-01"}).text
    assert "Rules in force on <strong>2025-03-01</strong>" in html


def test_cli_search_date_and_diff(built, monkeypatch):
    settings, _ = built
    monkeypatch.setenv("JUDGEKB_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("JUDGEKB_MANIFEST", str(settings.manifest))
    monkeypatch.setenv("JUDGEKB_MODEL", FakeEmbedder.name)
    get_settings.cache_clear()
    try:
        runner = CliRunner()
        args = ["search", "1-2-3", "--game", "one-piece", "--mode", "bm25", "--json"]
        old = runner.invoke(cli.app, [*args, "--date", "2025-03-01"])
        assert old.exit_code == 0, old.output
        assert json.loads(old.output)["results"][0]["doc"] == "op-0"
        diff = runner.invoke(cli.app, ["diff", "op", "--from", "V1", "--to", "V2", "--json"])
        assert json.loads(diff.output) == {
            "from": "V1",
            "to": "V2",
            "added": [],
            "removed": [],
            "changed": ["11-3-1"],
            "moved": [],
        }
    finally:
        get_settings.cache_clear()


def test_searcher_scope_date_is_checked():
    with pytest.raises(Exception, match="YYYY-MM-DD"):
        SearchRequest.of("x", date="2025/01/01")


def test_contents_list_the_edition_in_force_and_link_what_changed(client):
    html = client.get("/rules/one-piece").text
    assert html.count('<section class="doc">') == 1
    assert "op rules</strong> · V1" in html
    assert '<a href="/changes/op">What changed</a>' in html


def test_rulings_follow_their_clause_across_editions(built, tmp_path):
    """Rulings made under V0: one on 1-2-3 (reworded in V1) is flagged with V1's wording; one
    on 11-3-3 (renumbered 11-3-2 in V1) shows on today's 11-3-2 page; one on V0's 11-3-2
    (deleted in V1) is flagged gone and shows on no page of V1."""
    from sqlalchemy import update

    from judgekb.kb.base import open_kb
    from judgekb.kb.model import CLI_ACTOR, Draft, Source
    from judgekb.kb.schema import citations

    settings, searcher = built
    settings = settings.model_copy(update={"database_url": f"sqlite:///{tmp_path / 'kb.sqlite'}"})
    kb = open_kb(settings, ClauseStore(settings.store_path), check=False)
    old_store = ClauseStore(settings.store_path)
    made = {}
    names = {"1-2-3": "reworded", "11-3-3": "moved", "11-3-2": "deleted"}  # no number in words
    for cid, name in names.items():
        draft = Draft("one-piece", f"ruling {name}", "answer", ("1-2-1",), "th", Source("judge"))
        rid = kb.rulings.review(kb.rulings.submit(draft, CLI_ACTOR).id, "approve", CLI_ACTOR).id
        with kb.db.write() as conn:  # as cited when V0 was in force
            conn.execute(
                update(citations)
                .where(citations.c.ruling_id == rid)
                .values(doc_id="op-0", clause_id=cid, cited_text=old_store.get("op-0", cid).text)
            )
        made[cid] = rid
    flagged = kb.rulings.flag_stale(CLI_ACTOR)
    assert sorted(flagged) == sorted([made["1-2-3"], made["11-3-2"]])
    reworded = kb.rulings.get(made["1-2-3"]).cites[0]
    assert "ทุกเมื่อ" in reworded.current_text and "ตลอดเวลา" in reworded.cited_text
    assert kb.rulings.get(made["11-3-2"]).cites[0].current_text == ""  # gone in V1
    assert not kb.rulings.get(made["11-3-3"]).needs_review  # only renumbered
    # confirmed, the reworded ruling cites the edition in force (V1), no longer V0
    confirmed = kb.rulings.review(made["1-2-3"], "approve", CLI_ACTOR).cites[0]
    assert (confirmed.doc_id, confirmed.clause_id) != ("op-0", "1-2-3")
    assert confirmed.clause_id == "1-2-3" and confirmed.cited_text == reworded.current_text
    assert not kb.rulings.flag_stale(CLI_ACTOR)
    app = TestClient(create_app(settings, searcher=searcher), follow_redirects=False)
    page = app.get("/rules/one-piece/11-3-2").text  # V1's 11-3-2 is V0's 11-3-3
    assert "ruling moved" in page and "ruling deleted" not in page
    body = app.get("/api/search", params={"q": "11-3-2", "game": "one-piece"}).json()
    rulings = [r["question"] for r in body["results"] if r.get("kind") == "ruling"]
    assert "ruling moved" in rulings and "ruling deleted" not in rulings


def test_a_removed_clause_says_so_without_a_blank_current_number(client):
    page = client.get("/rules/one-piece/11-3-2", params={"edition": "V0"}).text
    banner = page[page.index('class="edition-banner"') :].split("</section>")[0]
    assert "The edition in force no longer prints this clause (V1" in banner
    assert "—" not in banner
