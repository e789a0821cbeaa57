"""The query plan: what a request means before anything is scored.

Clause numbers anywhere in the text become lookups (one per game when a number is printed by
several games and none was chosen; ``elsewhere`` when the chosen game does not print it);
a game named in the question or words only one game's books print scope a search that named
no game (its language does not: judges of both countries run every game); the rest of the
sentence is what gets searched, with the rulebook terms it expands to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from judgekb.index.games import GameEvidence, GameNames, GameVocabulary
from judgekb.index.language import LanguageGuesser, any_function_word, content_words
from judgekb.index.query import IdMention, ParsedQuery, parse_query
from judgekb.index.renumber import Renumbered, renumbered_rows
from judgekb.index.request import SearchRequest
from judgekb.index.terms import BookText, Lexicon
from judgekb.index.tokenize import tokenize

if TYPE_CHECKING:
    from judgekb.index.loaded import LoadedIndex

# Words only one game prints scope a search to it unless the game model (index/games.py) gives
# that game less than this probability (chosen on dev: 3 of 4 such scopes were wrong).
MIN_TERMS_PROB = 0.1
# Below this probability for its likeliest game a question's game is unclear: its top hit is
# never called "high" and the page asks which game (dev, all-games searches with no game
# evidence: the top hit's game was right for 67 % of those below, 92.5 % of those above).
GAME_SURE = 0.8
# "in" right before a game's name, and the end of a clause right after it: the name says which
# game the question is about ("how many copies can I run in Vanguard?"), not its term.
_IN_GAME = re.compile(r"(?:(?<![A-Za-z])(?:in|dalam|di)|ใน|ของเกม|เกม)$", re.IGNORECASE)
_OWNED = re.compile(r"\s+(?:saya|aku|awak|kau|dia|anda|kita|kami|lawan|musuh)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"\s*(?:$|[?.!,;:)]|ครับ|คะ|ค่ะ|นะ|ไหม|มั้ย)")


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
    doc: str | None = None  # a document the question names ("the 2009 decree"): searched alone
    lookups: list[tuple[int, str]] = field(default_factory=list)  # (row, "lookup" | "alias")
    ambiguous_games: tuple[str, ...] = ()
    elsewhere: tuple[Elsewhere, ...] = ()
    # games the question names besides the one the judge chose ("… starting hand vanguard"
    # with Gundam chosen): the filter stands, the page says so and offers the named game
    other_games_named: tuple[str, ...] = ()
    search_text: str = ""  # what BM25 and the encoder see (the sentence without numbers)
    bare: bool = False  # the query was only clause numbers (and game names)
    expansion: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)  # BM25 tokens (query + expansion)
    lang: str = "none"  # th | ms | en | none
    renumbered: list[Renumbered] = field(default_factory=list)  # old numbers (issue 13)
    query_truncated: bool = False  # the encoder read only the first 512 tokens
    # over several games: each game's probability as the question reads (index/games.py)
    game_probs: dict[str, float] | None = None
    # ... and each row's probability of its game, when the plan spans several games
    game_prior: np.ndarray | None = None

    @property
    def game_unsure(self) -> bool:
        """A search over several games whose question reads like no one game in particular
        ("can I look at my opponent's hand?" is in every book)."""
        probs = self.game_probs
        return probs is not None and max(probs.values(), default=1.0) < GAME_SURE


class Planner:
    """Turns a :class:`SearchRequest` into a :class:`QueryPlan` over a loaded index."""

    def __init__(
        self,
        index: LoadedIndex,
        lexicon: Lexicon,
        names: GameNames,
        max_query_chars: int,
        doc_names: GameNames | None = None,
    ) -> None:
        self.index = index
        self.lexicon = lexicon
        self.names = names
        self.doc_names = doc_names or GameNames({})
        self.max_query_chars = max_query_chars
        game_of = {d: doc.game for d, doc in index.docs.items()}
        self.book_text = BookText(index.clauses, game_of)
        self.vocabulary = GameVocabulary(index.clauses, game_of, index.asked_words)
        self.languages = LanguageGuesser(index.clauses)
        self.aliases = self._alias_rows()

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
        docs_named = self.doc_names.find(pq.rest)
        labels = [
            _with_in(pq.rest, s)
            for g, s in self.names.find(pq.rest)
            if not self._names_a_term(g, pq.rest, s)
        ]
        rest = _drop_spans(pq.rest, labels + [s for _, s in docs_named])
        # A bare number ("602.1.4", "OP 6-5-5-1") fills its page with look-alikes of the number
        # itself, below the clause it names; a sentence searches its own words.
        # ... and so does a number asked about in words that carry no subject ("ข้อ 602.1.4
        # ว่าไว้ยังไง", "peraturan 10.5.1.2 tentang apa"): they would search grammar.
        bare = bool(pq.mentions) and not content_words(rest)
        text = pq.text if bare or not rest else rest
        if pq.lang == "latin" and not bare:
            text = self._standard_malay(text)
        plan = QueryPlan(request, pq, mask, scope.game, search_text=text, bare=bare)
        if scope.game is not None:
            plan.other_games_named = tuple(dict.fromkeys(g for g, _ in named if g != scope.game))
        plan.lang = self.languages.query_lang(plan.search_text, pq.lang)
        self._scope_to_document(plan, docs_named)
        if scope.game is None and scope.doc is None and plan.doc is None:
            assert base is not None
            plan.inferred = self._infer_game(plan, named, base)
            if plan.inferred is not None:
                plan.game = plan.inferred.game
                plan.mask = base & (self.index.game_of_row == plan.game)
                plan.game_probs = None  # one game searched: nothing to weigh
            elif not plan.pq.mentions:
                self._game_probs(plan)
        self._resolve_lookups(plan, [g for g, _ in named])
        plan.expansion = self.expansion(plan.search_text, pq.lang, plan.game)
        plan.terms = tokenize(plan.search_text) + [t for e in plan.expansion for t in tokenize(e)]
        plan.game_prior = self.index.game_prior(plan.game_probs, plan.mask)
        return plan

    def _names_a_term(self, game: str, text: str, span: tuple[int, int]) -> bool:
        """A game's name inside a sentence that its own books print is the game's term ("first
        vanguard grade 0"), searched with the rest; at the start ("Vanguard: …") it only
        names the game (unless someone owns it: "Vanguard saya hilang …" is my vanguard),
        and so it does after "in" and before the end of a clause ("run in Vanguard?",
        "Dalam Vanguard, kad …", "กฎใน Vanguard" but "in vanguard circle")."""
        start, end = span
        before, after = text[:start].strip(" :,-"), text[end:]
        if not before and not _OWNED.match(after):
            return False
        if before and _IN_GAME.search(before) and _CLAUSE_END.match(after):
            return False
        return self.book_text.occurs(text[start:end], game)

    def _standard_malay(self, text: str) -> str:
        """Colloquial Malay in the book's words ("brp" -> "berapa", see index/malay.py), kept
        only when the sentence then reads as Malay: an English question is searched as typed."""
        standard = self.lexicon.malay.normalise(text)
        if standard == text or self.languages.query_lang(standard, "latin") != "ms":
            return text
        return standard

    def _scope_to_document(self, plan: QueryPlan, named: list[tuple[str, tuple[int, int]]]) -> None:
        """A question naming one document ("under the 2009 decree") searches that document."""
        scope = plan.request.scope
        doc_ids = list(dict.fromkeys(d for d, _ in named))
        if len(doc_ids) != 1 or scope.doc is not None:
            return
        doc = self.index.docs.get(doc_ids[0])
        if doc is None or scope.game not in (None, doc.game):
            return
        plan.doc = doc.doc_id
        plan.mask = self.index.mask(replace(scope, game=doc.game, doc=doc.doc_id))
        if scope.game is None:
            words = tuple(plan.pq.rest[a:b] for _, (a, b) in named)
            plan.inferred = GameEvidence(doc.game, "document", words)
        plan.game = doc.game

    def _infer_game(
        self, plan: QueryPlan, named: list[tuple[str, tuple[int, int]]], base: np.ndarray
    ) -> GameEvidence | None:
        games = list(dict.fromkeys(g for g, _ in named))
        if len(games) == 1:
            return GameEvidence(games[0], "named", tuple(plan.pq.text[a:b] for _, (a, b) in named))
        if plan.pq.mentions and not games:
            return None  # a bare number with no game: every game that prints it is listed
        evidence = self._game_words(plan)
        if len(evidence) == 1:
            ((game, words),) = evidence.items()
            # A word one game's books happen to print ("หยิบ", "end") in a question that reads
            # like another game's: the soft prior of an all-games search decides instead.
            if self._game_probs(plan)[game] >= MIN_TERMS_PROB:
                return GameEvidence(game, "terms", tuple(words))
            return None
        # The question's language is no evidence: only Vanguard's book is Malay, but
        # Malaysian judges run One Piece, Gundam and Summoner Master events too, and Thai
        # judges Vanguard ones; the judges' questions hold all of them, and the game model
        # fitted on them weighs how a question reads as a soft prior instead.
        return None

    def _game_probs(self, plan: QueryPlan) -> dict[str, float]:
        """The game model's probabilities for the question (computed once per plan)."""
        if plan.game_probs is None:
            plan.game_probs = self.index.game_model.probabilities(plan.search_text)
        return plan.game_probs

    def _game_words(self, plan: QueryPlan) -> dict[str, list[str]]:
        """Game -> the question's words only that game's books print, leaving out a word the
        term tables tie to another game's wording too ("deck" is เด็ค in Gundam; a Thai
        judge's เอฟเฟกต์ means One Piece's effect as well)."""
        script = plan.pq.lang
        grammar = any_function_word()
        words = [w for w in tokenize(plan.search_text) if w not in grammar]
        evidence = self.vocabulary.evidence(words)
        out: dict[str, list[str]] = {}
        for game, words in evidence.items():
            others = [g for g in self.index.games if g != game]
            own = [w for w in words if not any(self.expansion(w, script, g) for g in others)]
            if own:
                out[game] = own
        return out

    def _resolve_lookups(self, plan: QueryPlan, named: list[str]) -> None:
        idx = self.index
        seen: set[int] = set()
        elsewhere: list[Elsewhere] = []
        ambiguous: list[str] = []
        everywhere = np.ones(len(idx), dtype=bool)
        for mention in plan.pq.mentions:
            found = self._mention_rows(mention, plan.mask)
            # editions: a number only an older edition prints names its clause now
            found += self._renumbered(self._mention_rows(mention, everywhere), plan)
            # a misprinted number's intended form ("VG 7.35.1" for the 7.46.1 the book prints)
            via = "lookup" if found else "alias"
            found = found or self._number_alias_rows(mention, plan.mask)
            if plan.game is not None:
                if found:
                    plan.lookups += [(r, via) for r in found if r not in seen]
                    seen.update(found)
                else:  # every game printing it, with either separator ("1-2-2-1", "1.2.2.1")
                    rows = self._mention_rows(mention, everywhere)
                    rows += self._other_form_rows(mention, everywhere)
                    elsewhere += self._elsewhere(rows, plan.game)
                continue
            by_game: dict[str, int] = {}
            for r in found + self._other_form_rows(mention, plan.mask):
                by_game.setdefault(str(idx.game_of_row[r]), r)
            if named:
                by_game = {g: r for g, r in by_game.items() if g in named} or by_game
            if len(by_game) > 1:
                ambiguous += [g for g in by_game if g not in ambiguous]
            plan.lookups += [
                (r, via if r in found else "lookup") for r in by_game.values() if r not in seen
            ]
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

    def _mention_rows(self, mention: IdMention, mask: np.ndarray) -> list[int]:
        """Rows inside ``mask`` printing the number, rulebooks before amendments, the clause
        word's language ("Bahagian", "ข้อ") first; only amendments when the words say "decree".
        The number as written first; the other separator ("1-2-2-1" for "1.2.2.1") only
        where no book in ``mask`` prints it as written."""
        docs = sorted(
            self.index.docs.values(),
            key=lambda d: (mention.lang is not None and d.lang != mention.lang, d.kind != "rules"),
        )
        if mention.amendment:
            docs = [d for d in docs if d.kind == "amendment"]
        for cid in mention.ids:
            rows = [self.index.row.get((d.doc_id, cid)) for d in docs]
            found = [i for i in rows if i is not None and mask[i]]
            if found:
                return found
        return []

    def _number_alias_rows(self, mention: IdMention, mask: np.ndarray) -> list[int]:
        """Rows inside ``mask`` whose clause has the mentioned number as an alias (a misprint's
        intended form, corpus/lint.py), when no book prints the number itself."""
        for cid in mention.ids:
            rows = [i for i in self.aliases.get(cid.lower(), []) if mask[i]]
            if rows:
                return rows
        return []

    def _other_form_rows(self, mention: IdMention, mask: np.ndarray) -> list[int]:
        """With no game chosen, the games printing the number only with the other separator
        ("6-2-3" for a typed "6.2.3"): a judge may mean either, so each game is listed after
        those printing it as written."""
        out: list[int] = []
        for cid in mention.ids[1:]:
            out += self._mention_rows(replace(mention, ids=(cid,)), mask)
        return out

    def _renumbered(self, rows: list[int], plan: QueryPlan) -> list[int]:
        """Editions (issue 13): rows that an older edition's number now names, noted."""
        out = []
        for row, note in renumbered_rows(self.index, rows, plan.mask, plan.request.scope.date):
            plan.renumbered.append(note)
            if row is not None and row not in rows:
                out.append(row)
        return out

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
        book's wording ("ตาแรก" -> "เทิร์นแรก"), a Malay one its English game words ("attack"
        -> "serang"); any other query stays as typed."""
        text = plan.search_text
        if not expand or not plan.expansion:
            return text
        book_langs = {str(x) for x in np.unique(self.index.lang_of_row[plan.mask])}
        if plan.lang not in ("none", *book_langs):
            if plan.pq.lang == "th":
                return text + " " + " ".join(plan.expansion)
            brief = self.lexicon.expand_brief(
                text, plan.game, lambda form: self.book_text.occurs(form, plan.game)
            )
            return text + " " + " ".join(brief) if brief else text
        if plan.pq.lang == "th":
            return self.lexicon.rewrite_thai(
                text, plan.game, lambda form: self.book_text.occurs(form, plan.game)
            )
        if plan.lang == "ms":  # English game words in a Malay question, in the book's Malay
            return self.lexicon.rewrite_latin(
                text, plan.game, lambda form: self.book_text.occurs(form, plan.game)
            )
        return text


def _with_in(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """``span`` (a game's name in ``text``) with the "in" before it ("in Vanguard")."""
    start, end = span
    m = _IN_GAME.search(text[:start].rstrip())
    return (m.start(), end) if m else span


def _drop_spans(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return " ".join(text.split()).strip(" :,-")
