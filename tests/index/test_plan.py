"""The search boundary on a tiny store with the keyword encoder: clause numbers in sentences,
shared numbers, numbers in another game, games named or implied, current before superseded,
an honest confidence, and requests that are refused."""

from __future__ import annotations

import pytest

from judgekb.config import Settings
from judgekb.corpus.store import ClauseStore
from judgekb.errors import QueryError
from judgekb.index.build import build_index
from judgekb.index.request import Scope, SearchRequest
from judgekb.index.search import Searcher
from judgekb.index.terms import Lexicon
from tests.fakes import FakeEmbedder, write_tiny_store

ALIASES = {"summoner-master": ("Summoner Master", "SM"), "vanguard": ("Vanguard", "VG")}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("plan")
    write_tiny_store(tmp / "c.sqlite")
    store = ClauseStore(tmp / "c.sqlite")
    build_index(store, tmp / "index", tmp / "cache.sqlite", FakeEmbedder, FakeEmbedder.name)
    lex = Lexicon()
    lex.add("lose", "แพ้")
    lex.add("lose", "kalah")
    return Searcher(
        store, tmp / "index", FakeEmbedder(), FakeEmbedder.name, lex, game_aliases=ALIASES
    )


def keys(result, n=None):
    return [(h.doc_id, h.clause_id, h.via) for h in result.hits[:n]]


@pytest.mark.parametrize(
    "text",
    ["what does rule 1.2 say?", "peraturan 1.2 tentang apa", "ข้อ 1.2 ว่าไว้ยังไง", "VG 1.2"],
)
def test_a_clause_number_in_a_sentence_comes_first_then_what_it_cites(searcher, text):
    result = searcher.search(SearchRequest.of(text))
    assert keys(result, 2) == [("ms-doc", "1.2", "lookup"), ("ms-doc", "1.1", "ref")]
    assert result.confidence == "high"


def test_a_number_printed_by_two_games_lists_each_game_first_and_says_so(searcher):
    result = searcher.search(SearchRequest.of("100.2"))
    assert keys(result, 2) == [("th-doc", "100.2", "lookup"), ("ms-doc", "100.2", "lookup")]
    assert result.ambiguous_games == ("summoner-master", "vanguard")
    assert result.confidence == "low"
    assert result.to_json()["ambiguous_games"] == ["summoner-master", "vanguard"]


def test_a_shared_number_asked_about_lists_the_game_the_sentence_fits_first(searcher):
    """Each game's clause still comes first, in the order of how well the rest of the
    sentence fits it: "rule 100.2, kad dalam dek boleh dilihat?" is about Vanguard's (bare,
    Summoner Master's comes first: see above)."""
    result = searcher.search(SearchRequest.of("rule 100.2, kad dalam dek boleh dilihat?"))
    assert keys(result, 2) == [("ms-doc", "100.2", "lookup"), ("th-doc", "100.2", "lookup")]
    assert set(result.ambiguous_games) == {"summoner-master", "vanguard"}
    result = searcher.search(SearchRequest.of("rule 100.2 ผู้เล่นจั่วการ์ดกี่ใบ"))
    assert keys(result, 2) == [("th-doc", "100.2", "lookup"), ("ms-doc", "100.2", "lookup")]


def test_a_game_named_in_the_query_picks_among_shared_numbers(searcher):
    result = searcher.search(SearchRequest.of("VG 100.2"))
    assert keys(result, 1) == [("ms-doc", "100.2", "lookup")]
    assert result.ambiguous_games == ()
    assert result.inferred is not None and result.inferred.reason == "named"


def test_a_number_not_in_the_chosen_game_says_where_it_is(searcher):
    result = searcher.search(SearchRequest.of("ข้อ 1.1", game="summoner-master"))
    assert result.hits == ()
    assert [e.to_json() for e in result.elsewhere] == [
        {"game": "vanguard", "clause_id": "1.1", "doc": "ms-doc"}
    ]
    assert result.confidence == "none"


def test_other_separator_in_the_chosen_game(searcher):
    result = searcher.search(SearchRequest.of("100-2", game="summoner-master"))
    assert keys(result, 1) == [("th-doc", "100.2", "lookup")]


def test_a_sentence_number_that_is_not_a_clause_number_is_searched(searcher):
    result = searcher.search(SearchRequest.of("จั่ว 1-2 ใบ", game="summoner-master"))
    assert all(h.via == "search" for h in result.hits)


def test_the_game_named_in_a_question_scopes_an_all_games_search(searcher):
    result = searcher.search(SearchRequest.of("Summoner Master: lose"))
    assert result.inferred is not None
    assert (result.inferred.game, result.inferred.reason) == ("summoner-master", "named")
    assert {h.game for h in result.hits} == {"summoner-master"}
    assert result.to_json()["inferred_game"]["game"] == "summoner-master"


def test_a_malay_question_reaches_the_malay_book_by_its_words_not_its_language(searcher):
    result = searcher.search(SearchRequest.of("pemain kalah serentak permainan seri"))
    assert result.inferred is None or result.inferred.reason != "language"
    assert result.hits[0].game == "vanguard"


def test_an_amendment_never_outranks_the_current_clause(searcher):
    """The decree's wording is folded into the current clause that replaced it."""
    result = searcher.search(SearchRequest.of("แก้ไข: ผู้เล่นที่แพ้พร้อมกัน เสมอ", game="summoner-master"))
    order = [(h.doc_id, h.clause_id) for h in result.hits]
    assert order[0] == ("th-doc", "100.1")
    assert ("th-decree", "100.1") not in order
    older = [(a["amend_doc"], a["amend_id"]) for a in result.hits[0].amendments]
    assert older == [("th-decree", "100.1")]


def test_a_search_of_the_amendment_itself_keeps_its_clauses(searcher):
    request = SearchRequest.of("ผู้เล่นที่แพ้พร้อมกัน เสมอ", doc_kind="amendment")
    assert [(h.doc_id, h.clause_id) for h in searcher.search(request).hits][:1] == [
        ("th-decree", "100.1")
    ]


@pytest.mark.parametrize("text", ["asdkjh qwe zzz", "😀😀", "!!! ???"])
def test_nonsense_is_never_high(searcher, text):
    assert searcher.search(SearchRequest.of(text)).confidence == "none"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "k must be"),
        ({"mode": "fast"}, "unknown mode 'fast'; choose one of hybrid, bm25, dense"),
        ({"clause_kind": "rules"}, "unknown clause kind 'rules'"),
        ({"doc_kind": "clause"}, "unknown document kind 'clause'"),
    ],
)
def test_bad_requests_are_refused_with_the_choices(kwargs, message):
    with pytest.raises(QueryError, match=message):
        SearchRequest.of("x", **kwargs)


@pytest.mark.parametrize("text", ["\u200b\u200b", "abc\u202edef", ""])
def test_invisible_and_direction_control_queries_are_refused(searcher, text):
    with pytest.raises(QueryError):
        searcher.search(SearchRequest(text))


def test_scope_treats_empty_strings_as_no_restriction():
    assert Scope(game="", doc="") == Scope()


def test_settings_name_choices_as_literals(monkeypatch):
    from pydantic import ValidationError

    monkeypatch.setenv("JUDGEKB_FAISS_INDEX", "HNSW")
    with pytest.raises(ValidationError):
        Settings()


def test_a_game_name_its_own_books_print_is_searched_inside_a_sentence(tmp_path):
    write_tiny_store(tmp_path / "c.sqlite")
    store = ClauseStore(tmp_path / "c.sqlite")
    build_index(store, tmp_path / "index", tmp_path / "cache.sqlite", FakeEmbedder, "fake-onehot")
    # "Permainan" stands in for "Vanguard": a game's name that its own book prints as a word.
    aliases = {"vanguard": ("Vanguard", "Permainan"), "summoner-master": ("Summoner Master",)}
    s = Searcher(store, tmp_path / "index", FakeEmbedder(), "fake-onehot", game_aliases=aliases)
    plan = s.planner.plan
    assert plan(SearchRequest.of("bila permainan seri")).search_text == "bila permainan seri"
    # At the start it only names the game; a name the book does not print is a label anywhere.
    assert plan(SearchRequest.of("Permainan: bila seri")).search_text == "bila seri"
    assert plan(SearchRequest.of("bila Vanguard seri")).search_text == "bila seri"
    assert plan(SearchRequest.of("bila permainan seri")).game == "vanguard"
    # After "in" and before the end of a clause it names the game too, "in" and all; before
    # more words it is still the game's term.
    assert plan(SearchRequest.of("bila seri dalam permainan?")).search_text == "bila seri?"
    assert plan(SearchRequest.of("In Permainan, bila seri")).search_text == "bila seri"
    assert plan(SearchRequest.of("seri dalam permainan ini")).search_text == (
        "seri dalam permainan ini"
    )
    # At the start too when someone owns it ("Vanguard saya hilang …": my vanguard).
    assert plan(SearchRequest.of("Permainan saya seri")).search_text.lower().startswith("permainan")
    assert plan(SearchRequest.of("Permainan saya seri")).game == "vanguard"
