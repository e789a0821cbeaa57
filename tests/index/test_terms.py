"""Query expansion: English/Malay lexicon keys and everyday-Thai synonyms -> rulebook terms."""

from __future__ import annotations

import pytest

from judgekb.errors import ConfigError
from judgekb.index.terms import Lexicon, load_lexicon, load_thai_synonyms

TERMS = """
[[term]]
en = ["damage"]
th = ["ดาเมจ", "ความเสียหาย"]
ms = ["kelukaan"]

[[term]]
en = ["shield"]
th = ["ชีลด์"]
games = ["gundam"]
"""

SYNONYMS = """
[[synonym]]
everyday = ["เด้งขึ้นมือ", "เด้งกลับมือ"]
book = ["กลับขึ้นมือ"]
games = ["summoner-master"]

[[synonym]]
everyday = ["ตาแรก"]
book = ["เทิร์นแรก"]
"""


def test_english_and_malay_keys_expand_to_the_book_terms(tmp_path):
    path = tmp_path / "terms.toml"
    path.write_text(TERMS, encoding="utf-8")
    lex = load_lexicon(path)
    assert lex.expand("How much damage?") == ["ดาเมจ", "ความเสียหาย", "kelukaan"]
    # A Malay word (the Vanguard book's term) reaches the Thai books too.
    assert lex.expand("berapa kelukaan") == ["ดาเมจ", "ความเสียหาย"]
    assert lex.expand("shield", game="gundam") == ["ชีลด์"]
    assert lex.expand("shield", game="one-piece") == []


def test_thai_synonyms_match_as_substrings_and_respect_the_game(tmp_path):
    path = tmp_path / "syn.toml"
    path.write_text(SYNONYMS, encoding="utf-8")
    lex = load_thai_synonyms(Lexicon(), path)
    query = "การ์ดที่ถูกเด้งขึ้นมือแล้วลงมาใหม่ ตาแรกทำได้ไหม"
    assert lex.expand_thai(query, "summoner-master") == ["กลับขึ้นมือ", "เทิร์นแรก"]
    assert lex.expand_thai(query, "gundam") == ["เทิร์นแรก"]
    assert lex.expand_thai(query, None) == ["กลับขึ้นมือ", "เทิร์นแรก"]
    assert lex.expand_thai("ไม่มีคำที่รู้จัก", "gundam") == []


def test_missing_synonym_file_adds_nothing(tmp_path):
    lex = load_thai_synonyms(Lexicon(), tmp_path / "absent.toml")
    assert lex.thai == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[synonym]\neveryday = 1", "malformed TOML"),
        ('[[synonym]]\neveryday = ["ตาแรก"]\n', "needs lists 'everyday' and 'book'"),
        ('[[synonym]]\neveryday = "ตาแรก"\nbook = ["เทิร์นแรก"]\n', "entry 1 needs lists"),
    ],
)
def test_malformed_synonym_file_names_file_and_problem(tmp_path, text, message):
    path = tmp_path / "syn.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as info:
        load_thai_synonyms(Lexicon(), path)
    assert str(path) in str(info.value)


def test_book_text_keeps_only_terms_the_searched_books_print():
    from judgekb.corpus.model import Clause
    from judgekb.index.terms import BookText

    def clause(doc: str, text: str) -> Clause:
        return Clause(doc, "1", None, "clause", "", text, text, "th", 1)

    books = BookText(
        [clause("sm", "นับ Turn ลดลง"), clause("op", "ในเทิร์นแรก")],
        {"sm": "summoner-master", "op": "one-piece"},
    )
    assert books.occurs("turn", "summoner-master")
    assert not books.occurs("Turn", "one-piece")
    assert books.occurs("เทิร์นแรก", "one-piece")
    assert books.occurs("เทิร์นแรก", None)
    assert not books.occurs("เทิร์นแรก", "vanguard")


def test_rewrite_thai_puts_the_book_wording_in_place(tmp_path):
    path = tmp_path / "syn.toml"
    path.write_text(
        SYNONYMS
        + '\n[[synonym]]\neveryday = ["ชีลด"]\nbook = ["ชีลด์"]\n'
        + '\n[[synonym]]\neveryday = ["เด้งขึ้น"]\nbook = ["ดีดขึ้น"]\n',
        encoding="utf-8",
    )
    lex = load_thai_synonyms(Lexicon(), path)
    # Longest phrase first: "เด้งขึ้นมือ" wins over its prefix "เด้งขึ้น".
    assert lex.rewrite_thai("ถูกเด้งขึ้นมือตาแรก", "summoner-master") == "ถูกกลับขึ้นมือเทิร์นแรก"
    # Not for another game; a book form already in the text is left alone.
    assert lex.rewrite_thai("ถูกเด้งขึ้นมือ", "gundam") == "ถูกดีดขึ้นมือ"
    assert lex.rewrite_thai("ชีลด์แตก", "gundam") == "ชีลด์แตก"
    assert lex.rewrite_thai("ชีลดแตก", "gundam") == "ชีลด์แตก"
    # Only forms the searched books print.
    assert lex.rewrite_thai("ตาแรก", "gundam", lambda form: False) == "ตาแรก"
