"""Which game a question is about when the judge chose none.

Evidence, all data, never hand-listed per question:
- the game's names (manifest ``[[game]] aliases``): "gundam: rest a unit …", "OP 6-5-5-1";
- words only one game's books print (ดอน!!, ลีดเดอร์, Rear-guard, Seal …): computed from the
  books at load time as the tokens that several clauses of one game print and no clause of
  another game does;
- how the question reads (:class:`GameModel`): a logistic regression over character n-grams,
  fitted at build on the books and the judges' questions, gives each game a probability. A
  search over all games adds it to each clause's fused score (a soft prior, never a filter:
  "can I look at my opponent's hand?" is in every game's book).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from judgekb.corpus.model import Clause
from judgekb.index.tokenize import tokenize

# A word is a game's own when at least this many of its clauses print it and no other game's do.
MIN_CLAUSES = 3
MIN_CHARS = 3  # shorter tokens ("ดอ", "ap") are fragments, not terms
# ... and when other games' judges do not use it either: a word one book prints that more
# than this share of the judges' questions using it ask about another game ("normal": 52 of
# 109, "boost": 8 of 85) tells no game apart; the game model, which reads it too, weighs it.
SHARED_SHARE = 0.05
ASKED_WORDS = "asked_words.json"


@dataclass(frozen=True)
class GameEvidence:
    """Why a question was scoped to a game."""

    game: str
    # "named" (the question names the game) | "document" (it names one of the game's documents)
    # | "terms" (words only its books print)
    reason: str
    words: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "reason": self.reason, "words": list(self.words)}


def _name_pattern(names: Iterable[str], case_sensitive: bool) -> str:
    parts = []
    for name in sorted(set(names), key=len, reverse=True):
        body = r"\s*".join(re.escape(w) for w in name.split())
        parts.append(rf"(?<![A-Za-z0-9]){body}(?![A-Za-z0-9])" if name.isascii() else body)
    if not parts:
        return r"(?!x)x"
    flags = "" if case_sensitive else "(?i:"
    return f"{flags}{'|'.join(parts)}{'' if case_sensitive else ')'}"


class GameNames:
    """Finds game names in a query (abbreviations such as OP only when written in capitals)."""

    def __init__(self, aliases: Mapping[str, Iterable[str]]) -> None:
        self.slug_of: dict[str, str] = {}
        abbrevs, names = [], []
        for slug, group in aliases.items():
            for name in (slug, *group):
                if name.isascii() and name.isupper() and len(name) <= 5:
                    abbrevs.append(name)
                    self.slug_of[name] = slug
                else:
                    names.append(name)
                    self.slug_of[name.casefold()] = slug
                    self.slug_of[" ".join(name.casefold().split())] = slug
        self.pattern = re.compile(f"{_name_pattern(abbrevs, True)}|{_name_pattern(names, False)}")
        # A game name right before a clause number makes the number a lookup ("OP 6-5").
        self.before_number = re.compile(f"(?:{self.pattern.pattern})$")

    def find(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        out = []
        for m in self.pattern.finditer(text):
            found = m.group(0)
            slug = self.slug_of.get(found) or self.slug_of.get(" ".join(found.casefold().split()))
            if slug:
                out.append((slug, m.span()))
        return out


def asked_words(texts: Iterable[str], games: Iterable[str]) -> dict[str, dict[str, int]]:
    """Word -> game -> how many judges' questions about that game use it (``judgekb build``
    counts them, for :class:`GameVocabulary`)."""
    out: dict[str, Counter[str]] = {}
    for text, game in zip(texts, games, strict=True):
        for w in {w for w in tokenize(text) if len(w) >= MIN_CHARS and not w.isdigit()}:
            out.setdefault(w, Counter())[game] += 1
    return {w: dict(c) for w, c in sorted(out.items())}


def write_asked_words(directory: Path, counts: Mapping[str, Mapping[str, int]]) -> None:
    (directory / ASKED_WORDS).write_text(json.dumps(counts, ensure_ascii=False), encoding="utf-8")


def read_asked_words(directory: Path) -> dict[str, dict[str, int]]:
    return json.loads((directory / ASKED_WORDS).read_text(encoding="utf-8"))


class GameVocabulary:
    """The words each game's books print and no other game's do (nor its judges use much:
    ``asked``, from :func:`asked_words`)."""

    def __init__(
        self,
        clauses: Iterable[Clause],
        game_of: Mapping[str, str],
        asked: Mapping[str, Mapping[str, int]] | None = None,
    ) -> None:
        per_game: dict[str, Counter[str]] = {}
        for c in clauses:
            words = {w for w in tokenize(c.text) if len(w) >= MIN_CHARS and not w.isdigit()}
            per_game.setdefault(game_of[c.doc_id], Counter()).update(words)
        self.own: dict[str, str] = {}
        for game, counts in per_game.items():
            for word, n in counts.items():
                if n >= MIN_CLAUSES and not any(
                    word in other for g, other in per_game.items() if g != game
                ):
                    self.own[word] = game
        for word, game in list(self.own.items()):
            uses = (asked or {}).get(word, {})
            others = sum(c for g, c in uses.items() if g != game)
            if others > SHARED_SHARE * (sum(uses.values()) + 1):
                del self.own[word]

    def evidence(self, tokens: Iterable[str]) -> dict[str, list[str]]:
        """Game -> the query's words that only its books print."""
        out: dict[str, list[str]] = {}
        for t in dict.fromkeys(tokens):
            game = self.own.get(t)
            if game:
                out.setdefault(game, []).append(t)
        return out


GAME_MODEL = "game_model.npz"
GAME_MODEL_VERSION = "3"  # bump when char_ngrams, the fit or asked_words changes
NGRAMS = (2, 4)
# How far the fit evens out the games within each language (see fit_game_model): dev (with
# d8, 120 questions asked in the other country's language or English) top hit's game 0.936
# -> 0.943 at 1.0 (0.941 at 0.5), all-games R@5 0.935 -> 0.939.
LANGUAGE_BALANCE = 1.0


def char_ngrams(text: str) -> list[str]:
    """The game model's features: lowercased character 2- to 4-grams inside each
    space-separated word, padded with a space at both ends (Thai runs count as one word)."""
    out: list[str] = []
    for word in text.lower().split():
        padded = f" {word} "
        for n in range(NGRAMS[0], min(NGRAMS[1], len(padded)) + 1):
            out += [padded[i : i + n] for i in range(len(padded) - n + 1)]
    return out


@dataclass(frozen=True)
class GameModel:
    """Multinomial logistic regression over TF-IDF character n-grams (sublinear tf, l2)."""

    games: tuple[str, ...]
    vocabulary: Mapping[str, int]
    idf: np.ndarray  # (n_features,)
    coef: np.ndarray  # (n_games, n_features)
    intercept: np.ndarray  # (n_games,)

    def probabilities(self, text: str) -> dict[str, float]:
        """Each game's probability that ``text`` is a question about it."""
        counts = Counter(i for g in char_ngrams(text) if (i := self.vocabulary.get(g)) is not None)
        z = self.intercept.astype(np.float64).copy()
        if counts:
            idx = np.fromiter(counts, dtype=np.int64)
            tf = 1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64))
            x = tf * self.idf[idx]
            z += self.coef[:, idx] @ (x / np.linalg.norm(x))
        p = np.exp(z - z.max())
        p /= p.sum()
        return dict(zip(self.games, (float(v) for v in p), strict=True))

    def save(self, directory: Path) -> None:
        vocab = sorted(self.vocabulary, key=self.vocabulary.__getitem__)
        np.savez(
            directory / GAME_MODEL,
            games=np.array(self.games),
            vocabulary=np.array(json.dumps(vocab, ensure_ascii=False)),
            idf=self.idf.astype(np.float32),
            coef=self.coef.astype(np.float32),
            intercept=self.intercept.astype(np.float32),
        )

    @classmethod
    def load(cls, directory: Path) -> GameModel:
        with np.load(directory / GAME_MODEL) as z:
            vocab = json.loads(str(z["vocabulary"]))
            return cls(
                tuple(str(g) for g in z["games"]),
                {g: i for i, g in enumerate(vocab)},
                z["idf"],
                z["coef"],
                z["intercept"],
            )


def language_weights(games: Sequence[str], langs: Sequence[str], balance: float) -> np.ndarray:
    """Per text, (the language's texts / games / the texts of its game in its language) **
    ``balance``, scaled to a mean of 1: each game the same weight within a language."""
    cells = Counter(zip(games, langs, strict=True))
    per_lang = Counter(langs)
    n_games = len(set(games))
    w = np.array(
        [
            (per_lang[lang] / n_games / cells[(g, lang)]) ** balance
            for g, lang in zip(games, langs, strict=True)
        ]
    )
    return w / w.mean()


def fit_game_model(
    texts: Sequence[str],
    games: Sequence[str],
    langs: Sequence[str] | None = None,
    c: float = 10.0,
    balance: float = LANGUAGE_BALANCE,
) -> GameModel:
    """Fit the model on texts labelled by game (the books' clauses and the judges'
    questions; ``judgekb build`` does it, in a few seconds).

    ``langs`` (each text's language) weighs the texts so that, within each language, every
    game carries the same weight (to the power ``balance``; 0 leaves them as they are): only
    Vanguard's book is Malay, so unweighted, reading as Malay is itself taken for Vanguard,
    and a Malaysian judge's One Piece question lands in the Vanguard book."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    labels = tuple(sorted(set(games)))
    if len(labels) < 2:  # one game (or none): nothing to tell apart
        empty = np.zeros((len(labels), 0))
        return GameModel(labels, {}, np.zeros(0), empty, np.zeros(len(labels)))
    # n-grams of at least two texts; a tiny corpus may have none, then every n-gram
    min_df = 2 if len(texts) > 2 * len(labels) else 1
    vec = TfidfVectorizer(analyzer=char_ngrams, sublinear_tf=True, min_df=min_df)
    x = vec.fit_transform(texts)
    weights = None if langs is None else language_weights(games, langs, balance)
    clf = LogisticRegression(C=c, solver="newton-cg", max_iter=300)
    clf.fit(x, list(games), sample_weight=weights)
    coef = clf.coef_
    if len(clf.classes_) == 2:  # sklearn keeps one row for two classes
        coef = np.vstack([-coef[0] / 2, coef[0] / 2])
        intercept = np.array([-clf.intercept_[0] / 2, clf.intercept_[0] / 2])
    else:
        intercept = clf.intercept_
    return GameModel(
        tuple(str(g) for g in clf.classes_),
        {str(k): int(v) for k, v in vec.vocabulary_.items()},
        np.asarray(vec.idf_, dtype=np.float64),
        np.asarray(coef, dtype=np.float64),
        np.asarray(intercept, dtype=np.float64),
    )
