"""The answer card on the tiny store with the real Searcher: the /api/answer contract, what
the card holds, the book's problems in the judge's language, defined terms, card metrics."""

from __future__ import annotations

from judgekb.corpus.model import Clause
from judgekb.eval.card import card_ids, shown_ids
from judgekb.service.definitions import defining_names
from judgekb.service.i18n import note_text

ANSWER_KEYS = {
    "game", "doc", "clause_id", "kind", "title", "lang", "text", "answer_sentences",
    "answer_spans", "citation", "url", "document", "context", "refs", "cited_by",
    "definitions", "versions", "notes", "raw_text", "rulings", "heading",
}  # fmt: skip


def test_api_answer_contract(client) -> None:
    body = client.get("/api/answer", params={"q": "ข้อ 602.1.4 ว่าไว้ยังไง"}).json()
    assert set(body) == {
        "ok", "query", "took_ms", "confidence", "answer", "alternatives", "ambiguous_games",
        "elsewhere",
    }  # fmt: skip
    assert (body["ok"], body["confidence"]) == (True, "high")
    a = body["answer"]
    assert set(a) == ANSWER_KEYS
    assert (a["game"], a["doc"], a["clause_id"]) == ("summoner-master", "sm-2014", "602.1.4")
    assert a["text"] == "เมื่อผู้เล่นร่าย Seal ให้ตรวจสอบเงื่อนไขของ Trigger Effect"
    assert a["answer_sentences"] == [a["text"]]  # one sentence: all of it
    assert a["citation"] == (
        "Summoner Master — Summoner Master Complete Rulebook (Update 2014-01, 2014-01-01) §602.1.4"
    )
    assert a["url"] == "/rules/summoner-master/602.1.4?edition=Update+2014-01"
    assert [(x["relation"], x["clause_id"]) for x in a["context"]] == [
        ("parent", "602"),
        ("parent", "602.1"),
    ]
    assert a["context"][1]["text"] == "Trigger Effect คือ Effect ที่เริ่มทำงานเมื่อเงื่อนไขครบ ดู 602.1.4"
    assert a["cited_by"] == [{"clause_id": "602.1", "doc": "sm-2014"}]
    # the decree clause whose wording it replaced, dated; the glossary term it prints
    assert [(v["doc"], v["clause_id"], v["relation"], v["date"]) for v in a["versions"]] == [
        ("sm-decree-2009", "610.1", "earlier", "2009-07-25")
    ]
    assert [(d["term"], d["clause_id"]) for d in a["definitions"]] == [("ร่าย", "glossary/cast")]
    assert a["notes"] == [
        {
            "kind": "repaired",
            "message": "Extraction damage in this text was repaired; the original is shown "
            "with it.",
        }
    ]
    assert a["raw_text"] == "เมือ่ผูเ้ลน่ร่าย Seal ให้ตรวจสอบเงือ่นไขของ Trigger Effect"
    assert len(body["alternatives"]) >= 3
    shown = {(a["doc"], x["clause_id"]) for x in (a, *a["context"])}
    # nor anything else the card shows: the definition it links, the decree wording
    shown |= {(x["doc"], x["clause_id"]) for x in (*a["definitions"], *a["versions"])}
    assert ("sm-decree-2009", "610.1") in shown
    assert not shown & {(x["doc"], x["clause_id"]) for x in body["alternatives"]}


def test_the_citation_and_notes_follow_the_judges_language(client) -> None:
    th = client.get("/api/answer", params={"q": "602.1.4", "lang": "th"}).json()["answer"]
    assert th["citation"].endswith("(Update 2014-01, 2014-01-01) ข้อ 602.1.4")
    assert th["notes"][0]["message"].startswith("ข้อความนี้ได้รับการซ่อม")
    vg = client.get("/api/answer", params={"q": "13.1", "game": "vanguard", "lang": "ms"})
    assert vg.json()["answer"]["citation"] == (
        "Cardfight!! Vanguard — Cardfight!! Vanguard Peraturan Komprehensif "
        "(Malay edition, tarikh tidak dicetak) §13.1"
    )


def test_an_empty_lang_is_the_default_as_an_empty_game_is(client) -> None:
    r = client.get("/api/answer", params={"q": "602.1.4", "lang": "", "game": ""})
    assert r.status_code == 200 and r.json()["answer"]["clause_id"] == "602.1.4"
    bad = client.get("/api/answer", params={"q": "602.1.4", "lang": "xx"})
    assert bad.status_code == 422 and bad.json()["field"] == "lang"


def test_nonsense_gets_no_card(client) -> None:
    body = client.get("/api/answer", params={"q": "asdkjh qwe zzz"}).json()
    assert (body["confidence"], body["answer"]) == ("none", None)
    html = client.get("/search", params={"q": "asdkjh qwe zzz"}).text
    assert '<h2 id="card-head" class="no-match">No clear match.</h2>' in html
    assert (
        "<p>Try the words the rulebook uses, name the game, or type a clause number "
        "(e.g. 602.1.4).</p>"
    ) in html
    assert "answer-text" not in html


def test_lint_notes_in_each_language() -> None:
    params = {"intended": "7.35.1", "parent": "7.35"}
    assert note_text("en", "misprint", params, "x") == (
        "The book prints this number for what is probably §7.35.1: read it as §7.35.1."
    )
    assert note_text("th", "misprint", params, "x") == (
        "ในกฎพิมพ์เลขข้อนี้ แต่น่าจะหมายถึงข้อ 7.35.1 ให้อ่านเป็นข้อ 7.35.1"
    )
    assert note_text("ms", "misprint", params, "x") == (
        "Buku mencetak nombor ini bagi apa yang mungkin §7.35.1: bacalah sebagai §7.35.1."
    )
    # a finding stored without its facts, or of an unknown kind: the English as printed
    assert note_text("th", "misprint", {}, "7.46.1 is probably 7.35.1") == (
        "7.46.1 is probably 7.35.1"
    )
    assert note_text("ms", "new-kind", {}, "as printed") == "as printed"


def test_keyword_headings_and_glossary_entries_define_terms() -> None:
    def clause(kind: str, title: str, aliases: tuple[str, ...] = ()) -> Clause:
        return Clause("d", "1", None, kind, title, title, title, "th", 1, 0, aliases=aliases)

    assert defining_names(clause("clause", "[ดับเบิลแอทแทค]")) == ("[ดับเบิลแอทแทค]", "ดับเบิลแอทแทค")
    assert defining_names(clause("clause", "《รีแพร์》")) == ("《รีแพร์》", "รีแพร์")
    assert defining_names(clause("glossary", "Cast / ร่าย", ("Cast", "ร่าย", "Lv"))) == (
        "Cast / ร่าย",
        "Cast",
        "ร่าย",
    )  # "Lv": too short to link
    assert defining_names(clause("clause", "การโจมตี")) == ()


def test_card_ids_count_what_a_judge_sees() -> None:
    card = {
        "answer": {
            "game": "g",
            "clause_id": "1",
            "context": [{"clause_id": "0"}],
            "refs": [{"clause_id": "9"}],
        },
        "alternatives": [{"game": "g", "clause_id": c} for c in ("2", "3", "4", "5")],
    }
    assert card_ids(card) == [("g", c) for c in ("1", "0", "9", "2", "3", "4")]
    assert card_ids({"answer": None, "alternatives": card["alternatives"]}) == [
        ("g", "2"),
        ("g", "3"),
        ("g", "4"),
    ]
    # beside the bar: also the definitions and other wordings shown with the answer
    card["answer"] |= {
        "definitions": [{"clause_id": "glossary/x"}],
        "versions": [{"clause_id": "7"}],
    }
    assert shown_ids(card) == [*card_ids(card), ("g", "glossary/x"), ("g", "7")]


def test_a_rule_with_sub_clauses_shows_them_under_it(client) -> None:
    """602.1 is a rule with text of its own (not a heading); its sub-clause 602.1.4 holds the
    detail a judge reads next, so the card shows it below, folded."""
    a = client.get("/api/answer", params={"q": "602.1"}).json()["answer"]
    assert a["clause_id"] == "602.1"
    assert ("child", "602.1.4") in [(x["relation"], x["clause_id"]) for x in a["context"]]
    assert a["context"][0]["relation"] == "parent"
