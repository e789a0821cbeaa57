"""Which language a query is in, relative to the rulebooks it searches.

Script tells Thai from Latin; among Latin-script queries, Malay (the Vanguard book's language)
is told from English by how many of the query's words the Malay rulebooks use. A query whose
language none of the searched rulebooks is written in is *cross-lingual*: an English question
about a Thai book, a Malay one about a Thai book, an English one about the Malay book. Only
those get the book's own terms appended to what the encoder sees (measured in
docs/benchmarks.md: it helps English questions and hurts same-language ones).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from judgekb.config import DATA_DIR
from judgekb.corpus.model import Clause
from judgekb.index.tokenize import tokenize

_LATIN_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
# Share of a Latin-script query's content words found in the Malay books above which the
# query is taken as Malay. English questions score 0.0-0.5, Malay ones 0.5-1.0 (dev + test).
MALAY_SHARE = 0.5


@lru_cache(maxsize=1)
def function_words() -> dict[str, frozenset[str]]:
    """Words that carry grammar, not subject, per language: scikit-learn's English stop
    words, pythainlp's Thai stop words, and ``data/stopwords_ms.txt`` for Malay."""
    from pythainlp.corpus import thai_stopwords
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    lines = (DATA_DIR / "stopwords_ms.txt").read_text(encoding="utf-8").splitlines()
    malay = frozenset(w.strip() for w in lines if w.strip() and not w.startswith("#"))
    return {"en": frozenset(ENGLISH_STOP_WORDS), "th": frozenset(thai_stopwords()), "ms": malay}


@lru_cache(maxsize=1)
def any_function_word() -> frozenset[str]:
    """The function words of every language: never evidence of subject or game."""
    return frozenset().union(*function_words().values())


def content_words(text: str) -> list[str]:
    """The tokens of ``text`` that carry a subject: letters, and no function word of English,
    Thai or Malay."""
    grammar = any_function_word()
    return [w for w in tokenize(text) if any(ch.isalpha() for ch in w) and w not in grammar]


class LanguageGuesser:
    """Knows the Latin-script vocabulary of the Malay rulebooks and the function words of
    English and Malay."""

    def __init__(self, clauses: Iterable[Clause]) -> None:
        self.malay_words: frozenset[str] = frozenset(
            w for c in clauses if c.lang == "ms" for w in tokenize(c.text) if w.isalpha()
        )
        words = function_words()
        self.english_function, self.malay_function = words["en"], words["ms"]

    def query_lang(self, text: str, script: str) -> str:
        """'th', 'ms', 'en' or 'none' for a query of ``script`` ('th' | 'latin' | 'none').

        Function words decide when the query has any ("what does rule 6.2 say" is English,
        "boleh tak …" Malay); otherwise the share of its words the Malay books print (the
        Malay book prints many English game words, so "Wake Up" alone is English)."""
        if script != "latin":
            return script
        words = _LATIN_WORD.findall(text.lower())  # as typed: tokenize() drops function words
        if not words or not self.malay_words:
            return "en"
        en = sum(w in self.english_function for w in words)
        ms = sum(w in self.malay_function for w in words)
        if en != ms:
            return "ms" if ms > en else "en"
        share = sum(w in self.malay_words for w in words) / len(words)
        return "ms" if share >= MALAY_SHARE and len(words) > 2 else "en"

    def is_cross_lingual(self, text: str, script: str, book_langs: Iterable[str]) -> bool:
        """True when no searched book is in the query's language."""
        lang = self.query_lang(text, script)
        return lang != "none" and lang not in set(book_langs)
