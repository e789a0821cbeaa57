"""Lint on fixtures and on the real corpus (the anomalies a careful reader finds)."""

from __future__ import annotations

from judgekb.corpus.lint import find_lost_icons, lint_document, title_score
from judgekb.corpus.model import Clause
from judgekb.corpus.refs import extract_refs
from tests.corpus.test_segment import parse
from tests.corpus.test_segment_corpus import parsed_without_repair


def lint(parsed):
    refs = extract_refs(parsed.document, parsed.clauses)
    return [(f.code, f.clause_id, f.line) for f in lint_document(parsed, refs)]


def test_fixture_bahagian_findings():
    assert lint(parse("tiny_bahagian_ms.txt", "bahagian", "ms")) == [
        ("gap", "1.2.3", 18),
        ("misprint", "2.1.15", 26),
        ("misprint", "2.9.1", 34),
        ("out-of-order", "2.1.15", 26),
        ("out-of-order", "2.3.2", 38),
        ("missing-ref", "2.3.1", 39),
        ("ref-title-mismatch", "1.1.2", 12),
    ]


def test_fixture_dotted_findings():
    assert lint(parse("tiny_dotted_th.txt", "dotted")) == [
        ("missing-ref", "100.2.1", 12),
        ("missing-ref", "200.1.1", 31),
    ]


def test_title_score():
    assert (
        title_score("Proses Pengurusan Kelukaan", "lakukan proses perurusan kelukaan (", "") > 0.9
    )
    assert (
        title_score("Proses Penyelesaian Kelukaan", "lakukan proses perurusan kelukaan (", "") < 0.8
    )


def test_real_vanguard_findings():
    parsed = parsed_without_repair("vg-cr")
    findings = [f for f in lint(parsed) if f[0] != "lost-icon"]  # their own test, below
    assert findings == [
        ("gap", "11.9", 1081),
        ("missing-parent", "11.9", 1084),
        ("misprint", "7.46.1", 611),
        ("misprint", "11.9.15", 1059),
        ("out-of-order", "11.9.1", 1084),
        ("out-of-order", "17", 1442),
        ("missing-ref", "7.5.4.1.1", 461),
        ("ref-title-mismatch", "2.9.2.2", 160),
        ("ref-title-mismatch", "5.1.3.1", 368),
        ("ref-title-mismatch", "17.4.2", 1439),
        # the card diagram's legend (① Nama …) before Bahagian 2, and 17.1.1.2's loop example
        ("misplaced-text", "1.3.7.4", 67),
        ("misplaced-text", "16.5.3", 1416),
    ]
    refs = extract_refs(parsed.document, parsed.clauses)
    (msg,) = [f.message for f in lint_document(parsed, refs) if f.clause_id == "17.4.2"]
    assert msg == (
        "17.4.2 cites 13.6 ('Proses Penyelesaian Kelukaan') but its words name "
        "13.5 ('Proses Pengurusan Kelukaan')"
    )
    homes = {f.clause_id: dict(f.params)["home"] for f in lint_document(parsed, refs)
             if f.code == "misplaced-text"}  # fmt: skip
    assert homes == {"1.3.7.4": "2", "16.5.3": "17.1.1.2"}


def test_real_summoner_master_and_one_piece_findings():
    assert lint(parsed_without_repair("sm-2014")) == [
        ("missing-ref", "glossary/ability-เมื่อเข้ามาในสนาม", 1991)
    ]
    assert lint(parsed_without_repair("op-cr")) == [("misprint", "4-2-1-1", 216)]
    assert lint(parsed_without_repair("gundam-cr")) == []


def test_an_example_moved_under_another_rule_is_found_with_its_home():
    """The examples the book prints under their own rules stay unflagged (Vanguard prints 26;
    only 16.5.3's loop example is flagged, above); 1.3.7.2's example moved under a token rule
    is found, and 1.3.7.2 named as its home."""
    from dataclasses import replace

    from judgekb.corpus.misplaced import find_misplaced

    clauses = list(parsed_without_repair("vg-cr").clauses)
    assert [f.clause_id for f in find_misplaced("vg-cr", clauses)] == ["1.3.7.4", "16.5.3"]
    at = {c.clause_id: n for n, c in enumerate(clauses)}
    src, dst = clauses[at["1.3.7.2"]], clauses[at["15.1.2.3.1"]]
    own, example = src.text.split("\n")
    clauses[at["1.3.7.2"]] = replace(src, text=own)
    clauses[at["15.1.2.3.1"]] = replace(dst, text=dst.text.split("\n")[0] + "\n" + example)
    homes = {f.clause_id: dict(f.params)["home"] for f in find_misplaced("vg-cr", clauses)}
    assert homes == {"1.3.7.4": "2", "16.5.3": "17.1.1.2", "15.1.2.3.1": "1.3.7.2"}


def _ms(cid: str, text: str) -> Clause:
    return Clause("vg-cr", cid, None, "clause", "", text, text, "ms", 1)


def test_a_lost_icon_is_the_word_icon_then_nothing() -> None:
    clauses = [
        _ms("1", "Dalam teks, kuasa mungkin ditunjukkan oleh ikon"),  # end of the text
        _ms("2", "- 2.10.1.1. Kad dengan ikon  mempunyai kebolehan boost."),  # two spaces
        _ms("3", "Ini ditunjukkan oleh ikon .\nBaris seterusnya."),  # space, full stop
        _ms("4", "kebolehan yang sepadan dengan ikon."),  # a sentence ending on the word
        _ms("5", "kad dengan ikon trigger diletakkan"),
        _ms("6", "tiada ikonografi  di sini"),
        _ms("7", "Card with the icon\nhas Boost."),  # end of a line
    ]
    found = find_lost_icons("vg-cr", clauses)
    assert [f.clause_id for f in found] == ["1", "2", "3", "7"]
    assert all(f.code == "lost-icon" for f in found)
    assert "Kad dengan ikon" in found[1].message


def test_real_vanguard_lost_icons() -> None:
    found = [f[1] for f in lint(parsed_without_repair("vg-cr")) if f[0] == "lost-icon"]
    assert found[:3] == ["2.5.2", "2.6.2", "2.7.2"]
    assert {"2.10.1.1", "2.10.1.4", "7.22.1", "7.25.1", "14.14.1.1"} <= set(found)
    assert "2.13.1" not in found  # "… sepadan dengan ikon." ends a sentence
    assert len(found) == 28
