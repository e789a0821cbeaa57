"""Each normaliser rule on exact strings, then the whole chain."""

from __future__ import annotations

import pytest

from judgekb.corpus.normalize import (
    NORMALISER_VERSION,
    RULES,
    collapse_spaces,
    compose_sara_am,
    nfc,
    normalize_text,
    remove_dup_marks,
    remove_zero_width,
    thai_digits_to_ascii,
)


def test_version_is_a_nonempty_string() -> None:
    assert isinstance(NORMALISER_VERSION, str) and NORMALISER_VERSION


def test_rules_run_in_the_documented_order() -> None:
    assert [rule.__name__ for rule in RULES] == [
        "remove_zero_width",
        "nfc",
        "compose_sara_am",
        "remove_dup_marks",
        "thai_digits_to_ascii",
        "collapse_spaces",
    ]


def test_remove_zero_width() -> None:
    # fixes: invisible ZWSP/ZWJ/BOM from PDF and web copies splitting words
    assert remove_zero_width("\ufeffการ\u200bด์\u200c\u200d\u2060") == "การด์"


def test_nfc_orders_sara_u_before_tone() -> None:
    # fixes: tone typed before SARA UU ("ผ" + MAI THO + SARA UU) vs the canonical order
    assert nfc("ผ\u0e49\u0e39") == "ผ\u0e39\u0e49" == "ผู้"


def test_compose_sara_am() -> None:
    # fixes: PDFs write SARA AM as NIKHAHIT + SARA AA ("จํานวน" for "จำนวน")
    assert compose_sara_am("จ\u0e4d\u0e32นวน") == "จำนวน"


def test_compose_sara_am_with_tone_between() -> None:
    # fixes: NIKHAHIT, tone, SARA AA ("น" + ํ + ้ + า) -> "น้ำ"; tone goes before SARA AM
    assert compose_sara_am("น\u0e4d\u0e49\u0e32") == "น\u0e49\u0e33" == "น้ำ"
    assert compose_sara_am("น\u0e49\u0e4d\u0e32") == "น้ำ"


def test_remove_dup_marks() -> None:
    # fixes: a tone or vowel mark doubled by a typo or OCR ("ก่่")
    assert remove_dup_marks("ก\u0e48\u0e48า") == "ก่า"
    assert remove_dup_marks("ผู้เล่น") == "ผู้เล่น"


def test_thai_digits_to_ascii() -> None:
    # fixes: "ข้อ ๑๒" not matching "ข้อ 12"
    assert thai_digits_to_ascii("ข้อ ๑๒.๐") == "ข้อ 12.0"


def test_collapse_spaces() -> None:
    # fixes: tabs, double spaces, NBSP and blank lines from extraction
    assert collapse_spaces("\t a \u00a0 b  \n\n  c ") == "a b\nc"


def test_tone_marks_are_kept() -> None:
    # pythainlp.util.normalize would drop the tone of "แพ ้"; we keep it
    assert normalize_text("แพ ้") == "แพ ้"


@pytest.mark.parametrize(
    "text",
    ["ผู้เล่น", "การ์ด", "ครั้ง", "จำนวน", "แพ้", "น้ำ", "กฎกติกาโดยรวม", "ที่ ๆ เป็น", "ฤทธิ์"],
)
def test_correct_thai_is_unchanged(text: str) -> None:
    assert normalize_text(text) == text


def test_normalize_text_chain() -> None:
    assert normalize_text(" \u200bจํานวน  ๓ ใบ\t") == "จำนวน 3 ใบ"


def test_idempotent() -> None:
    once = normalize_text(" จํานวน\u200b ๑  ใบ ")
    assert normalize_text(once) == once
