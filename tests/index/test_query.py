from __future__ import annotations

import pytest

from judgekb.index.query import clause_id_candidates, guess_lang, parse_query


@pytest.mark.parametrize(
    ("q", "want"),
    [
        ("602.1.4", ("602.1.4", "602-1-4")),
        ("602.1.4.", ("602.1.4", "602-1-4")),
        ("ข้อ 602.1.4", ("602.1.4", "602-1-4")),
        ("rule 1-2-2-1", ("1-2-2-1", "1.2.2.1")),
        ("peraturan 10.5.1.2", ("10.5.1.2", "10-5-1-2")),
        ("Bahagian 13", ("13",)),
        ("๖๐๒.๑.๔", ("602.1.4", "602-1-4")),
        ("§ 100", ("100",)),
        ("6–5–5–1", ("6-5-5-1", "6.5.5.1")),  # en dashes, as copied from a PDF
        ("ข้อ 1—2−2‐1", ("1-2-2-1", "1.2.2.1")),  # em dash, minus sign, hyphen
        ("what does 602.1.4 say", ()),
        ("ร่าย", ()),
    ],
)
def test_clause_id_candidates(q, want):
    assert clause_id_candidates(q) == want


def test_amendment_hint_selects_the_decree():
    assert parse_query("decree 711.5").id_candidates == ("711.5", "711-5")
    assert parse_query("decree 711.5").doc_kind == "amendment"
    assert parse_query("ประกาศ 2009 ข้อ 601.1.5").doc_kind == "amendment"
    assert parse_query("711.5").doc_kind is None


def test_guess_lang_and_normalisation():
    assert guess_lang("ผู้เล่นแพ้") == "th"
    assert guess_lang("who wins the game") == "latin"
    assert guess_lang("602.1.4") == "none"
    assert parse_query("  จํานวน  การ์ด ").text == "จำนวน การ์ด"


@pytest.mark.parametrize(
    ("query", "lang"),
    [
        ("Bahagian 13", "ms"),
        ("peraturan 10.5.1.2", "ms"),
        ("ข้อ 1-2-2-1", "th"),
        ("decree ข้อ 711.5", "th"),
        ("602.1.4", None),
        ("rule 1-2-2-1", None),
        ("bahagian pertama", None),  # not a lookup
    ],
)
def test_lookup_word_names_the_books_language(query, lang):
    assert parse_query(query).lookup_lang == lang


@pytest.mark.parametrize(
    ("q", "ids"),
    [
        ("what does 703.6 say about this", [("703.6", "703-6")]),  # a three-digit chapter
        ("703.6 please", [("703.6", "703-6")]),
        ("504.15 คืออะไร", [("504.15", "504-15")]),
        ("703.6?", [("703.6", "703-6")]),  # alone, punctuation around it aside
        ("(703.6)", [("703.6", "703-6")]),
        ("“7-1”.", [("7-1", "7.1")]),
        ("จั่ว 1-2 ใบ", []),  # a count
        ("Seal เลเวล 5", []),
        ("meet at 10.30", []),
        ("power 100-200", []),  # a range
        ("0.5 power", []),
    ],
)
def test_a_clause_number_in_a_sentence_or_alone_with_punctuation(q, ids):
    assert [m.ids for m in parse_query(q).mentions] == ids


def test_a_number_alone_with_punctuation_is_bare():
    assert parse_query("703.6?").bare and parse_query("(703.6)").bare
    assert not parse_query("what does 703.6 say about this").bare
