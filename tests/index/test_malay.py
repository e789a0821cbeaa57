"""Colloquial Malay -> the Malay book's words: each rule of index/malay.py on exact strings, the
table loader, the English-game-word rewrite of a Malay question, and the planner keeping the
standard form only for a Malay sentence."""

from __future__ import annotations

import pytest

from judgekb.errors import ConfigError
from judgekb.index.malay import (
    MalayColloquial,
    drop_fillers,
    split_reduplication,
    squeeze_spaces,
    standardise_words,
)
from judgekb.index.terms import Lexicon, load_malay_colloquial, printed_in

TABLE = """
[[filler]]
everyday = ["ke tidak"]

[[filler]]
everyday = ["ke", "ker"]
final = true

[[synonym]]
everyday = ["boleh tak", "boleh ke"]
book = ["boleh"]

[[synonym]]
everyday = ["tak", "x"]
book = ["tidak"]

[[synonym]]
everyday = ["aku"]
book = ["anda"]

[[synonym]]
everyday = ["dlm"]
book = ["dalam"]

[[synonym]]
everyday = ["brp"]
book = ["berapa"]

[[synonym]]
everyday = ["je"]
book = ["sahaja"]

[[synonym]]
everyday = ["kat"]
book = ["di"]
"""


@pytest.fixture
def table(tmp_path) -> MalayColloquial:
    path = tmp_path / "malay.toml"
    path.write_text(TABLE, encoding="utf-8")
    return load_malay_colloquial(Lexicon(), path).malay


def test_reduplication_written_with_a_2_is_written_twice():
    # Malay chat writes a repeated word with a 2; the book writes "masing-masing".
    assert (
        split_reduplication("syarat masing2 apa, dua2 ada?")
        == "syarat masing-masing apa, dua-dua ada?"
    )
    # A game code such as G3 is not a repeated word.
    assert split_reduplication("unit G3 dan G2") == "unit G3 dan G2"


def test_standardise_words_takes_the_longest_phrase_and_whole_words(table):
    words, _, _ = table._patterns()
    text = "Boleh tak aku tukar kad dlm takhta?"
    # "boleh tak" wins over "tak"; "takhta" holds "tak" but is another word.
    assert standardise_words(text, words, table.book) == "boleh anda tukar kad dalam takhta?"


def test_a_one_letter_key_matches_only_in_lower_case(table):
    words, _, _ = table._patterns()
    # "x" is the chat spelling of tidak; the book's variable X stays.
    assert standardise_words("ada info x?", words, table.book) == "ada info tidak?"
    assert standardise_words("pilih hingga X kad", words, table.book) == "pilih hingga X kad"


def test_fillers_anywhere_and_the_question_particle_only_at_the_end(table):
    _, fillers, final = table._patterns()
    assert drop_fillers("ada info ke tidak?", fillers, final) == "ada info  ?"
    # The final "ke" is the question particle; mid-sentence "ke" is the book's "to".
    assert drop_fillers("masuk drop ke?", fillers, final) == "masuk drop  ?"
    assert drop_fillers("pergi ke mana", fillers, final) == "pergi ke mana"


def test_squeeze_spaces_closes_what_a_dropped_word_left():
    assert squeeze_spaces("ada info  ?") == "ada info?"
    assert squeeze_spaces("  a   b , c ") == "a b, c"


def test_the_chain_in_order(table):
    assert table.normalise("Sentinel dlm deck boleh brp keping je?") == (
        "Sentinel dalam deck boleh berapa keping sahaja?"
    )
    # "ke x" becomes "ke tidak" (step 2), then the filler goes (step 3).
    assert table.normalise("Kad kat bind zone face down ada info ke x?") == (
        "Kad di bind zone face down ada info?"
    )
    assert table.normalise("masing2 kad aku") == "masing-masing kad anda"


def test_the_loader_wants_exactly_one_book_form(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[[synonym]]\neveryday = ["kat"]\nbook = ["di", "pada"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="one form"):
        load_malay_colloquial(Lexicon(), path)
    path.write_text("[[filler]]\neveryday = []\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="filler"):
        load_malay_colloquial(Lexicon(), path)


def test_missing_table_adds_nothing(tmp_path):
    lex = load_malay_colloquial(Lexicon(), tmp_path / "absent.toml")
    assert lex.malay.book == {} and lex.malay.normalise("tak x") == "tak x"


def test_printed_in_matches_latin_forms_as_whole_words():
    text = "lingkaran rear-guard dan guardian. permainan seri."
    assert not printed_in("guard", text)  # inside "rear-guard" and "guardian" only
    assert printed_in("rear-guard", text)
    assert printed_in("Seri", text)
    assert not printed_in("ser", text)
    assert printed_in("การ์ด", "ผู้เล่นจั่วการ์ดหนึ่งใบ")  # Thai: a substring
    # a whole word after look-alikes inside longer words; at the very start and end
    assert printed_in("guard", text + " guard")
    assert printed_in("guard", "guard")
    assert printed_in("lingkaran", text)
    assert not printed_in("seri.", "permainan seri")


def test_rewrite_latin_puts_english_game_words_in_the_books_malay():
    lex = Lexicon()
    lex.add("attack", "serang")
    lex.add("drop zone", "zon musnah")
    lex.add("drop", "zon musnah")
    lex.add("trigger", "trigger")
    lex.add("damage", "ดาเมจ")
    lex.add("damage", "kelukaan")
    book = "unit serang. kad ke zon musnah. trigger. kelukaan"
    printed = lambda form: printed_in(form, book)  # noqa: E731
    assert lex.rewrite_latin("Unit yang aku attack masuk drop zone?", "vanguard", printed) == (
        "Unit yang aku serang masuk zon musnah?"
    )
    # The book prints "trigger" itself; "damage" goes to the first form the book prints.
    assert lex.rewrite_latin("trigger bagi damage", "vanguard", printed) == (
        "trigger bagi kelukaan"
    )


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    from judgekb.corpus.store import ClauseStore
    from judgekb.index.build import build_index
    from judgekb.index.search import Searcher
    from tests.fakes import FakeEmbedder, write_tiny_store

    tmp = tmp_path_factory.mktemp("malay")
    write_tiny_store(tmp / "c.sqlite")
    store = ClauseStore(tmp / "c.sqlite")
    build_index(store, tmp / "index", tmp / "cache.sqlite", FakeEmbedder, FakeEmbedder.name)
    (tmp / "malay.toml").write_text(
        TABLE + '\n[[synonym]]\neveryday = ["kalau"]\nbook = ["jika"]\n'
    )
    lex = load_malay_colloquial(Lexicon(), tmp / "malay.toml")
    lex.add("game", "permainan")
    return Searcher(store, tmp / "index", FakeEmbedder(), FakeEmbedder.name, lex)


def test_a_colloquial_malay_question_is_searched_in_the_books_words(searcher):
    from judgekb.index.request import SearchRequest

    plan = searcher.planner.plan(SearchRequest.of("Kalau aku kalah, game seri ke?", "vanguard"))
    assert (plan.lang, plan.search_text) == ("ms", "jika anda kalah, game seri?")
    assert plan.terms == ["kalah", "game", "seri", "permainan"]  # stopwords go, as always
    # The encoder also sees the English game word in the book's Malay.
    assert searcher.planner.dense_text(plan, True) == "jika anda kalah, permainan seri?"


def test_an_english_question_is_searched_as_typed(searcher):
    from judgekb.index.request import SearchRequest

    plan = searcher.planner.plan(SearchRequest.of("what if x players lose", "vanguard"))
    assert (plan.lang, plan.search_text) == ("en", "what if x players lose")
