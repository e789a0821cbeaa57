"""How sure search is that its top hit is the governing clause: high, low or none.

Features of one search (the top hit's cosine to the query, its fused score and its margin over
the next, the share of the query's words any rulebook prints, how close the query comes to the
judges' questions of the top hit and of any clause searched) go through a logistic model
fitted on the dev questions and a set of off-topic and nonsense queries
(``scripts/calibrate_confidence.py`` writes ``judgekb/data/confidence.toml``):

- ``none``: nothing matches (no letters at all, no word of the query printed by a rulebook
  or known to the term tables, or the model's probability is very low, unless at least half
  the query's content words are game terms the tables map: "guard grade", "bila boleh
  intercept" are terse rules questions, shown as ``low``, never as "No clear match");
- ``high``: the model's probability that the top hit is right clears the threshold chosen
  for precision on dev;
- ``low``: anything in between (plausible candidates).

A clause number that exists where the judge looked is ``high``; one printed by several games
(no game chosen) is ``low``; one the chosen game does not print, with nothing else to search,
is ``none``.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

from judgekb.config import DATA_DIR
from judgekb.errors import ConfigError
from judgekb.index.request import Confidence

FEATURES = (
    "top_dense",
    "top_fused",
    "margin",
    "known_share",
    "n_words",
    "dense_margin",
    "agree",
    "top_question",
    "best_question",
)

# A query at least this much made of game terms is a rules question, however terse: never none
# (dev: off-topic rows it would move from none to low 0 of 85; real dev questions 2 of 6).
TERMS_NOT_NONE = 0.5


@dataclass(frozen=True)
class SearchSignals:
    """What one search saw of its own top hits."""

    top_dense: float  # cosine of the top hit to the query (0 when dense was not run)
    top_fused: float
    margin: float  # fused score of hit 1 minus hit 2
    known_share: float  # share of the query's content words a rulebook prints or the tables map
    n_words: int  # content words (function words of English, Thai and Malay left out)
    dense_margin: float = 0.0  # cosine of the dense top row minus the dense second row
    agree: float = 0.0  # 1 when the fused top hit is also BM25's and dense's own first
    top_question: float = 0.0  # cosine of the query to the top hit's closest judges' question
    best_question: float = 0.0  # the same, best over every clause searched
    term_share: float = 0.0  # share of the content words the term tables map (not a feature)

    def vector(self) -> list[float]:
        return [
            self.top_dense,
            self.top_fused,
            self.margin,
            self.known_share,
            math.log1p(self.n_words),
            self.dense_margin,
            self.agree,
            self.top_question,
            self.best_question,
        ]


@dataclass(frozen=True)
class ConfidenceModel:
    """Logistic weights over :data:`FEATURES` plus the two thresholds."""

    weights: tuple[float, ...]
    bias: float
    high: float  # probability at or above which the top hit is called right
    none_prob: float  # below this probability: nothing matches

    def probability(self, s: SearchSignals) -> float:
        z = self.bias + sum(w * x for w, x in zip(self.weights, s.vector(), strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def judge(self, s: SearchSignals) -> Confidence:
        if s.n_words == 0:
            return "none"
        if s.known_share == 0.0:
            return "none"  # no word of the query is printed by, or maps to, any rulebook
        p = self.probability(s)
        if p < self.none_prob:
            return "low" if s.term_share >= TERMS_NOT_NONE else "none"
        return "high" if p >= self.high else "low"


def load_confidence(path: Path = DATA_DIR / "confidence.toml") -> ConfidenceModel:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        model = data["model"]
        weights = tuple(float(model["weights"][f]) for f in FEATURES)
        return ConfidenceModel(
            weights,
            float(model["bias"]),
            float(model["high"]),
            float(model["none_prob"]),
        )
    except (OSError, KeyError, TypeError, ValueError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(
            f"{path}: confidence model unreadable ({exc}); rerun scripts/calibrate_confidence.py"
        ) from exc
