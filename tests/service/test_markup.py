"""Escape first, then add only our own tags: exact HTML for marks, links and hostile text."""

from __future__ import annotations

from judgekb.service.markup import Term, ref_pattern, render_text, term_pattern

CAST = Term("/rules/summoner-master/glossary/cast", "Cast / ร่าย", "การนำการ์ด <Seal>")
CAST_LINKER = (term_pattern(["ร่าย", "cast"]), {"ร่าย": CAST, "cast": CAST})
CAST_A = (
    '<a class="term ref" href="/rules/summoner-master/glossary/cast" '
    'data-title="Cast / ร่าย" data-preview="การนำการ์ด &lt;Seal&gt;">'
)


def test_marks_matched_terms_case_insensitively() -> None:
    assert render_text("Trigger Effect คือ effect", ["effect"]) == (
        "Trigger <mark>Effect</mark> คือ <mark>effect</mark>"
    )


def test_escapes_text_before_marking() -> None:
    html = render_text('<script>alert("x")</script> Effect', ["Effect", "script"])
    assert html == (
        "&lt;<mark>script</mark>&gt;alert(&#34;x&#34;)&lt;/<mark>script</mark>&gt; "
        "<mark>Effect</mark>"
    )


def test_a_match_that_is_markup_never_becomes_markup() -> None:
    assert render_text("a <b> c", ["<b>"]) == "a <mark>&lt;b&gt;</mark> c"


def test_glossary_term_linked_once_and_marked_when_matched() -> None:
    html = render_text("ร่าย Seal แล้วร่ายอีก", ["ร่าย"], [CAST_LINKER])
    assert html == f"{CAST_A}<mark>ร่าย</mark></a> Seal แล้ว<mark>ร่าย</mark>อีก"


def test_ascii_terms_match_whole_words_only() -> None:
    assert render_text("Broadcast or Cast", (), [CAST_LINKER]) == f"Broadcast or {CAST_A}Cast</a>"


def test_no_self_link_on_the_terms_own_page() -> None:
    assert render_text("ร่าย", (), [CAST_LINKER], self_url=CAST.url) == "ร่าย"


def test_ref_pattern_does_not_match_inside_longer_numbers() -> None:
    pat = ref_pattern(["602.1"])
    assert pat is not None
    assert [m.group(0) for m in pat.finditer("602.1.4 1602.1 ดู 602.1. และ 602.1")] == [
        "602.1",
        "602.1",
    ]


def test_clause_numbers_linked_in_place() -> None:
    t = Term("/rules/vanguard/11.6.1", "11.6.1", "Semakan")
    html = render_text("kalah (11.6.1).", (), [(ref_pattern(["11.6.1"]), {"11.6.1": t})])
    assert html == (
        'kalah (<a class="term ref" href="/rules/vanguard/11.6.1" data-title="11.6.1" '
        'data-preview="Semakan">11.6.1</a>).'
    )


def test_adjacent_marks_join_into_one_word() -> None:
    assert render_text("ผู้เล่นแพ้", ["ผู้", "เล่น", "แพ้"]) == "<mark>ผู้เล่นแพ้</mark>"
    assert render_text("ผู้ เล่น", ["ผู้", "เล่น"]) == "<mark>ผู้</mark> <mark>เล่น</mark>"


def test_a_match_across_a_link_keeps_the_link() -> None:
    html = render_text("การร่ายการ์ด", ["การร่าย"], [CAST_LINKER])
    assert html == f"<mark>การ</mark>{CAST_A}<mark>ร่าย</mark></a>การ์ด"


def test_clause_numbers_and_dates_are_kept_on_one_line_and_escaped():
    from judgekb.service.markup import keep_together

    assert str(keep_together("Ver.1.1.0 (2025-07-24) §3-2-4 <b>")) == (
        'Ver.<span class="nobr">1.1.0</span> (<span class="nobr">2025-07-24</span>) '
        '§<span class="nobr">3-2-4</span> &lt;b&gt;'
    )
    assert str(keep_together("no numbers & 5")) == "no numbers &amp; 5"


def test_a_pipe_table_is_laid_out_and_previewed_without_pipes():
    from judgekb.service.markup import preview, render_text

    text = "Zon\n| | |\n|----|:---|\n| ① Zon Dek | ⑥ Zon Luka |\n| ② <b> | |\nakhir"
    html = str(render_text(text))
    assert html == (
        'Zon\n<span class="tbl"><span class="tr"><span class="td">① Zon Dek</span>'
        '<span class="td">⑥ Zon Luka</span></span><span class="tr"><span class="td">② &lt;b&gt;'
        '</span><span class="td"></span></span></span>akhir'
    )
    assert preview(text) == "Zon ① Zon Dek · ⑥ Zon Luka · ② <b> akhir"
    assert str(render_text("a | b")) == "a | b"  # a pipe inside a sentence is text


def test_a_thai_preview_never_cuts_a_letter_from_its_marks_or_vowels() -> None:
    from judgekb.service.markup import preview

    text = "ก" * 10 + "ที่เข้าเรียน" + "ข" * 200
    for n in range(11, 24):
        cut = preview(text, n).removesuffix("…")
        rest = text[len(cut) :]
        assert text.startswith(cut) and len(cut) <= n
        assert rest[0] not in "\u0e31\u0e32\u0e34\u0e35\u0e36\u0e37\u0e48\u0e49", (n, cut)
        assert cut[-1] not in "เแโใไ", (n, cut)  # a vowel written before its letter
