"""The query plan: what a request means before anything is scored.

Clause numbers anywhere in the text become lookups (one per game when a number is printed by
several games and none was chosen; ``elsewhere`` when the chosen game does not print it);
a game named in the question, the question's language or words only one game's books print
scope a search that named no game; the rest of the sentence is what gets searched, with the
rulebook terms it expands to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from judgekb.index.games import GameEvidence, GameNames, GameVocabulary
from judgekb.index.language import LanguageGuesser
from judgekb.index.query import IdMention, ParsedQuery, parse_query
from judgekb.index.request import SearchRequest
from judgekb.index.terms import BookText, Lexicon
from judgekb.index.tokenize import tokenize

if TYPE_CHECKING:
    from judgekb.index.loaded import LoadedIndex


@dataclass(frozen=True)
class Elsewhere:
    """A clause number the chosen game does not print, but another game does."""

    game: str
    clause_id: str
    doc: str

    def to_json(self) -> dict[str, str]:
        return {"game": self.game, "clause_id": self.clause_id, "doc": self.doc}


@dataclass
class QueryPlan:
    """Everything search needs to score and order one request."""

    request: SearchRequest
    pq: ParsedQuery
    mask: np.ndarray  # rows searched
    game: str | None  # the chosen or inferred game
    inferred: GameEvidence | None = None
    lookups: list[tuple[int, str]] = field(default_factory=list)  # (row, "lookup" | "alias")
    ambiguous_games: tuple[str, ...] = ()
    elsewhere: tuple[Elsewhere, ...] = ()
    search_text: str = ""  # what BM25 and the encoder see (the sentence without numbers)
    bare: bool = False  # the query was only clause numbers (and game names)
    expansion: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)  # BM25 tokens (query + expansion)
    lang: str = "none"  # th | ms | en | none
    query_truncated: bool = False  # the encoder read only the first 512 tokens


class Planner:
    """Turns a :class:`SearchRequest` into a :class:`QueryPlan` over a loaded index."""

    def __init__(
        self,
        index: LoadedIndex,
        lexicon: Lexicon,
        names: GameNames,
        max_query_chars: int,
    ) -> None:
        self.index = index
        self.lexicon = lexicon
        self.names = names
        self.max_query_chars = max_query_chars
        game_of = {d: doc.game for d, doc in index.docs.items()}
        self.book_text = BookText(index.clauses, game_of)
        self.vocabulary = GameVocabulary(index.clauses, game_of)
        self.languages = LanguageGuesser(index.clauses)
        self.aliases = self._alias_rows()
        self.game_langs = {
            g: {d.lang for d in index.docs.values() if d.game == g} for g in index.games
        }

    def _alias_rows(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, c in enumerate(self.index.clauses):
            names = list(c.aliases) + ([c.title] if c.kind == "glossary" else [])
            for name in names:
                out.setdefault(name.strip().lower(), []).append(i)
        return out

    # the plan ---------------------------------------------------------------------------
    def plan(self, request: SearchRequest) -> QueryPlan:
        pq = parse_query(request.text, self.max_query_chars, self.names.before_number)
        scope = request.scope
        base = self.index.mask(scope.with_game(None)) if scope.game is None else None
        mask = self.index.mask(scope)
        named = self.names.find(pq.text)
        rest = _drop_spans(pq.rest, [s for _, s in self.names.find(pq.rest)])
        # A bare number ("602.1.4", "OP 6-5-5-1") fills its page with look-alikes of the number
        # itself, below the clause it names; a sentence searches its own words.
        bare = bool(pq.mentions) and not any(ch.isalpha() for ch in rest)
        text = pq.text if bare or not rest else rest
        plan = QueryPlan(request, pq, mask, scope.game, search_text=text, bare=bare)
        plan.lang = self.languages.query_lang(plan.search_text, pq.lang)
        if scope.game is None and scope.doc is None:
            assert base is not None
            plan.inferred = self._infer_game(plan, named, base)
            if plan.inferred is not None:
                plan.game = plan.inferred.game
                plan.mask = base & (self.index.game_of_row == plan.game)
        self._resolve_lookups(plan, [g for g, _ in named])
        plan.expansion = self.expansion(plan.search_text, pq.lang, plan.game)
        plan.terms = tokenize(plan.search_text) + [t for e in plan.expansion for t in tokenize(e)]
        return plan

    def _infer_game(
        self, plan: QueryPlan, named: list[tuple[str, tuple[int, int]]], base: np.ndarray
    ) -> GameEvidence | None:
        games = list(dict.fromkeys(g for g, _ in named))
        if len(games) == 1:
            return GameEvidence(games[0], "named", tuple(plan.pq.text[a:b] for _, (a, b) in named))
        if plan.pq.mentions and not games:
            return None  # a bare number with no game: every game that prints it is listed
        # Only the books in the question's language can answer a Malay or Thai question.
        if plan.lang in ("ms", "th"):
            same = [g for g, langs in self.game_langs.items() if plan.lang in langs]
            if len(same) == 1:
                return GameEvidence(same[0], "language", (plan.lang,))
        evidence = self.vocabulary.evidence(tokenize(plan.search_text))
        if plan.lang == "th":
            evidence = {g: w for g, w in evidence.items() if "th" in self.game_langs[g]}
        if len(evidence) == 1:
            ((game, words),) = evidence.items()
            return GameEvidence(game, "terms", tuple(words))
        return None

    def _resolve_lookups(self, plan: QueryPlan, named: list[str]) -> None:
        idx = self.index
        seen: set[int] = set()
        elsewhere: list[Elsewhere] = []
        ambiguous: list[str] = []
        for mention in plan.pq.mentions:
            found = self._mention_rows(mention)
            if plan.game is not None:
                inside = [r for r in found if plan.mask[r]]
                if inside:
                    plan.lookups += [(r, "lookup") for r in inside if r not in seen]
                    seen.update(inside)
                else:
                    elsewhere += self._elsewhere(found, plan.game)
                continue
            by_game: dict[str, int] = {}
            for r in found:
                if plan.mask[r]:
                    by_game.setdefault(str(idx.game_of_row[r]), r)
            if named:
                by_game = {g: r for g, r in by_game.items() if g in named} or by_game
            if len(by_game) > 1:
                ambiguous += [g for g in by_game if g not in ambiguous]
            plan.lookups += [(r, "lookup") for r in by_game.values() if r not in seen]
            seen.update(by_game.values())
        text = plan.pq.text.strip().lower()
        if not plan.pq.mentions and text.startswith("glossary/"):
            plan.lookups += [
                (i, "lookup")
                for i, c in enumerate(idx.clauses)
                if c.clause_id == text and plan.mask[i]
            ]
        for i in self.aliases.get(text, []):
            if plan.mask[i] and all(r != i for r, _ in plan.lookups):
                plan.lookups.append((i, "alias"))
        plan.ambiguous_games = tuple(ambiguous)
        plan.elsewhere = tuple(elsewhere)

    def _mention_rows(self, mention: IdMention) -> list[int]:
        """Rows printing the number, rulebooks before amendments, the clause word's language
        ("Bahagian", "ข้อ") first; only amendments when the words say "decree"."""
        docs = sorted(
            self.index.docs.values(),
            key=lambda d: (mention.lang is not None and d.lang != mention.lang, d.kind != "rules"),
        )
        if mention.amendment:
            docs = [d for d in docs if d.kind == "amendment"]
        rows: list[int] = []
        for cid in mention.ids:  # the printed form first, then the other separator
            for d in docs:
                i = self.index.row.get((d.doc_id, cid))
                if i is not None and i not in rows:
                    rows.append(i)
        return rows

    def _elsewhere(self, rows: list[int], game: str) -> list[Elsewhere]:
        out: dict[str, Elsewhere] = {}
        for r in rows:
            g = str(self.index.game_of_row[r])
            if g != game:
                c = self.index.clauses[r]
                out.setdefault(g, Elsewhere(g, c.clause_id, c.doc_id))
        return list(out.values())

    # terms ------------------------------------------------------------------------------
    def expansion(self, text: str, script: str, game: str | None) -> list[str]:
        """Rulebook terms added to the query: English/Malay lexicon or Thai synonyms, kept
        only where the searched game's books print them."""
        if script == "latin":
            forms = self.lexicon.expand(text, game)
        else:
            forms = self.lexicon.expand_thai(text, game)
        return [f for f in forms if self.book_text.occurs(f, game)]

    def dense_text(self, plan: QueryPlan, expand: bool) -> str:
        """What the encoder sees. A cross-lingual query (English about a Thai book …) gets
        the book's own terms appended; a Thai one has its everyday phrases rewritten in the
        book's wording ("ตาแรก" -> "เทิร์นแรก"); any other query stays as typed."""
        text = plan.search_text
        if not expand or not plan.expansion:
            return text
        book_langs = {str(x) for x in np.unique(self.index.lang_of_row[plan.mask])}
        if plan.lang not in ("none", *book_langs):
            return text + " " + " ".join(plan.expansion)
        if plan.pq.lang == "th":
            return self.lexicon.rewrite_thai(
                text, plan.game, lambda form: self.book_text.occurs(form, plan.game)
            )
        return text


def _drop_spans(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return " ".join(text.split()).strip(" :,-")
