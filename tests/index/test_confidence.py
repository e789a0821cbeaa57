"""The confidence model's decisions on given signals (the shipped weights, no engine)."""

from __future__ import annotations

from dataclasses import replace

from judgekb.index.confidence import SearchSignals, load_confidence

# A terse query whose model probability is below the none threshold
WEAK = SearchSignals(0.80, 0.9, 0.01, 1.0, 2, 0.001, 0.0, 0.80, 0.80)


def test_a_weak_search_is_none_unless_it_is_made_of_game_terms() -> None:
    model = load_confidence()
    assert model.probability(WEAK) < model.none_prob
    assert model.judge(WEAK) == "none"
    assert model.judge(replace(WEAK, term_share=0.5)) == "low"  # "guard grade"
    assert model.judge(replace(WEAK, term_share=0.4)) == "none"


def test_no_known_word_is_none_whatever_the_terms() -> None:
    model = load_confidence()
    assert model.judge(replace(WEAK, known_share=0.0, term_share=1.0)) == "none"
    assert model.judge(replace(WEAK, n_words=0)) == "none"
