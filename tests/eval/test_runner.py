"""run_eval on a 5-question hand-made dataset with a fake search, and the text report."""

from __future__ import annotations

import itertools
import math

import pytest

from judgekb.errors import QueryError
from judgekb.eval import runner
from judgekb.eval.report import render_report, save_chart
from judgekb.eval.runner import Outcome, run_eval

QUESTIONS = [
    {"qid": "q1", "game": "summoner-master", "lang": "th", "kind": "paraphrase",
     "question": "one", "gold": ["A"], "note": ""},
    {"qid": "q2", "game": "summoner-master", "lang": "en", "kind": "english",
     "question": "two", "gold": ["X"], "note": "", "doc": "sm-2014"},
    {"qid": "q3", "game": "gundam", "lang": "th", "kind": "keyword",
     "question": "three", "gold": ["P", "Q"], "note": ""},
    {"qid": "q4", "game": "vanguard", "lang": "ms", "kind": "lookup",
     "question": "four", "gold": ["13"], "note": ""},
    {"qid": "q5", "game": "one-piece", "lang": "th", "kind": "crossref",
     "question": "five", "gold": ["R"], "note": ""},
]  # fmt: skip

GAME_OF = {"sm-2014": "summoner-master", "sm-decree-2009": "summoner-master",
           "gundam-cr": "gundam", "vg-cr": "vanguard", "op-cr": "one-piece"}  # fmt: skip


def _ranked(pairs: list[tuple[str, str]]) -> Outcome:
    return Outcome(tuple((GAME_OF[d], d, c) for d, c in pairs))


RANKINGS = {
    "one": [("sm-2014", "A"), ("sm-2014", "B"), ("sm-2014", "C")],  # rank 1
    # the decree's X does not count (question names sm-2014): rank 3
    "two": [("sm-decree-2009", "X"), ("sm-2014", "Y"), ("sm-2014", "X")],
    "three": [("gundam-cr", "Z"), ("gundam-cr", "P"), ("gundam-cr", "Q")],  # rank 2, both golds
    "four": [("vg-cr", c) for c in ("1", "2", "3", "4", "5", "13", "14")],  # rank 6
    "five": [],  # not found
}

NDCG_Q3 = (1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
NDCG_Q4 = 1 / math.log2(7)


class FakeSearch:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None, int, str]] = []

    def __call__(self, question: str, game: str | None, k: int, mode: str) -> Outcome:
        self.calls.append((question, game, k, mode))
        return _ranked(RANKINGS[question])


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """perf_counter pairs (start, end) giving latencies 10, 20, 30, 40, 50 ms, repeating."""
    ticks = itertools.cycle([0.0, 0.010, 1.0, 1.020, 2.0, 2.030, 3.0, 3.040, 4.0, 4.050])
    monkeypatch.setattr(runner.time, "perf_counter", lambda: next(ticks))


def test_overall_metrics_exact(fake_clock: None) -> None:
    search = FakeSearch()
    result = run_eval(QUESTIONS, search, modes=("hybrid",), k=10)
    overall = result["modes"]["hybrid"]["overall"]
    assert overall["n"] == 5
    assert overall["recall@1"] == 0.2
    assert overall["recall@5"] == 0.6
    assert overall["recall@10"] == 0.8
    assert overall["mrr@10"] == pytest.approx(0.4, abs=1e-12)
    assert overall["ndcg@10"] == pytest.approx((1 + 0.5 + NDCG_Q3 + NDCG_Q4) / 5, abs=1e-12)
    assert round(overall["ndcg@10"], 6) == 0.509927
    # the search is asked within each question's game with k
    assert search.calls[0] == ("one", "summoner-master", 10, "hybrid")
    # then once more over all games (no filter), the page's default
    assert [c[1] for c in search.calls] == [q["game"] for q in QUESTIONS] + [None] * 5


def test_breakdowns_exact(fake_clock: None) -> None:
    summary = run_eval(QUESTIONS, FakeSearch())["modes"]["hybrid"]
    sm = summary["by_game"]["summoner-master"]
    assert (sm["n"], sm["recall@1"], sm["recall@5"]) == (2, 0.5, 1.0)
    assert sm["mrr@10"] == pytest.approx(2 / 3, abs=1e-12)
    assert summary["by_game"]["one-piece"]["recall@10"] == 0.0
    assert sorted(summary["by_game"]) == ["gundam", "one-piece", "summoner-master", "vanguard"]
    th = summary["by_lang"]["th"]
    assert th["n"] == 3
    assert th["recall@1"] == pytest.approx(1 / 3, abs=1e-12)
    assert th["recall@10"] == pytest.approx(2 / 3, abs=1e-12)
    assert th["mrr@10"] == pytest.approx(0.5, abs=1e-12)
    assert summary["by_lang"]["ms"]["recall@5"] == 0.0
    assert summary["by_lang"]["ms"]["recall@10"] == 1.0
    assert summary["by_kind"]["keyword"]["ndcg@10"] == pytest.approx(NDCG_Q3, abs=1e-12)
    assert sorted(summary["by_kind"]) == ["crossref", "english", "keyword", "lookup", "paraphrase"]


def test_latency_and_misses_shape(fake_clock: None) -> None:
    result = run_eval(QUESTIONS, FakeSearch(), modes=("bm25", "hybrid"))
    assert set(result) == {"modes", "latency_ms", "misses"}
    assert result["modes"]["bm25"]["latency_ms"] == {
        "p50": pytest.approx(30.0),
        "p95": pytest.approx(48.0),
    }
    assert result["latency_ms"]["p50"] == pytest.approx(30.0)
    misses = result["misses"]
    assert [(m["mode"], m["qid"], m["rank"]) for m in misses] == [
        ("bm25", "q2", 3), ("bm25", "q3", 2), ("bm25", "q4", 6), ("bm25", "q5", None),
        ("hybrid", "q2", 3), ("hybrid", "q3", 2), ("hybrid", "q4", 6), ("hybrid", "q5", None),
    ]  # fmt: skip
    assert misses[0] == {
        "mode": "bm25",
        "qid": "q2",
        "question": "two",
        "gold": ["X"],
        "got": ["X", "Y", "X"],
        "rank": 3,
    }
    assert misses[3]["got"] == []


def test_k_truncates_and_query_errors_score_zero() -> None:
    def search(question: str, game: str | None, k: int, mode: str) -> Outcome:
        if question == "one":
            raise QueryError("empty query")
        return _ranked(RANKINGS[question])

    overall = run_eval(QUESTIONS, search, k=5)["modes"]["hybrid"]["overall"]
    # q1 now fails, q4's hit at rank 6 is cut by k=5: only q2 and q3 hit
    assert overall["recall@10"] == 0.4
    assert overall["recall@1"] == 0.0
    with pytest.raises(ValueError, match="k must be >= 1"):
        run_eval(QUESTIONS, search, k=0)


def test_duplicate_gold_hits_count_once() -> None:
    question = dict(QUESTIONS[0], gold=["A"])

    def search(question: str, game: str | None, k: int, mode: str) -> Outcome:
        return _ranked([("sm-2014", "A"), ("sm-decree-2009", "A")])

    overall = run_eval([question], search)["modes"]["hybrid"]["overall"]
    assert overall["ndcg@10"] == 1.0


def test_render_report(fake_clock: None) -> None:
    text = render_report(run_eval(QUESTIONS, FakeSearch(), modes=("hybrid",)))
    assert "mode: hybrid" in text
    assert "latency p50 30.0 ms, p95 48.0 ms" in text
    overall_row = next(line for line in text.splitlines() if "overall" in line)
    cells = [cell for cell in overall_row.replace("│", " ").split()]
    assert cells == ["overall", "0.200", "0.600", "0.800", "0.400", "0.510", "5"]
    assert "game=vanguard" in text and "kind=lookup" in text and "lang=ms" in text
    assert "misses (gold not at rank 1)" in text
    assert text.index("q5") < text.index("q3")  # not-found misses listed first


def test_save_chart_without_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name: str, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    result = run_eval(QUESTIONS, FakeSearch())
    assert save_chart(result, tmp_path / "chart.png") is None


CASE_QUESTIONS = [
    {"qid": "m1", "game": "vanguard", "lang": "en", "kind": "multi", "question": "m1",
     "gold": ["1", "2"], "gold_all": True, "note": ""},
    {"qid": "m2", "game": "vanguard", "lang": "en", "kind": "multi", "question": "m2",
     "gold": ["1", "9"], "gold_all": True, "note": ""},
    {"qid": "a1", "game": None, "lang": "en", "kind": "ambiguous", "question": "a1", "gold": [],
     "ambiguous": [{"game": "gundam", "clause_id": "7"}, {"game": "one-piece", "clause_id": "7"}],
     "note": ""},
    {"qid": "e1", "game": "gundam", "lang": "en", "kind": "elsewhere", "question": "e1",
     "gold": [], "elsewhere": [{"game": "summoner-master", "clause_id": "602"}], "note": ""},
    {"qid": "o1", "game": None, "lang": "en", "kind": "offtopic", "question": "o1", "gold": [],
     "expect_confidence": "none", "note": ""},
    {"qid": "o2", "game": None, "lang": "en", "kind": "offtopic", "question": "o2", "gold": [],
     "expect_confidence": "none", "note": ""},
    {"qid": "n1", "game": None, "gold_game": "gundam", "lang": "th", "kind": "nogame",
     "question": "n1", "gold": ["5"], "note": ""},
]  # fmt: skip

CASE_OUTCOMES = {
    "m1": Outcome((("vanguard", "vg-cr", "2"), ("vanguard", "vg-cr", "1")), "high"),
    "m2": Outcome((("vanguard", "vg-cr", "1"),) + (("vanguard", "vg-cr", "x"),) * 5
                  + (("vanguard", "vg-cr", "9"),), "high"),
    "a1": Outcome((("gundam", "gundam-cr", "7"), ("one-piece", "op-cr", "7")), "low",
                  ("gundam", "one-piece")),
    "e1": Outcome((), "none", (), (("summoner-master", "602"),)),
    "o1": Outcome((("gundam", "gundam-cr", "1"),), "none"),
    "o2": Outcome((("gundam", "gundam-cr", "1"),), "high"),
    # the same clause id in the wrong game does not count
    "n1": Outcome((("one-piece", "op-cr", "5"), ("gundam", "gundam-cr", "5")), "low"),
}  # fmt: skip


def test_issue_11_cases_exact() -> None:
    def search(question: str, game: str | None, k: int, mode: str) -> Outcome:
        return CASE_OUTCOMES[question]

    summary = run_eval(CASE_QUESTIONS, search)["modes"]["hybrid"]
    cases = summary["cases"]
    assert cases["multi_hr@5"] == {"n": 2, "rate": 0.5}
    assert cases["ambiguous"] == {"n": 1, "rate": 1.0}
    assert cases["elsewhere"] == {"n": 1, "rate": 1.0}
    assert cases["offtopic"] == {"n": 2, "high": 1, "none": 1}
    assert cases["nogame_top_game_right"] == {"n": 1, "rate": 0.0}
    conf = cases["confidence"]
    # m1 (top gold, high), m2 (top gold, high), n1 (top wrong game, low)
    assert (conf["n"], conf["high"], conf["low"], conf["none"]) == (3, 2, 1, 0)
    assert conf["high_precision"] == 1.0
    assert conf["high_coverage"] == pytest.approx(2 / 3)
    assert conf["top1_right"] == pytest.approx(2 / 3)
    # only rows with gold are ranked: n1 at rank 2 (the one-piece 5 does not count)
    assert summary["overall"]["n"] == 3
    assert summary["by_game"]["gundam"]["mrr@10"] == 0.5
    assert summary["all_games"]["top_game_right"] == pytest.approx(2 / 3)
    text = render_report({"modes": {"hybrid": summary}, "latency_ms": {}, "misses": []})
    assert "Multi-HR@5" in text and "all games, no filter" in text
