"""scripts/train_rerank.py on hand-made searches: the pairwise examples, the metrics, the fit."""

from __future__ import annotations

import numpy as np

from tests.scripts import load_script

train = load_script("train_rerank")


def _search(qid, x, gold, within=True):
    return train.Search(qid, within, np.array(x, np.float32), np.array(gold))


def test_pairs_are_gold_minus_other_and_back():
    s = _search("q1", [[0, 0, 0, 1], [0, 0, 0, 0], [-1, 0, 0, 0]], [True, False, False])
    x, y = train.pairs([s])
    assert y.tolist() == [1, 0, 1, 0]
    assert x.tolist() == [[0, 0, 0, 1], [0, 0, 0, -1], [1, 0, 0, 1], [-1, 0, 0, -1]]


def test_metrics_on_known_ranks():
    ranked = [np.array([True, False]), np.array([False, False, True]), np.zeros(12, bool)]
    r1, r5, mrr = train.metrics(ranked)
    assert (r1, r5) == (1 / 3, 2 / 3)
    assert mrr == (1 + 1 / 3) / 3


def test_fit_weighs_the_feature_that_separates_gold():
    rng = np.random.RandomState(0)
    searches = []
    for q in range(30):
        x = rng.normal(size=(5, 4)).astype(np.float32)
        x[0, 3] = x[:, 3].max() + 1.0  # the gold candidate always has the best text view
        searches.append(_search(f"q{q}", x, [True, False, False, False, False]))
    w = train.fit(searches, c=1.0)
    assert w[3] > 0 and w[3] == max(w, key=abs)
    cv = train.cross_validate(searches, c=1.0, folds=5, repeats=1)
    assert cv[True][0] == 1.0
