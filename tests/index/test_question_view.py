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
    np.testing.assert_allclose(view.scores(np.array([[0.0, 1.0]])), [0, 0.8, 0, 1.0, 0])
    np.testing.assert_allclose(view.scores(np.array([[1.0, 0.0]])), [0, 1.0, 0, 1.0, 0])
    assert view.has_questions.tolist() == [False, True, False, True, False]


def test_an_index_without_questions_scores_zero(tmp_path):
    write_question_view(tmp_path, np.zeros((0, 2), np.float32), np.zeros((0, 2), np.int32))
    view = QuestionView(tmp_path, n_rows=3)
    assert len(view) == 0 and view.scores(np.ones((1, 2))).tolist() == [0, 0, 0]


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
    assert searcher.manifest["n_questions"] == 2
    row = searcher.index.row[("ms-doc", "1.2")]
    assert view.has_questions.nonzero()[0].tolist() == [row]


def test_a_clause_whose_judges_question_matches_comes_first(searcher):
    # "seri" is printed by 1.1; only a judges' question of 1.2 asks about it.
    request = SearchRequest.of("seri", game="vanguard", k=3)
    searcher.fusion = Fusion(question_weight=0.0)
    plain = [h.clause_id for h in searcher.search(request).hits]
    searcher.fusion = Fusion(question_weight=3.0)
    asked = [h.clause_id for h in searcher.search(request).hits]
    searcher.fusion = Fusion()
    assert plain[0] == "1.1"
    assert asked[0] == "1.2"
    result = searcher.search(request)
    assert result.signals is not None
    assert result.signals.best_question == pytest.approx(float(np.sqrt(1.01) / np.sqrt(2.01)))
