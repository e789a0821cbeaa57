"""The re-ranker: features relative to the best candidate, scores on the fused scale, the fused
top-N re-ordered and kept above the rows after it, the shipped model's file, the text view in
the built index, and the hook in search (fake encoder)."""

from __future__ import annotations

import numpy as np
import pytest

from judgekb.config import DATA_DIR
from judgekb.corpus.store import ClauseStore
from judgekb.errors import ConfigError
from judgekb.index.build import build_index
from judgekb.index.passages import own_text
from judgekb.index.request import SearchRequest
from judgekb.index.rerank import FEATURES, Reranker, features, load_reranker, rerank_top
from judgekb.index.search import Searcher
from tests.fakes import FakeEmbedder, tiny_corpus, write_tiny_store


def test_features_are_relative_to_the_best_candidate():
    x = features(
        np.array([0.9, 0.8, 0.5], np.float32),
        np.array([0.85, 0.87, 0.80], np.float32),
        np.array([4.0, 2.0, 0.0], np.float32),
        np.array([0.80, 0.90, 0.70], np.float32),
    )
    assert FEATURES == ("fused", "dense", "bm25", "text")
    np.testing.assert_allclose(
        x,
        [[0.0, -0.02, 1.0, -0.1], [-0.1, 0.0, 0.5, 0.0], [-0.4, -0.07, 0.0, -0.2]],
        atol=1e-6,
    )
    # No BM25 evidence at all: the column stays 0 instead of dividing by 0.
    assert features(*(np.zeros(2, np.float32),) * 4)[:, 2].tolist() == [0.0, 0.0]


def test_scores_are_on_the_fused_scale():
    model = Reranker((2.0, 0.0, 0.0, 1.0), top_n=3)
    x = np.array([[0.0, 0, 0, -0.4], [-0.1, 0, 0, 0.0]], np.float32)
    # model scores -0.4 and -0.2; over the fused weight 2: -0.1 (second is best) and 0.
    np.testing.assert_allclose(model.scores(x), [-0.1, 0.0], atol=1e-6)


def test_rerank_reorders_the_candidates_and_keeps_them_above_the_rest():
    model = Reranker((1.0, 0.0, 0.0, 10.0), top_n=2)
    fused = np.array([0.90, 0.85, 0.88, -np.inf], np.float32)
    dense = np.zeros(4, np.float32)
    bm25 = np.zeros(4, np.float32)
    rows = np.array([0, 2])  # the fused top 2, best first
    text = np.array([0.70, 0.80], np.float32)  # row 2's own text matches better
    out = model.rerank(fused, rows, dense, bm25, text)
    # Row 2: fused top 0.90 + 0 ; row 0: 0.90 + (0.02 - 1.0) / 1 = -0.08 -> clipped above row 1.
    assert out[2] == pytest.approx(0.90)
    assert out[1] == pytest.approx(0.85) and out[3] == -np.inf
    assert out[2] > out[0] > out[1]
    assert np.argsort(-out, kind="stable").tolist()[:3] == [2, 0, 1]


def test_a_single_candidate_is_left_alone():
    model = Reranker((1.0, 1.0, 1.0, 1.0))
    fused = np.array([0.5, -np.inf], np.float32)
    out = model.rerank(fused, np.array([0]), fused, fused, np.array([0.3], np.float32))
    assert out is fused


def test_the_shipped_model_loads(tmp_path):
    model = load_reranker(DATA_DIR / "rerank.toml")
    assert model is not None and len(model.weights) == len(FEATURES)
    assert model.weights[0] > 0 and model.top_n >= 2
    assert load_reranker(tmp_path / "absent.toml") is None
    bad = tmp_path / "bad.toml"
    bad.write_text("[model]\ntop_n = 20\n[model.weights]\nfused = 1.0\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="train_rerank"):
        load_reranker(bad)
    bad.write_text(
        "[model]\ntop_n = 20\n[model.weights]\nfused = 0\ndense = 1\nbm25 = 1\ntext = 1\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="'fused' weight"):
        load_reranker(bad)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rerank")
    write_tiny_store(tmp / "c.sqlite")
    store = ClauseStore(tmp / "c.sqlite")
    fake = FakeEmbedder()
    result = build_index(store, tmp / "index", tmp / "cache.sqlite", lambda: fake, fake.name)
    return tmp, store, fake, result


def test_the_build_embeds_each_clauses_own_text(built):
    tmp, store, fake, result = built
    _, clauses, _, _ = tiny_corpus()
    views = np.load(tmp / "index" / "text_view.npy")
    assert views.shape == (len(clauses), FakeEmbedder.dim)
    # Texts already embedded as passages (a section's title is its text) come from the cache.
    assert result.embedded == len(clauses)
    assert 0 < result.embedded_views < len(clauses)
    searcher = Searcher(store, tmp / "index", fake, fake.name)
    row = searcher.index.row[("ms-doc", "1.1")]
    expected = fake.encode_passages([own_text(searcher.index.clauses[row])])[0]
    np.testing.assert_allclose(searcher.index.text_view[row], expected)


def test_rerank_top_without_a_model_or_a_query_vector_keeps_fused(built):
    tmp, store, fake, _ = built
    index = Searcher(store, tmp / "index", fake, fake.name).index
    fused = np.arange(len(index), dtype=np.float32)
    assert rerank_top(None, index, fused, fused, fused, np.ones((1, fake.dim))) is fused
    assert rerank_top(Reranker((1, 0, 0, 0)), index, fused, fused, fused, None) is fused


def test_the_search_hook_orders_by_the_text_view(built):
    tmp, store, fake, _ = built
    searcher = Searcher(store, tmp / "index", fake, fake.name, reranker=Reranker((1e-3, 0, 0, 1)))
    index = searcher.index
    index.text_view = index.text_view.copy()
    a, b = index.row[("ms-doc", "1.2")], index.row[("ms-doc", "100.2")]
    query = fake.encode_queries(["kad"])[0]
    other = fake.encode_queries(["lose"])[0]
    request = SearchRequest.of("kad", game="vanguard", k=2)
    # Both passages print "kad": whichever own text is closer to the query comes first.
    index.text_view[a], index.text_view[b] = other, query
    assert searcher.search(request).hits[0].clause_id == "100.2"
    index.text_view[a], index.text_view[b] = query, other
    assert searcher.search(request).hits[0].clause_id == "1.2"
    # BM25-only search has no query vector: nothing to re-rank.
    bm = SearchRequest.of("kad", game="vanguard", k=2, mode="bm25")
    plain = Searcher(store, tmp / "index", fake, fake.name)
    assert [h.clause_id for h in searcher.search(bm).hits] == [
        h.clause_id for h in plain.search(bm).hits
    ]
