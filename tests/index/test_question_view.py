"""The question view: per clause the closest judges' question, built with the index (encoded
as queries, through the embedding cache), following a clause's stable key into other editions,
and weighed by fusion on the real Searcher with the one-hot fake encoder."""

from __future__ import annotations

import numpy as np
import pytest

from judgekb.corpus.questions import Question
from judgekb.corpus.store import ClauseStore, write_store
from judgekb.index.build import build_index
from judgekb.index.fusion import Fusion
from judgekb.index.question_view import QuestionView, question_pairs, write_question_view
from judgekb.index.request import SearchRequest
from judgekb.index.search import Searcher
from tests.fakes import FakeEmbedder, tiny_corpus

ASKED = [
    Question("ms-doc", "1.2", "chat", "kad seri ke?", 1),  # the tiny book's 1.2: "tarik satu kad"
    Question("ms-doc", "1.2", "en", "do I draw?", 2),
    Question("ms-doc", "9.9", "en", "a clause no book prints", 3),
]


def test_scores_are_the_closest_question_of_each_row(tmp_path):
    vectors = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]], np.float32)
    pairs = np.array([[0, 1], [1, 1], [2, 3], [0, 3]], np.int32)  # sorted by row
    write_question_view(tmp_path, vectors, pairs)
    view = QuestionView(tmp_path, n_rows=5)
    assert len(view) == 3
    np.testing.assert_allclose(
        view.closest_and_mean(np.array([[0.0, 1.0]]))[0], [0, 0.8, 0, 1.0, 0]
    )
    np.testing.assert_allclose(
        view.closest_and_mean(np.array([[1.0, 0.0]]))[0], [0, 1.0, 0, 1.0, 0]
    )
    assert view.has_questions.tolist() == [False, True, False, True, False]
    # a search of rows 2-4 scores only the questions of those rows
    mask = np.array([False, False, True, False, True])
    np.testing.assert_allclose(
        view.closest_and_mean(np.array([[1.0, 0.0]]), mask)[0], [0, 0, 0, 1.0, 0]
    )
    np.testing.assert_allclose(
        view.closest_and_mean(np.array([[1.0, 0.0]]), ~np.ones(5, bool))[0], [0] * 5
    )
    # beside the closest, the mean over each row's questions (row 1: 0.0 and 0.8; row 3: 1.0, 0.0)
    closest, mean = view.closest_and_mean(np.array([[0.0, 1.0]]))
    np.testing.assert_allclose(closest, [0, 0.8, 0, 1.0, 0])
    np.testing.assert_allclose(mean, [0, 0.4, 0, 0.5, 0])
    closest, mean = view.closest_and_mean(np.array([[1.0, 0.0]]), mask)
    np.testing.assert_allclose(closest, [0, 0, 0, 1.0, 0])
    np.testing.assert_allclose(mean, [0, 0, 0, 0.5, 0])


def test_a_clause_several_of_whose_questions_come_close_outranks_a_single_lucky_match():
    """Row 0's best question is a shade closer than row 1's, but row 1's questions all come
    close: with the mean's share row 1 leads; without it (share 0) row 0 does."""
    from judgekb.index.fusion import fuse

    zeros = np.zeros(3, np.float32)
    mask = np.ones(3, bool)
    closest = np.array([0.90, 0.88, 0.2], np.float32)
    mean = np.array([0.40, 0.85, 0.2], np.float32)
    fusion = Fusion(glossary_penalty=0.0)
    assert fusion.question_mean_share > 0
    blended = fuse(zeros, zeros, mask, fusion, False, zeros, closest, question_mean=mean)
    assert int(np.argmax(blended)) == 1
    off = Fusion(glossary_penalty=0.0, question_mean_share=0.0)
    assert (
        int(np.argmax(fuse(zeros, zeros, mask, off, False, zeros, closest, question_mean=mean)))
        == 0
    )
    assert int(np.argmax(fuse(zeros, zeros, mask, fusion, False, zeros, closest))) == 0


def test_an_index_without_questions_scores_zero(tmp_path):
    write_question_view(tmp_path, np.zeros((0, 2), np.float32), np.zeros((0, 2), np.int32))
    view = QuestionView(tmp_path, n_rows=3)
    assert len(view) == 0 and view.closest_and_mean(np.ones((1, 2)))[0].tolist() == [0, 0, 0]
    assert view.lexical_scores("boleh guard").tolist() == [0, 0, 0]


def test_a_rows_lexical_score_is_its_best_questions(tmp_path):
    """Question 0 (row 1 and row 3) and question 2 (row 3) share the judge's words, question 1
    (row 1) does not: row 3 scores its better question, row 1 question 0, rows 0/2/4 nothing;
    a misspelt word ("guardd") still meets its grams."""
    texts = ["boleh guard dengan grade 3", "bila drive check", "guard grade 3 boleh tak"]
    vectors = np.eye(3, dtype=np.float32)
    pairs = np.array([[0, 1], [1, 1], [0, 3], [2, 3]], np.int32)
    write_question_view(tmp_path, vectors, pairs, texts)
    view = QuestionView(tmp_path, n_rows=5)
    scores = view.lexical_scores("boleh tak guardd grade 3")
    assert scores[[0, 2, 4]].tolist() == [0, 0, 0]
    assert scores[3] > scores[1] > 0
    assert view.lexical_scores("zzzz").tolist() == [0] * 5


def test_pairs_follow_the_stable_key_and_skip_unknown_clauses():
    row = {("ms-doc", "1.2"): 4, ("th-doc", "100.1"): 0}
    pairs = question_pairs(ASKED, row, {4: [4, 7]})
    assert pairs.tolist() == [[0, 4], [1, 4], [0, 7], [1, 7]]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("qview")
    docs, clauses, refs, amends = tiny_corpus()
    write_store(tmp / "c.sqlite", docs, clauses, refs, amends, questions=ASKED[:2])
    store = ClauseStore(tmp / "c.sqlite")
    fake = FakeEmbedder()
    result = build_index(store, tmp / "index", tmp / "cache.sqlite", lambda: fake, fake.name)
    assert result.embedded_questions == 2
    again = build_index(
        store, tmp / "index2", tmp / "cache.sqlite", lambda: fake, fake.name, force=True
    )
    assert again.embedded_questions == 0  # from the cache, apart from passages of the same text
    return Searcher(store, tmp / "index", fake, fake.name)


def test_the_build_encodes_the_questions_as_queries(searcher):
    view = searcher.index.questions
    fake = FakeEmbedder()
    np.testing.assert_allclose(view.vectors, fake.encode_queries([q.text for q in ASKED[:2]]))
    assert len(view) == 2
    assert searcher.manifest["n_questions"] == 2
    row = searcher.index.row[("ms-doc", "1.2")]
    assert view.has_questions.nonzero()[0].tolist() == [row]


def test_a_clause_whose_judges_question_matches_comes_first(searcher):
    # "seri" is printed by 1.1; only a judges' question of 1.2 asks about it.
    # Every rule clause of the real books has judges' questions (scripts/check_questions.py);
    # here only 1.2 has, and the others' text would stand in for theirs (the next test).
    request = SearchRequest.of("seri", game="vanguard", k=3)
    unasked, searcher.index.unasked = searcher.index.unasked, None
    try:
        searcher.fusion = Fusion(question_weight=0.0)
        plain = [h.clause_id for h in searcher.search(request).hits]
        searcher.fusion = Fusion(question_weight=3.0)
        asked = [h.clause_id for h in searcher.search(request).hits]
    finally:
        searcher.fusion = Fusion()
        searcher.index.unasked = unasked
    assert plain[0] == "1.1"
    assert asked[0] == "1.2"
    result = searcher.search(request)
    assert result.signals is not None
    assert result.signals.best_question == pytest.approx(float(np.sqrt(1.01) / np.sqrt(2.01)))


def test_char_ngrams_pad_each_word():
    from judgekb.index.games import char_ngrams

    assert char_ngrams("Ab cd") == [
        *(" a", "ab", "b ", " ab", "ab ", " ab "),
        *(" c", "cd", "d ", " cd", "cd ", " cd "),
    ]
    assert char_ngrams("x") == [" x", "x ", " x "]
    assert char_ngrams("") == []


def test_the_game_model_reads_a_games_words_and_survives_a_round_trip(tmp_path):
    from judgekb.index.games import GameModel, fit_game_model

    texts = ["ride the vanguard", "rear-guard call", "drive check vanguard"] * 3
    texts += ["ดอน!! ลีดเดอร์", "ไลฟ์ ลีดเดอร์ โจมตี", "ดอน!! คาแรกเตอร์"] * 3
    games = ["vanguard"] * 9 + ["one-piece"] * 9
    model = fit_game_model(texts, games)
    p = model.probabilities("can my rear-guard ride?")
    assert set(p) == {"one-piece", "vanguard"} and abs(sum(p.values()) - 1) < 1e-9
    assert p["vanguard"] > 0.6
    assert model.probabilities("ลีดเดอร์ ติด ดอน!!")["one-piece"] > 0.6
    model.save(tmp_path)
    again = GameModel.load(tmp_path)
    assert again.probabilities("can my rear-guard ride?") == pytest.approx(p, abs=1e-6)
    # nothing it knows: the intercepts alone (here two equal classes, so a coin toss)
    assert again.probabilities("zzz")["vanguard"] == pytest.approx(0.5, abs=0.05)


def test_fusion_adds_the_game_prior_for_a_search_over_several_games():
    from judgekb.index.fusion import fuse

    zeros = np.zeros(3, np.float32)
    mask = np.ones(3, bool)
    prior = np.array([0.1, 0.7, 0.2], np.float32)
    fused = fuse(zeros, zeros, mask, Fusion(game_prior_weight=2.0), False, zeros, None, prior)
    np.testing.assert_allclose(fused, [0.2, 1.4, 0.4])
    assert fuse(zeros, zeros, mask, Fusion(), False, zeros).tolist() == [0, 0, 0]


def test_the_rule_clauses_nobody_has_asked_about_are_known(searcher):
    idx = searcher.index
    expected = ~idx.questions.has_questions & (idx.doc_kind_of_row != "amendment")
    assert idx.unasked is not None and idx.unasked.tolist() == expected.tolist()
    assert not idx.unasked[idx.row[("ms-doc", "1.2")]]


def test_a_clause_nobody_has_asked_about_is_weighed_by_its_text_not_sunk():
    """A clause new in an edition has no judges' questions yet: with 0 for its question view
    it fell below every clause that has some; its passage's dense score stands in."""
    from judgekb.index.fusion import fuse

    zeros = np.zeros(3, np.float32)
    mask = np.ones(3, bool)
    dense = np.array([0.9, 0.5, 0.1], np.float32)  # row 0 fits the query best...
    questions = np.array([0.0, 0.8, 0.3], np.float32)  # ... but nobody asked about it
    fusion = Fusion(dense_weight=0.5, glossary_penalty=0.0)
    before = fuse(dense, zeros, mask, fusion, False, zeros, questions)
    assert int(np.argmax(before)) == 1
    unasked = np.array([True, False, False])
    after = fuse(dense, zeros, mask, fusion, False, zeros, questions, unasked=unasked)
    assert int(np.argmax(after)) == 0
    np.testing.assert_allclose(after[1:], before[1:])  # rows with questions unchanged


def test_the_first_hit_over_several_games_weighs_the_game_prior_more():
    """Rows 0-1 are game A (prior 0.3), rows 2-3 game B (prior 0.7). With the list's weight
    (1.2) game A's row 0 leads; with the first hit's weight (1.8) game B's best
    row (2, not 3) comes first. No prior (one game) or nothing in scope: no lead."""
    from judgekb.index.fusion import lead_first, lead_row

    fusion = Fusion(game_prior_weight=1.2, lead_prior_weight=1.8)
    prior = np.array([0.3, 0.3, 0.7, 0.7], np.float32)
    fused = np.array([1.0, 0.5, 0.4, 0.2], np.float32) + fusion.game_prior_weight * prior
    assert int(np.argmax(fused)) == 0  # the list: game A's clause first by 0.12
    assert lead_row(fused, prior, fusion) == 2
    assert lead_row(fused, None, fusion) is None
    assert lead_row(fused, prior, Fusion(game_prior_weight=1.2, lead_prior_weight=1.2)) is None
    assert lead_row(np.full(4, -np.inf, np.float32), prior, fusion) is None
    assert lead_first([0, 2, 1], fused, prior, fusion) == [2, 0, 1]  # moved
    assert lead_first([0, 1], fused, prior, fusion) == [2, 0, 1]  # added
    assert lead_first([0, 1], fused, None, fusion) == [0, 1]


def test_the_game_model_does_not_take_a_language_for_a_game():
    """Vanguard's book is Malay: most Malay texts are Vanguard's, so unweighted, a Malay
    question about One Piece's Leader reads as Vanguard; weighed by language, the word
    "leader" decides."""
    from judgekb.index.games import fit_game_model, language_weights

    texts = ["unit vanguard saya boleh serang", "kad dalam tangan saya", "giliran lawan"] * 6
    texts += ["leader saya kena serang", "ลีดเดอร์ โดนโจมตี", "ไลฟ์ ลีดเดอร์"] * 2
    games = ["vanguard"] * 18 + ["one-piece"] * 6
    langs = ["ms"] * 18 + ["ms", "th", "th"] * 2
    weights = language_weights(games, langs, 1.0)
    assert weights.mean() == pytest.approx(1.0)
    ms_vg, ms_op = weights[0], weights[18]
    assert ms_op * 2 == pytest.approx(ms_vg * 18)  # one game's Malay weighs the other's
    question = "leader boleh serang lawan"
    plain = fit_game_model(texts, games).probabilities(question)
    even = fit_game_model(texts, games, langs).probabilities(question)
    assert plain["vanguard"] > 0.5 > even["vanguard"]
    assert fit_game_model(texts, games, langs, balance=0).probabilities(question) == (
        pytest.approx(plain)
    )


def test_a_corpus_of_one_game_has_nothing_to_tell_apart(tmp_path):
    from judgekb.index.games import GameModel, fit_game_model

    model = fit_game_model(["ดอน!! ลีดเดอร์", "ไลฟ์"], ["one-piece", "one-piece"])
    assert model.probabilities("anything") == {"one-piece": 1.0}
    model.save(tmp_path)
    assert GameModel.load(tmp_path).probabilities("") == {"one-piece": 1.0}


def test_a_word_other_games_judges_use_is_no_games_own(tmp_path):
    """ "boost" is printed by three Vanguard clauses only, but judges of One Piece say it too:
    it scopes nothing (the game model weighs it); "rear-guard", which only Vanguard's judges
    use, still does. The counts survive the index directory."""
    from judgekb.corpus.model import Clause
    from judgekb.index.games import (
        GameVocabulary,
        asked_words,
        read_asked_words,
        write_asked_words,
    )

    def clause(doc, n, text):
        return Clause(doc, str(n), None, "clause", "", text, text, "en", 1, n)

    clauses = [clause("vg", i, "boost the rear-guard") for i in range(3)]
    clauses += [clause("op", i, "don leader attack") for i in range(3)]
    game_of = {"vg": "vanguard", "op": "one-piece"}
    assert GameVocabulary(clauses, game_of).evidence(["boost", "rear-guard"]) == {
        "vanguard": ["boost", "rear-guard"]
    }
    questions = ["can I boost my rear-guard?"] * 10 + ["does a power boost stay?"] * 2
    games = ["vanguard"] * 10 + ["one-piece"] * 2
    counts = asked_words(questions, games)
    assert counts["boost"] == {"vanguard": 10, "one-piece": 2}
    write_asked_words(tmp_path, counts)
    vocab = GameVocabulary(clauses, game_of, read_asked_words(tmp_path))
    assert vocab.evidence(["boost", "rear-guard", "leader"]) == {
        "vanguard": ["rear-guard"],
        "one-piece": ["leader"],
    }


def test_the_character_grams_are_normalised_within_each_game_over_several():
    """Over several games each game's best character-gram score counts 1: a Latin-script
    question shares more letters with the Malay book than with the Thai ones."""
    from judgekb.index.fusion import fuse, normalise_within

    zeros = np.zeros(4, np.float32)
    mask = np.ones(4, bool)
    chars = np.array([8.0, 2.0, 1.0, 0.5], np.float32)
    games = np.array([0, 0, 1, 1])
    np.testing.assert_allclose(normalise_within(chars, mask, games, 50), [1, 0, 1, 0])
    np.testing.assert_allclose(
        normalise_within(chars, mask, None, 50), [1, 0.2, 0.0667, 0], atol=1e-3
    )
    fusion = Fusion(char_weight=0.5)
    fused = fuse(zeros, zeros, mask, fusion, False, zeros, None, None, chars, games)
    np.testing.assert_allclose(fused, [0.5, 0, 0.5, 0])
    assert (
        fuse(zeros, zeros, mask, Fusion(char_weight=0.0), False, zeros, None, None, chars).tolist()
        == [0] * 4
    )
