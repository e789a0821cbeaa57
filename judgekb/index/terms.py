"""Cross-lingual help: English query words -> the Thai/Malay terms the rulebooks use.

Three sources: the curated lexicon ``data/terms.toml`` (checked against the corpus by
``scripts/check_terms.py``), pairs mined from the corpus itself (the Summoner Master
glossary's "Cast / ร่าย" aliases), and ``data/thai_synonyms.toml``: everyday Thai a judge
types ("เด้งขึ้นมือ") -> the wording the rulebook prints ("กลับขึ้นมือ"), matched as substrings
because Thai has no spaces between words.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from judgekb.corpus.model import Clause
from judgekb.corpus.normalize import normalize_text
from judgekb.corpus.toml_tables import toml_error_line
from judgekb.errors import ConfigError
from judgekb.index.malay import MalayColloquial

_THAI_RE = re.compile(r"[\u0e01-\u0e4e]")
_WORD_RE = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
WORD_PATTERN = _WORD_RE.pattern  # the words of a lexicon key (the offline bundle ships it)


@dataclass
class Lexicon:
    """English phrase (lower case, single spaces) -> (game or '*', target term) pairs."""

    entries: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    max_words: int = 1
    thai: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # everyday -> book
    malay: MalayColloquial = field(default_factory=MalayColloquial)  # everyday Malay -> book

    def add_thai(self, everyday: str, target: str, game: str = "*") -> None:
        """Everyday Thai ``everyday`` (found as a substring of a query) -> book form."""
        key = normalize_text(everyday).strip()
        if not key or not target.strip():
            return
        bucket = self.thai.setdefault(key, [])
        if (game, target.strip()) not in bucket:
            bucket.append((game, target.strip()))

    def thai_phrases(self, text: str, game: str | None) -> dict[str, list[str]]:
        """Everyday phrases found in ``text`` (already normalised) -> their book forms for
        ``game`` (every game's when None), longest phrase first."""
        found = sorted((k for k in self.thai if k in text), key=len, reverse=True)
        out = {k: [t for g, t in self.thai[k] if g in ("*", game) or game is None] for k in found}
        return {k: forms for k, forms in out.items() if forms}

    def expand_thai(self, text: str, game: str | None = None) -> list[str]:
        """Book forms for the everyday Thai phrases in ``text`` (already normalised)."""
        forms = self.thai_phrases(text, game).values()
        return list(dict.fromkeys(t for ts in forms for t in ts))

    def rewrite_thai(
        self, text: str, game: str | None, printed: Callable[[str], bool] = lambda _: True
    ) -> str:
        """``text`` with each everyday phrase replaced by the book's wording (its first form
        that ``printed`` accepts), longest phrases first; a phrase whose book form the text
        already holds ("ชีลด" inside "ชีลด์") is left alone. What the encoder sees for a Thai
        question: e5 then compares the book's words with the book's words."""
        for key, forms in self.thai_phrases(text, game).items():
            forms = [t for t in forms if printed(t)]
            # key gone: consumed by a longer phrase's replacement
            if key in text and forms and not any(t in text for t in forms):
                text = text.replace(key, forms[0])
        return text

    def add(self, en: str, target: str, game: str = "*") -> None:
        key = " ".join(_WORD_RE.findall(en.lower()))
        if not key or not target.strip():
            return
        pair = (game, target.strip())
        bucket = self.entries.setdefault(key, [])
        if pair not in bucket:
            bucket.append(pair)
        self.max_words = max(self.max_words, key.count(" ") + 1)

    def _phrases(
        self, text: str, known: Callable[[str], bool] = lambda _: True
    ) -> list[tuple[int, int, str]]:
        """(start, end, key) of the lexicon's phrases in ``text``, longest first, left to right;
        ``known`` may refuse a key (then shorter phrases at that word are tried)."""
        words = list(_WORD_RE.finditer(text.lower()))
        out: list[tuple[int, int, str]] = []
        i = 0
        while i < len(words):
            for n in range(min(self.max_words, len(words) - i), 0, -1):
                key = " ".join(w.group(0) for w in words[i : i + n])
                if key in self.entries and known(key):
                    out.append((words[i].start(), words[i + n - 1].end(), key))
                    i += n
                    break
            else:
                i += 1
        return out

    def _pairs(self, key: str, game: str | None) -> list[tuple[str, str]]:
        """(entry's game, target) of ``key`` that serve ``game`` (every game's when None)."""
        return [(g, t) for g, t in self.entries[key] if g in ("*", game) or game is None]

    def _targets(self, key: str, game: str | None) -> list[str]:
        return [t for _, t in self._pairs(key, game)]

    def expand(self, text: str, game: str | None = None) -> list[str]:
        """Target terms for the English phrases in ``text`` (longest phrases first)."""
        out = [t for _, _, key in self._phrases(text) for t in self._targets(key, game)]
        return list(dict.fromkeys(out))

    def expand_brief(
        self, text: str, game: str | None, printed: Callable[[str], bool] = lambda _: True
    ) -> list[str]:
        """Like :meth:`expand`, but one target per phrase for each game's entry and script
        (the first that ``printed`` accepts): what the encoder sees appended to a
        cross-lingual question. Every synonym of every book ("คว่ำ คว่ำหน้า คว่ำลง …") made
        an English question over all games three to four times longer to encode."""
        out: list[str] = []
        for _, _, key in self._phrases(text):
            slots: set[tuple[str, bool]] = set()
            for g, t in self._pairs(key, game):
                slot = (g, bool(_THAI_RE.search(t)))
                if slot not in slots and printed(t):
                    slots.add(slot)
                    out.append(t)
        return list(dict.fromkeys(out))

    def rewrite_latin(
        self, text: str, game: str | None, printed: Callable[[str], bool] = lambda _: True
    ) -> str:
        """``text`` with each English game word the books do not print replaced by the first
        of its target terms that ``printed`` accepts ("attack" -> "serang", "drop zone" ->
        "zon musnah"); words the book prints itself ("trigger", "boost") stay. What the encoder
        sees for a Malay question about a Malay book, the way :meth:`rewrite_thai` serves Thai."""
        out, last = [], 0
        for start, end, key in self._phrases(text, lambda k: not printed(k)):
            forms = [t for t in self._targets(key, game) if printed(t)]
            if forms:
                out += [text[last:start], forms[0]]
                last = end
        return "".join(out) + text[last:]


def _read_toml(path: Path) -> dict:
    """The TOML table in ``path``; {} when the file is missing, ConfigError when malformed."""
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}:{toml_error_line(exc)}: malformed TOML: {exc}") from exc


def load_lexicon(path: Path) -> Lexicon:
    """Read ``terms.toml``; a missing file gives an empty lexicon, a malformed one an error."""
    lex = Lexicon()
    for entry in _read_toml(path).get("term", []):
        ens = entry.get("en", [])
        ens = [ens] if isinstance(ens, str) else ens
        games = entry.get("games") or ["*"]
        th, ms = list(entry.get("th", [])), list(entry.get("ms", []))
        # English words expand to both; a Malay word (the Vanguard book's term, which judges
        # type in Malay questions about the Thai rulebooks too) expands to the Thai forms.
        pairs = [(en, t) for en in ens for t in th + ms] + [(m, t) for m in ms for t in th]
        for key, target in pairs:
            for game in games:
                lex.add(key, target, game)
    return lex


def load_thai_synonyms(lex: Lexicon, path: Path) -> Lexicon:
    """Add ``thai_synonyms.toml``'s ``[[synonym]]`` entries; a missing file adds nothing."""
    for n, entry in enumerate(_read_toml(path).get("synonym", []), 1):
        everyday, book = entry.get("everyday", []), entry.get("book", [])
        if not isinstance(everyday, list) or not isinstance(book, list) or not book:
            raise ConfigError(
                f"{path}: [[synonym]] entry {n} needs lists 'everyday' and 'book' (non-empty)"
            )
        for form in everyday:
            for target in book:
                for game in entry.get("games") or ["*"]:
                    lex.add_thai(form, target, game)
    return lex


def load_malay_colloquial(lex: Lexicon, path: Path) -> Lexicon:
    """Add ``malay_colloquial.toml`` (``[[synonym]]`` everyday -> book, ``[[filler]]``)."""
    data = _read_toml(path)
    for n, entry in enumerate(data.get("synonym", []), 1):
        everyday, book = entry.get("everyday", []), entry.get("book", [])
        if not isinstance(everyday, list) or not isinstance(book, list) or len(book) != 1:
            raise ConfigError(
                f"{path}: [[synonym]] entry {n} needs a list 'everyday' and 'book' = [one form]"
            )
        for word in everyday:
            lex.malay.add(word, book[0])
    for n, entry in enumerate(data.get("filler", []), 1):
        words = entry.get("everyday", [])
        if not isinstance(words, list) or not words:
            raise ConfigError(f"{path}: [[filler]] entry {n} needs a non-empty list 'everyday'")
        for word in words:
            lex.malay.add_filler(word, final=bool(entry.get("final")))
    return lex


def load_query_vocabulary(data_dir: Path) -> Lexicon:
    """The three query-vocabulary tables of ``data_dir``: English terms (``terms.toml``),
    everyday Thai (``thai_synonyms.toml``) and everyday Malay (``malay_colloquial.toml``)."""
    lex = load_thai_synonyms(load_lexicon(data_dir / "terms.toml"), data_dir / "thai_synonyms.toml")
    return load_malay_colloquial(lex, data_dir / "malay_colloquial.toml")


_LATIN_EDGE = "a-z0-9-"  # a hyphen joins words: "rear-guard" does not print "guard"
_EDGE_RE = re.compile(f"[{_LATIN_EDGE}]")


def printed_in(form: str, text: str) -> bool:
    """``form`` (normalised, lower-cased) occurs in ``text`` (lower case): Thai forms as
    substrings, since Thai writes no spaces; a Latin letter or digit at either edge of the
    form only at a word boundary, as ``scripts/check_terms.py`` counts.

    Found with ``str.find`` and the edges checked where it lands: a search for a new form
    meets every book's text, and a regular expression over it cost a unique query about 1 ms
    a form (25 x this)."""
    needle = normalize_text(form).lower()
    if not needle:
        return False
    left = _EDGE_RE.match(needle[0]) is not None
    right = _EDGE_RE.match(needle[-1]) is not None
    n, end = len(needle), len(text)
    i = text.find(needle)
    while i != -1:
        if (not left or i == 0 or _EDGE_RE.match(text[i - 1]) is None) and (
            not right or i + n >= end or _EDGE_RE.match(text[i + n]) is None
        ):
            return True
        i = text.find(needle, i + 1)
    return False


def load_default_lexicon() -> Lexicon:
    """The bundled query vocabulary (:func:`load_query_vocabulary` of the package data)."""
    from judgekb.config import DATA_DIR

    return load_query_vocabulary(DATA_DIR)


class BookText:
    """The normalised, lower-cased text of each game's rulebooks, to keep only expansion terms
    that the searched books print: an entry serving every game may list one book's wording
    ("Turn" in Summoner Master), which would only add noise to a One Piece query."""

    def __init__(self, clauses: Iterable[Clause], game_of: dict[str, str]) -> None:
        parts: dict[str, list[str]] = {}
        for c in clauses:
            parts.setdefault(game_of.get(c.doc_id, "*"), []).append(normalize_text(c.text).lower())
        self.text = {game: "\n".join(texts) for game, texts in parts.items()}
        self._cache: dict[tuple[str, str | None], bool] = {}

    def occurs(self, form: str, game: str | None) -> bool:
        """True when ``form`` is printed in ``game``'s books (any game's when None); a Latin
        edge matches whole words only ("guard" is not printed by "guardian")."""
        key = (form, game)
        hit = self._cache.get(key)
        if hit is None:
            texts = self.text.values() if game is None else [self.text.get(game, "")]
            hit = any(printed_in(form, t) for t in texts)
            if len(self._cache) < 100_000:
                self._cache[key] = hit
        return hit


def add_glossary_pairs(lex: Lexicon, clauses: Iterable[Clause], game_of: dict[str, str]) -> None:
    """Mine "English / Thai" alias pairs of glossary entries into the lexicon."""
    for c in clauses:
        if c.kind != "glossary":
            continue
        latin = [a for a in c.aliases if not _THAI_RE.search(a)]
        thai = [a for a in c.aliases if _THAI_RE.search(a)]
        for en in latin:
            for th in thai:
                lex.add(en, th, game_of.get(c.doc_id, "*"))


def expansion_text(terms: Sequence[str]) -> str:
    return " ".join(terms)
