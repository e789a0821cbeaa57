"""Query language relative to the searched books: Thai / Malay / English, cross-lingual or not."""

from __future__ import annotations

import pytest

from judgekb.corpus.model import Clause
from judgekb.index.language import LanguageGuesser


def _clause(text: str, lang: str) -> Clause:
    return Clause("d", "1", None, "clause", "", text, text, lang, 1)


@pytest.fixture()
def guesser() -> LanguageGuesser:
    return LanguageGuesser(
        [
            _clause("Pemain kalah apabila zon kelukaan mempunyai enam kad.", "ms"),
            _clause("Unit di baris belakang boleh boost unit di depan.", "ms"),
            _clause("ผู้เล่นแพ้เมื่อไม่มีการ์ดในเด็ค", "th"),
        ]
    )


@pytest.mark.parametrize(
    ("text", "script", "lang"),
    [
        ("ผู้เล่นแพ้เมื่อไหร่", "th", "th"),
        ("Berapa kad dalam zon kelukaan baru kalah?", "latin", "ms"),
        ("How many damage cards make me lose?", "latin", "en"),
        # the Malay book's own English game words, no function word of either language: English
        ("unit boost", "latin", "en"),
        ("unit boost unit baris belakang", "latin", "ms"),  # mostly the Malay book's words
        ("boleh tak unit boost", "latin", "ms"),  # Malay function words decide
        ("can a unit boost", "latin", "en"),  # English function words decide
        ("Wake Up", "latin", "en"),
        ("???", "latin", "en"),
        ("602.1", "none", "none"),
    ],
)
def test_query_lang(guesser, text, script, lang):
    assert guesser.query_lang(text, script) == lang


def test_cross_lingual_means_no_searched_book_is_in_the_query_language(guesser):
    assert guesser.is_cross_lingual("How do I lose?", "latin", ["th"])
    assert guesser.is_cross_lingual("How do I lose?", "latin", ["ms"])
    assert guesser.is_cross_lingual("Bila pemain kalah?", "latin", ["th"])
    assert not guesser.is_cross_lingual("Bila pemain kalah?", "latin", ["ms"])
    assert not guesser.is_cross_lingual("ผู้เล่นแพ้เมื่อไหร่", "th", ["th", "ms"])
    assert not guesser.is_cross_lingual("602.1", "none", ["th"])


def test_no_malay_book_means_latin_queries_are_english():
    assert LanguageGuesser([_clause("ผู้เล่นแพ้", "th")]).query_lang("kalah", "latin") == "en"
