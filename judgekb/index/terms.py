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

from judgekb.corpus.manifest import toml_error_line
from judgekb.corpus.model import Clause
from judgekb.corpus.normalize import normalize_text
from judgekb.errors import ConfigError

_THAI_RE = re.compile(r"[\u0e01-\u0e4e]")
_WORD_RE = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
WORD_PATTERN = _WORD_RE.pattern  # the words of a lexicon key (the offline bundle ships it)


@dataclass
class Lexicon:
    """English phrase (lower case, single spaces) -> (game or '*', target term) pairs."""

    entries: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    max_words: int = 1
    thai: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # everyday -> book

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

    def expand(self, text: str, game: str | None = None) -> list[str]:
        """Target terms for the English phrases in ``text`` (longest phrases first)."""
        words = _WORD_RE.findall(text.lower())
        out: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(self.max_words, len(words) - i), 0, -1):
                key = " ".join(words[i : i + n])
                if key in self.entries:
                    out += [t for g, t in self.entries[key] if g in ("*", game) or game is None]
                    i += n
                    break
            else:
                i += 1
        return list(dict.fromkeys(out))


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


def load_default_lexicon() -> Lexicon:
    """The bundled vocabulary: ``data/terms.toml`` plus ``data/thai_synonyms.toml``."""
    from judgekb.config import DATA_DIR

    return load_thai_synonyms(
        load_lexicon(DATA_DIR / "terms.toml"), DATA_DIR / "thai_synonyms.toml"
    )


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
        """True when ``form`` is printed in ``game``'s books (any game's when None)."""
        key = (form, game)
        hit = self._cache.get(key)
        if hit is None:
            needle = normalize_text(form).lower()
            texts = self.text.values() if game is None else [self.text.get(game, "")]
            hit = any(needle in t for t in texts)
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
