"""Adding an edition re-embeds only its new or changed text: the embedding cache keys on the
passage text, and a passage names its headings by title, not by number (a renumbered clause
embeds as before)."""

from __future__ import annotations

from judgekb.corpus.build import build_corpus
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.store import ClauseStore
from judgekb.index.build import build_index
from tests.editions import Book, book_text, shift, write_editions
from tests.fakes import FakeEmbedder

OP = book_text("op-cr")


def test_a_new_edition_embeds_only_its_changed_clauses(tmp_path):
    new = (
        Book(OP)
        .reword("1-2-3", "ตลอดเวลา", "ทุกเมื่อ")
        .delete("11-3-2")
        .renumber(shift("11-3", 3, -1))
        .renumber(shift("6-5", 3, 1))
        .insert_after("6-5-2", "6-5-3. ประกาศก่อนโจมตี")
    )
    data = tmp_path / "var"
    cache = data / "cache.sqlite"
    first = [("op-0", "V0", "2025-02-12", OP)]
    build_corpus(load_manifest(write_editions(tmp_path / "a", first)), data / "clauses.sqlite")
    before = FakeEmbedder()
    done = build_index(
        ClauseStore(data / "clauses.sqlite"), data / "index", cache, lambda: before, "f"
    )
    assert done.embedded == done.n_clauses == 464
    # each clause's passage and the sentences of a clause of several, where those differ
    assert len(set(before.encoded)) == done.embedded + done.embedded_sentences

    both = [*first, ("op-1", "V1", "2025-09-01", new.text)]
    build_corpus(load_manifest(write_editions(tmp_path / "b", both)), data / "clauses.sqlite")
    after = FakeEmbedder()
    again = build_index(
        ClauseStore(data / "clauses.sqlite"), data / "index", cache, lambda: after, "f"
    )
    assert again.n_clauses == 464 + 464
    # the passage of each changed clause, and the one new sentence: the reworded 1-2-3's
    # first sentence (its second is unchanged, so cached)
    assert (again.embedded, again.embedded_sentences) == (2, 1)
    assert "ผู้เล่นสามารถขอยอมแพ้ได้ทุกเมื่อในระหว่างเกม" in after.encoded
    assert len(after.encoded) == 3
    assert sorted({t.splitlines()[-1] for t in after.encoded}) == [
        "ประกาศก่อนโจมตี",
        "ผู้เล่นสามารถขอยอมแพ้ได้ทุกเมื่อในระหว่างเกม",
        "ผู้เล่นสามารถขอยอมแพ้ได้ทุกเมื่อในระหว่างเกม เมื่อยอมแพ้ ผู้เล่นที่ประกาศขอยอมแพ้จะถูกนับว่าพ่ายแพ้ในเกมนั้นๆ และเกมจะจบลงแต่เพียงเท่านั้น",
    ]
