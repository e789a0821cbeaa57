"""Colloquial Malay -> the words the Malay rulebook prints, before a Latin-script query is searched.

Malay judges write the way they chat: "Boleh tak aku guard guna unit grade 3 masa vanguard
grade 1?", "Sentinel dlm deck boleh brp keping je?". The Vanguard book prints "tidak", "anda",
"dalam", "berapa", "sahaja"; e5-small and BM25 meet the book's words far more easily than the
chat spellings. The table ``data/malay_colloquial.toml`` (checked against the Malay book by
``scripts/check_synonyms.py --malay``) lists everyday words with the book's form; this module
applies it as a chain of small rules, in this order:

1. :func:`split_reduplication` — "dua2" -> "dua-dua" (a repeated word written with a 2);
2. :func:`standardise_words` — everyday word or phrase -> the book's first form, longest phrase
   first, whole words only; a one-letter key ("x" = tidak) only as written in lower case, so the
   book's variable "X" stays;
3. :func:`drop_fillers` — question tags that carry no content ("ke tidak", which is what "ke tak"
   and "ke x" became in step 2) anywhere, and the final question particle ("masuk drop ke?"),
   which elsewhere is the book's "ke" (to);
4. :func:`squeeze_spaces`.

:meth:`MalayColloquial.normalise` runs the chain; the planner keeps the result only when the
query then reads as Malay (an English question is searched as typed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

_REDUP_RE = re.compile(r"\b([A-Za-z]{2,})2\b")
_EDGE_LEFT = r"(?<![\w-])"
_EDGE_RIGHT = r"(?![\w-])"


def split_reduplication(text: str) -> str:
    """ "masing2" -> "masing-masing", "dua2" -> "dua-dua": the book writes the word twice."""
    return _REDUP_RE.sub(lambda m: f"{m.group(1)}-{m.group(1)}", text)


def _phrase_re(keys: Iterable[str]) -> re.Pattern[str] | None:
    """Whole-word alternation of ``keys``, longest first; a one-letter key only in lower case."""
    parts = []
    for key in sorted(set(keys), key=lambda k: (-len(k), k)):
        body = r"\s+".join(re.escape(w) for w in key.split())
        parts.append(body if len(key) > 1 else f"(?-i:{body})")
    if not parts:
        return None
    return re.compile(f"{_EDGE_LEFT}(?:{'|'.join(parts)}){_EDGE_RIGHT}", re.IGNORECASE)


def drop_fillers(text: str, fillers: re.Pattern[str] | None, final: re.Pattern[str] | None) -> str:
    """Remove content-free question tags, and a question particle that ends the sentence."""
    if fillers is not None:
        text = fillers.sub(" ", text)
    if final is not None:
        text = final.sub(" ", text)
    return text


def standardise_words(text: str, pattern: re.Pattern[str] | None, book: Mapping[str, str]) -> str:
    """Each everyday word or phrase matched by ``pattern`` -> its book form in ``book``."""
    if pattern is None:
        return text
    return pattern.sub(lambda m: book[" ".join(m.group(0).lower().split())], text)


def squeeze_spaces(text: str) -> str:
    """Single spaces, none before punctuation that a dropped word left alone ("balik ?")."""
    text = re.sub(r"\s+([?.,!])", r"\1", text)
    return " ".join(text.split())


@dataclass
class MalayColloquial:
    """The everyday-Malay table: everyday -> book form, fillers, final particles."""

    book: dict[str, str] = field(default_factory=dict)  # everyday (lower case) -> book form
    fillers: list[str] = field(default_factory=list)
    final_particles: list[str] = field(default_factory=list)
    _compiled: tuple[re.Pattern[str] | None, ...] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def add(self, everyday: str, form: str) -> None:
        """``everyday`` (a word or phrase, any case) is written ``form`` in the book."""
        self.book[" ".join(everyday.lower().split())] = form.strip()
        self._compiled = None

    def add_filler(self, everyday: str, final: bool = False) -> None:
        (self.final_particles if final else self.fillers).append(" ".join(everyday.split()))
        self._compiled = None

    def _patterns(self) -> tuple[re.Pattern[str] | None, ...]:
        compiled = self._compiled
        if compiled is None:
            final = _phrase_re(self.final_particles)
            if final is not None:  # only before the closing punctuation or the end
                final = re.compile(final.pattern + r"(?=\s*[?.!]*\s*$)", re.IGNORECASE)
            compiled = (_phrase_re(self.book), _phrase_re(self.fillers), final)
            self._compiled = compiled
        return compiled

    def normalise(self, text: str) -> str:
        """The rule chain of the module docstring."""
        words, fillers, final = self._patterns()
        text = split_reduplication(text)
        text = standardise_words(text, words, self.book)
        text = drop_fillers(text, fillers, final)
        return squeeze_spaces(text)
