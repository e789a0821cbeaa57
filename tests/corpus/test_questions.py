"""The judges' questions of the question view: parsed line by line, a bad line reported with
its file and line and skipped, the rest kept; found through the manifest; stored and read back."""

from __future__ import annotations

import json

from judgekb.corpus.questions import Question, QuestionProblem, load_questions, parse_questions
from judgekb.corpus.store import ClauseStore, write_store
from tests.fakes import tiny_corpus


def _line(**kw: object) -> str:
    return json.dumps(kw, ensure_ascii=False)


def test_valid_lines_become_questions_with_their_line_numbers():
    lines = [
        _line(clause_id="1.1", style="chat", question="dua2  kalah,  seri ke?"),
        "",
        _line(clause_id="1.2", style="en", question="Do I draw a card?"),
    ]
    found, problems = parse_questions(lines, "ms-doc", "q.jsonl", ["1.1", "1.2"])
    assert problems == []
    assert found == [
        Question("ms-doc", "1.1", "chat", "dua2 kalah, seri ke?", 1),
        Question("ms-doc", "1.2", "en", "Do I draw a card?", 3),
    ]


def test_each_bad_line_is_named_and_skipped_and_the_rest_kept():
    lines = [
        "{not json",
        _line(clause_id="1.1", style="slang", question="x?"),
        _line(clause_id="9.9", style="plain", question="what?"),
        _line(clause_id="1.1", style="plain", question="Siapa menang?"),
        _line(clause_id="1.1", style="plain", question="Siapa  menang?"),
        _line(clause_id="1.1", style="plain"),
        _line(clause_id="1.1", style="plain", question="x" * 301),
        _line(clause_id="1.1", style="plain", question="ok?", extra=1),
    ]
    found, problems = parse_questions(lines, "ms-doc", "q.jsonl", ["1.1"])
    assert [q.line for q in found] == [4]
    assert [(p.line, p.message) for p in problems] == [
        (1, "invalid JSON (Expecting property name enclosed in double quotes)"),
        (2, "style 'slang'; expected one of plain, chat, en, ms, th"),
        (3, "ms-doc prints no clause '9.9'"),
        (5, "the same question about the same clause is already listed"),
        (6, "missing key(s): question"),
        (7, "question longer than 300 characters"),
        (8, "unknown key(s): extra"),
    ]
    assert str(problems[2]) == "q.jsonl:3: ms-doc prints no clause '9.9' (line skipped)"


def test_load_reads_each_documents_file_and_a_missing_file_has_none(tmp_path):
    path = tmp_path / "ms-doc.jsonl"
    path.write_text(_line(clause_id="1.1", style="plain", question="Seri?") + "\n", "utf-8")
    (tmp_path / "bad.jsonl").write_bytes(b"\xff\xfe")
    files = {"ms-doc": path, "th-doc": tmp_path / "absent.jsonl", "x": tmp_path / "bad.jsonl"}
    found, problems = load_questions(files, {"ms-doc": ["1.1"], "x": []})
    assert found == [Question("ms-doc", "1.1", "plain", "Seri?", 1)]
    assert len(problems) == 1 and problems[0].line == 0
    assert "unreadable" in problems[0].message and problems[0].path.endswith("bad.jsonl")


def test_the_store_keeps_the_questions_in_order(tmp_path):
    docs, clauses, refs, amends = tiny_corpus()
    asked = [
        Question("ms-doc", "1.2", "chat", "tarik kad brp?", 1),
        Question("th-doc", "100.1", "plain", "แพ้พร้อมกันเสมอไหม", 1),
    ]
    write_store(tmp_path / "c.sqlite", docs, clauses, refs, amends, questions=asked)
    assert ClauseStore(tmp_path / "c.sqlite").questions() == asked


def test_a_problem_prints_its_place():
    assert str(QuestionProblem("a.jsonl", 2, "bad")) == "a.jsonl:2: bad (line skipped)"


def test_a_build_stores_a_books_questions_and_reports_the_bad_lines(tmp_path):
    """Through the manifest (questions/<doc_id>.jsonl beside it by default): the good lines
    reach the store and the question view; a bad line is named in the build's report."""
    from judgekb.corpus.manifest import load_manifest
    from judgekb.index.generation import current
    from judgekb.index.rebuild import build_all
    from tests.fakes import FakeEmbedder
    from tests.tinybooks import settings, write_books

    manifest = write_books(tmp_path)
    folder = tmp_path / "questions"
    folder.mkdir()
    (folder / "vg-tiny.jsonl").write_text(
        _line(clause_id="1.2.2", style="chat", question="aku kalah ke?")
        + "\n"
        + _line(clause_id="9.9.9", style="en", question="a clause it does not print?")
        + "\n",
        encoding="utf-8",
    )
    assert load_manifest(manifest).questions["vg-tiny"] == folder / "vg-tiny.jsonl"
    report = build_all(settings(tmp_path), embedder_factory=FakeEmbedder)
    assert f"questions: {folder / 'vg-tiny.jsonl'}:2: vg-tiny prints no clause '9.9.9'" in report
    gen = current(tmp_path / "var")
    assert gen is not None
    store = ClauseStore(gen.store_path)
    assert store.questions() == [Question("vg-tiny", "1.2.2", "chat", "aku kalah ke?", 1)]
