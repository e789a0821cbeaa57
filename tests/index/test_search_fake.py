"""Ranking, lookups, filters and index hygiene on a tiny store with the keyword encoder."""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import replace

import numpy as np
import pytest

from judgekb.corpus.store import ClauseStore
from judgekb.errors import (
    IndexMismatch,
    IndexNotBuilt,
    Overloaded,
    QueryError,
    QueryTooLong,
    UnknownGame,
)
from judgekb.index.build import build_index
from judgekb.index.fusion import Fusion
from judgekb.index.request import SearchRequest
from judgekb.index.search import Searcher
from judgekb.index.terms import Lexicon
from tests.fakes import FakeEmbedder, write_tiny_store


@pytest.fixture()
def env(tmp_path):
    store_path = tmp_path / "c.sqlite"
    write_tiny_store(store_path)
    store = ClauseStore(store_path)
    fake = FakeEmbedder()
    result = build_index(
        store, tmp_path / "index", tmp_path / "cache.sqlite", lambda: fake, "fake-onehot"
    )
    lex = Lexicon()
    lex.add("lose", "แพ้")
    lex.add("lose", "kalah")
    searcher = Searcher(store, tmp_path / "index", fake, "fake-onehot", lex)
    return {"tmp": tmp_path, "store": store, "fake": fake, "searcher": searcher, "result": result}


def ids(result):
    return [(h.doc_id, h.clause_id) for h in result.hits]


def test_build_embeds_every_clause_once_then_skips(env):
    assert env["result"].embedded == 10 and not env["result"].skipped
    again = build_index(
        env["store"], env["tmp"] / "index", env["tmp"] / "cache.sqlite", FakeEmbedder, "fake-onehot"
    )
    assert again.skipped and again.embedded == 0
    forced = build_index(
        env["store"],
        env["tmp"] / "index",
        env["tmp"] / "cache.sqlite",
        FakeEmbedder,
        "fake-onehot",
        force=True,
    )
    assert not forced.skipped and forced.embedded == 0  # all vectors come from the cache


@pytest.mark.parametrize("q", ["100.1", "100.1.", "ข้อ 100.1", "rule 100.1", "๑๐๐.๑"])
def test_clause_number_in_any_form_is_rank_one(env, q):
    res = env["searcher"].search(SearchRequest.of(q, game="summoner-master", k=3))
    assert ids(res)[0] == ("th-doc", "100.1")
    assert res.hits[0].via == "lookup"
    assert res.hits[0].url == "/rules/summoner-master/100.1"


def test_glossary_alias_is_rank_one_and_decree_url_names_its_document(env):
    res = env["searcher"].search(SearchRequest.of("ร่าย", game="summoner-master"))
    assert ids(res)[0] == ("th-doc", "glossary/cast")
    assert res.hits[0].via == "alias"
    res = env["searcher"].search(SearchRequest.of("100.1", doc="th-decree"))
    assert res.hits[0].url == "/rules/summoner-master/100.1?doc=th-decree"


@pytest.mark.parametrize("mode", ["hybrid", "bm25", "dense"])
def test_thai_question_finds_the_draw_rule(env, mode):
    res = env["searcher"].search(
        SearchRequest.of("ถ้าแพ้พร้อมกัน เสมอไหม", game="summoner-master", mode=mode)
    )
    assert ids(res)[0] in {("th-doc", "100.1"), ("th-decree", "100.1")}


def test_a_misspelt_word_is_found_by_its_character_grams(env):
    """'serentakk' is no word of the book (the word BM25 scores nothing), but shares most of
    its character 4-grams with 1.1's 'serentak'."""
    s = env["searcher"]
    plan = s.planner.plan(SearchRequest.of("serentakk", game="vanguard"))
    raw = s.scores(plan, "hybrid")
    assert not raw.bm25.any() and raw.chars is not None
    assert s.index.clauses[int(raw.chars.argmax())].clause_id == "1.1"
    assert s.scores(plan, "dense").chars is None  # only a hybrid search reads them
    # the fake encoder puts 1.2 a little closer than 1.1; the grams lift 1.1 above it
    order = ids(s.search(SearchRequest.of("serentakk", game="vanguard")))
    assert order.index(("ms-doc", "1.1")) < order.index(("ms-doc", "1.2"))
    plain = Searcher(
        env["store"], env["tmp"] / "index", env["fake"], "fake-onehot", fusion=Fusion(char_weight=0)
    )
    order = ids(plain.search(SearchRequest.of("serentakk", game="vanguard")))
    assert order.index(("ms-doc", "1.1")) > order.index(("ms-doc", "1.2"))


def test_a_section_named_in_a_sentence_comes_first_then_its_clauses_the_sentence_is_about(env):
    """'ข้อ 100 จั่วการ์ด' ("section 100: drawing a card"): 100 itself, then 100.2 (the draw)
    before 100.1. 'ข้อ 100 ร่าย' ("section 100: casting"): section 100's own clauses before
    the glossary's entry for casting, which the sentence alone would put first."""
    s = env["searcher"]
    order = ids(s.search(SearchRequest.of("ข้อ 100 จั่วการ์ด", game="summoner-master")))
    assert order[:2] == [("th-doc", "100"), ("th-doc", "100.2")]
    assert order.index(("th-doc", "100.2")) < order.index(("th-doc", "100.1"))
    order = ids(s.search(SearchRequest.of("ข้อ 100 ร่าย", game="summoner-master")))
    assert order[0] == ("th-doc", "100")
    assert set(order[1:3]) == {("th-doc", "100.1"), ("th-doc", "100.2")}
    assert ("th-doc", "glossary/cast") in order[3:]
    under = s._within(s.index.row[("th-doc", "100")], np.zeros(len(s.index), np.float32))
    assert sorted(s.index.clauses[i].clause_id for i in under) == ["100.1", "100.2"]


def test_english_question_is_expanded_into_malay(env):
    res = env["searcher"].search(SearchRequest.of("lose", game="vanguard", mode="bm25"))
    assert ids(res)[0] == ("ms-doc", "1.1")
    assert "kalah" in res.hits[0].matched


def test_hit_carries_citation_refs_and_amendments(env):
    hit = env["searcher"].search(SearchRequest.of("100.1", game="summoner-master")).hits[0]
    assert hit.citation == "Summoner-Master — summoner-master rules (v1, 2020-01-01) §100.1"
    assert [(r.doc, r.clause_id) for r in hit.refs_in] == [("th-doc", "100.2")]
    assert hit.amendments[0]["amend_doc"] == "th-decree"
    assert hit.heading_path == ("100 กฎทั่วไป",)
    js = hit.to_json()
    assert js["refs_in"] == [{"doc": "th-doc", "clause_id": "100.2", "written": "100.1"}]


def test_game_filter_and_unknown_game(env):
    res = env["searcher"].search(SearchRequest.of("kad", game="vanguard"))
    assert {h.game for h in res.hits} == {"vanguard"}
    with pytest.raises(UnknownGame, match="known games: summoner-master, vanguard"):
        env["searcher"].search(SearchRequest.of("kad", game="pokemon"))


@pytest.mark.parametrize(
    ("q", "exc", "msg"),
    [
        ("", QueryError, "empty"),
        ("   ", QueryError, "empty"),
        ("x" * 10_000_000, QueryTooLong, "limit is 1000"),
        ("ab\x00cd", QueryError, "binary"),
    ],
)
def test_bad_queries_are_rejected(env, q, exc, msg):
    with pytest.raises(exc, match=msg):
        env["searcher"].search(SearchRequest.of(q))


def test_missing_mismatched_and_corrupt_index_name_the_rebuild_command(env):
    tmp, store, fake = env["tmp"], env["store"], env["fake"]
    with pytest.raises(IndexNotBuilt, match="judgekb build"):
        Searcher(store, tmp / "nowhere", fake, "fake-onehot")
    with pytest.raises(IndexMismatch, match="model='fake-onehot' but 'other-model'"):
        Searcher(store, tmp / "index", fake, "other-model")
    broken = tmp / "broken"
    shutil.copytree(tmp / "index", broken)
    (broken / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(IndexMismatch, match="corrupt"):
        Searcher(store, broken, fake, "fake-onehot")
    shutil.rmtree(broken)
    shutil.copytree(tmp / "index", broken)
    shutil.rmtree(broken / "bm25")
    with pytest.raises(IndexMismatch, match="lacks bm25"):
        Searcher(store, broken, fake, "fake-onehot")
    manifest = json.loads((tmp / "index" / "manifest.json").read_text())
    manifest["corpus_hash"] = "0" * 64
    (broken / "manifest.json").write_text(json.dumps(manifest))


def test_build_leaves_no_temp_dirs(env):
    names = sorted(p.name for p in env["tmp"].iterdir())
    assert names == ["c.sqlite", "cache.sqlite", "index"]


def test_kind_doc_and_lang_filters(env):
    s = env["searcher"]
    assert {h.doc_id for h in s.search(SearchRequest.of("แพ้ เสมอ", doc_kind="amendment")).hits} == {
        "th-decree"
    }
    assert {h.doc_id for h in s.search(SearchRequest.of("แพ้ เสมอ", doc="th-doc")).hits} == {
        "th-doc"
    }
    assert {h.game for h in s.search(SearchRequest.of("kalah seri", lang="ms")).hits} == {
        "vanguard"
    }


def _plan(s, text, game, expansion=None):
    plan = s.planner.plan(SearchRequest.of(text, game=game))
    if expansion is not None:
        plan.expansion = expansion
    return plan


def test_only_cross_lingual_queries_show_the_encoder_their_expansion(env):
    s = env["searcher"]
    english, malay, thai = "when do both players lose", "bila pemain kalah serentak", "แพ้พร้อมกัน"
    sm, vg = "summoner-master", "vanguard"
    s.planner.lexicon.add("kalah", "แพ้")
    dense_text = s.planner.dense_text
    assert dense_text(_plan(s, english, sm), True) == "when do both players lose แพ้"
    assert dense_text(_plan(s, english, vg), True) == "when do both players lose kalah"
    assert dense_text(_plan(s, malay, vg), True) == "bila pemain kalah serentak"
    assert dense_text(_plan(s, malay, sm), True) == "bila pemain kalah serentak แพ้"
    assert dense_text(_plan(s, thai, sm, ["เสมอ"]), True) == "แพ้พร้อมกัน"
    assert dense_text(_plan(s, english, sm), False) == english


def test_the_encoder_sees_one_book_form_per_phrase_game_and_script(env):
    """Every synonym of every book made an English question over all games three to four
    times longer to encode (the p95 of a search); one form of each does the bridging."""
    s = env["searcher"]
    lex = s.planner.lexicon
    lex.add("lose", "ผู้เล่นที่แพ้")  # a second Thai form, printed by the decree
    lex.add("lose", "seri")  # a second Malay form, printed by the Malay book
    plan = _plan(s, "when do both players lose", None)
    assert set(plan.expansion) == {"แพ้", "kalah", "ผู้เล่นที่แพ้", "seri"}  # BM25 gets them all
    assert s.planner.dense_text(plan, True) == "when do both players lose แพ้ kalah"


def test_thai_questions_reach_the_encoder_in_the_book_wording(env):
    s = env["searcher"]
    s.planner.lexicon.add_thai("ตาย", "แพ้")  # an everyday word, and the tiny book's wording
    assert s.planner.dense_text(_plan(s, "ตายพร้อมกัน", "summoner-master"), True) == "แพ้พร้อมกัน"


def test_glossary_entries_yield_to_rules_in_free_text_but_not_in_term_lookups(env):
    import numpy as np

    from judgekb.index.search import Fusion

    s = env["searcher"]
    plan = _plan(s, "การร่ายการ์ด", "summoner-master")
    raw = s.scores(plan, "hybrid")
    penalised = s.rank(plan, raw)
    s.fusion = Fusion(glossary_penalty=0.0)
    plain = s.rank(plan, raw)
    row = s.index.row[("th-doc", "glossary/cast")]
    assert np.isclose(plain[row] - penalised[row], 0.1)
    other = s.index.row[("th-doc", "100.1")]
    assert np.isclose(plain[other], penalised[other])
    s.fusion = Fusion()
    # The term itself still goes straight to its glossary entry.
    hit = s.search(SearchRequest.of("Cast", game="summoner-master", k=1)).hits[0]
    assert (hit.clause_id, hit.via) == ("glossary/cast", "alias")


def test_a_lookup_word_orders_the_books_but_does_not_filter_them(env):
    s = env["searcher"]
    assert ids(s.search(SearchRequest.of("Bahagian 1", k=1))) == [("ms-doc", "1")]
    assert ids(s.search(SearchRequest.of("ข้อ 1.1", k=1))) == [
        ("ms-doc", "1.1")
    ]  # only the Malay book has it


def test_a_changed_encoder_backend_rebuilds_from_the_cache(env):
    tmp, store, fake = env["tmp"], env["store"], env["fake"]
    with pytest.raises(IndexMismatch, match="encoder=None but 'onnx'"):
        Searcher(store, tmp / "index", fake, "fake-onehot", encoder="onnx")
    args = (store, tmp / "index", tmp / "cache.sqlite", lambda: fake, "fake-onehot")
    rebuilt = build_index(*args, encoder="onnx")
    assert not rebuilt.skipped and rebuilt.embedded == 0  # same vectors: all from the cache
    assert build_index(*args, encoder="onnx").skipped
    Searcher(store, tmp / "index", fake, "fake-onehot", encoder="onnx")
    with pytest.raises(IndexMismatch, match="encoder='onnx' but 'torch'"):
        Searcher(store, tmp / "index", fake, "fake-onehot", encoder="torch")


def test_a_search_past_its_deadline_is_refused_before_any_work(env):
    late = SearchRequest.of("kad", game="vanguard")
    late = replace(late, deadline=time.monotonic() - 1)
    with pytest.raises(Overloaded, match="waited too long"):
        env["searcher"].search(late)
    assert env["searcher"].search(replace(late, deadline=time.monotonic() + 60)).hits


def test_a_query_past_the_encoder_length_says_so(env):
    short = env["searcher"].search(SearchRequest.of("kad kalah", game="vanguard"))
    assert not short.query_truncated and short.to_json()["query_truncated"] is False
    long = env["searcher"].search(SearchRequest.of("kad " * 240, game="vanguard"))
    assert long.query_truncated and long.to_json()["query_truncated"] is True
    assert long.notes == (
        "the query is longer than the encoder's 512 tokens: only its start was read",
    )
