"""The offline bundle carries the judges' questions, and the phone's keyword search reads them.

The phone has no model, so it cannot compare a question with the judges' questions by meaning
as the server's question view does; it searches their words as a third field instead. Checked
on the tiny books plus one judge's question whose words no clause prints: the bundle holds it
under its clause, its version changes when a question does, and the real offline search
(MiniSearch + static/offline-rules.js in headless Chromium) finds the clause by those words.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judgekb.corpus.questions import Question
from judgekb.corpus.store import ClauseStore, write_store
from judgekb.index.terms import load_default_lexicon
from judgekb.service.offline import bundle_data, bundle_key
from tests.service.browsing import BROWSER
from tests.service.conftest import AMENDMENTS, CLAUSES, DOCS, REFS

STATIC = Path(__file__).resolve().parents[2] / "judgekb/service/static"
# Colloquial Malay: "stok habis" (the stock ran out) is in no clause of the tiny books and in
# no entry of the term tables.
# The offline search over a bundle (its JSON text) in the page: Vanguard clause ids, best first.
SEARCH = """([text, q]) => { const rules = new JudgekbRules.Rules(JSON.parse(text), MiniSearch);
    return rules.search(q, "vanguard", 5).hits.map(h => rules.id(h.i)); }"""
ASKED = Question("vg-cr", "13.1", "chat", "Stok kad habis masa draw, terus kalah ke?", 1)


def _store(tmp_path: Path, questions: list[Question]) -> ClauseStore:
    path = tmp_path / "clauses.sqlite"
    write_store(path, DOCS, CLAUSES, REFS, AMENDMENTS, questions=questions)
    return ClauseStore(path)


@pytest.fixture()
def store(tmp_path: Path) -> ClauseStore:
    return _store(tmp_path, [ASKED])


def test_the_bundle_holds_each_clauses_questions(store: ClauseStore) -> None:
    data = bundle_data(store, {}, load_default_lexicon())
    row = next(
        i for i, c in enumerate(store.clauses()) if (c.doc_id, c.clause_id) == ("vg-cr", "13.1")
    )
    assert data["questions"] == {str(row): ASKED.text}
    assert not any("habis" in c[5].lower() for c in data["clauses"])  # only the question says it


def test_a_changed_question_is_a_new_bundle_version(store: ClauseStore, tmp_path: Path) -> None:
    (tmp_path / "none").mkdir()
    (tmp_path / "reworded").mkdir()
    none = _store(tmp_path / "none", [])
    reworded = _store(tmp_path / "reworded", [replace(ASKED, text="Stok habis, seri ke?")])
    keys = {bundle_key(s, {}) for s in (store, none, reworded)}
    assert len(keys) == 3  # the clauses are the same: only the questions differ


@pytest.mark.browser
@BROWSER[1]
def test_offline_search_finds_a_clause_by_a_judges_question(browser, store) -> None:  # type: ignore[no-untyped-def]
    data = bundle_data(store, {}, load_default_lexicon())
    page = browser.new_page()
    try:
        page.add_script_tag(path=str(STATIC / "vendor/minisearch.js"))
        page.add_script_tag(path=str(STATIC / "offline-rules.js"))
        found = page.evaluate(
            SEARCH,
            [json.dumps(data, ensure_ascii=False), "stok habis"],
        )
        assert found[:1] == ["13.1"]
        without = {**data, "questions": {}}
        found = page.evaluate(
            SEARCH,
            [json.dumps(without, ensure_ascii=False), "stok habis"],
        )
        assert "13.1" not in found[:1]  # the book's own words do not say it
    finally:
        page.close()


@pytest.mark.browser
@BROWSER[1]
def test_the_index_warms_in_steps_and_a_search_need_not_wait(browser, store) -> None:  # type: ignore[no-untyped-def]
    """warm() builds the index in steps (the page stays free between them); a search made
    before the last step adds what is left at once, to the same index; both give the same hits."""
    data = json.dumps(bundle_data(store, {}, load_default_lexicon()), ensure_ascii=False)
    page = browser.new_page()
    try:
        page.add_script_tag(path=str(STATIC / "vendor/minisearch.js"))
        page.add_script_tag(path=str(STATIC / "offline-rules.js"))
        got = page.evaluate(
            """async text => {
                const ids = (r, q) => r.search(q, null, 5).hits.map(h => r.id(h.i));
                const warmed = new JudgekbRules.Rules(JSON.parse(text), MiniSearch);
                const pending = warmed.warm();
                const before = warmed.index === undefined || warmed.index === null;
                const index = await pending;
                let made = 0;
                class Counted extends MiniSearch { constructor(o) { super(o); made += 1; } }
                const early = new JudgekbRules.Rules(JSON.parse(text), Counted);
                const racing = early.warm();
                const first = ids(early, "stok habis");  // before warm() is done
                const built = early.index;
                await racing;
                return {before, same: index === warmed.index, kept: early.index === built,
                        warmed: ids(warmed, "stok habis"), first, clauses: early.c.length,
                        counts: [warmed.index.documentCount, early.index.documentCount], made};
            }""",
            data,
        )
        assert got["before"] and got["same"] and got["kept"]
        # the early search finished the steps' own index: every clause in it once
        assert got["counts"] == [got["clauses"], got["clauses"]]
        assert got["made"] == 1  # no second index: nothing built twice on the phone
        assert got["warmed"][:1] == got["first"][:1] == ["13.1"]
    finally:
        page.close()
