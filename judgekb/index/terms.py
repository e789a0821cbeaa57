"""Cross-lingual help: English query words -> the Thai/Malay terms the rulebooks use.

Two sources: the curated lexicon ``data/terms.toml`` (checked against the corpus by
``scripts/check_terms.py``) and pairs mined from the corpus itself (the Summoner Master
glossary's "Cast / ร่าย" aliases).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from judgekb.corpus.manifest import toml_error_line
from judgekb.corpus.model import Clause
from judgekb.errors import ConfigError

_THAI_RE = re.compile(r"[\u0e01-\u0e4e]")
_WORD_RE = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")


@dataclass
class Lexicon:
    """English phrase (lower case, single spaces) -> (game or '*', target term) pairs."""

    entries: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    max_words: int = 1

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


def load_lexicon(path: Path) -> Lexicon:
    """Read ``terms.toml``; a missing file gives an empty lexicon, a malformed one an error."""
    lex = Lexicon()
    if not path.exists():
        return lex
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}:{toml_error_line(exc)}: malformed TOML: {exc}") from exc
    for entry in data.get("term", []):
        ens = entry.get("en", [])
        ens = [ens] if isinstance(ens, str) else ens
        games = entry.get("games") or ["*"]
        for en in ens:
            for target in list(entry.get("th", [])) + list(entry.get("ms", [])):
                for game in games:
                    lex.add(en, target, game)
    return lex


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
