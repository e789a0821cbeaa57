"""Which game a question is about when the judge chose none.

Two kinds of evidence, both data, never hand-listed per question:
- the game's names (manifest ``[[game]] aliases``): "gundam: rest a unit …", "OP 6-5-5-1";
- words only one game's books print (ดอน!!, ลีดเดอร์, Rear-guard, Seal …): computed from the
  books at load time as the tokens that several clauses of one game print and no clause of
  another game does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from judgekb.corpus.model import Clause
from judgekb.index.tokenize import tokenize

# A word is a game's own when at least this many of its clauses print it and no other game's do.
MIN_CLAUSES = 3
MIN_CHARS = 3  # shorter tokens ("ดอ", "ap") are fragments, not terms


@dataclass(frozen=True)
class GameEvidence:
    """Why a question was scoped to a game."""

    game: str
    # "named" (the question names the game) | "document" (it names one of the game's documents)
    # | "language" (only that game's books are in the question's language)
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


class GameVocabulary:
    """The words each game's books print and no other game's do."""

    def __init__(self, clauses: Iterable[Clause], game_of: Mapping[str, str]) -> None:
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

    def evidence(self, tokens: Iterable[str]) -> dict[str, list[str]]:
        """Game -> the query's words that only its books print."""
        out: dict[str, list[str]] = {}
        for t in dict.fromkeys(tokens):
            game = self.own.get(t)
            if game:
                out.setdefault(game, []).append(t)
        return out
