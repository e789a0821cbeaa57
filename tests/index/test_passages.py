"""What each clause is indexed as: heading path + title + text, without sentence-long 'titles'."""

from __future__ import annotations

from judgekb.corpus.model import Clause
from judgekb.index.passages import MAX_HEADING_CHARS, heading_paths, passage_text


def _clause(cid: str, parent: str | None, title: str, text: str, kind: str = "clause") -> Clause:
    return Clause("op", cid, parent, kind, title, text, text, "th", 1)


RULE_AS_TITLE = "ในช่วงเมนเฟส ผู้เล่นเจ้าของเทิร์นสามารถเรสต์ลีดเดอร์การ์ดที่กำลังแอคทีฟอยู่บนลีดเดอร์แอเรียของตน"

CLAUSES = [
    _clause("7", None, "การโจมตีและแบทเทิล", "", "chapter"),
    _clause("7-1", "7", RULE_AS_TITLE, "", "section"),
    _clause("7-1-1", "7-1", "แอทแทคสเตป", "", "section"),
    _clause("7-1-1-1", "7-1-1", "", "เรสต์การ์ดและประกาศการโจมตี"),
]


def test_heading_paths_run_root_first():
    paths = heading_paths(CLAUSES)
    assert paths[("op", "7-1-1-1")] == (
        "7 การโจมตีและแบทเทิล",
        f"7-1 {RULE_AS_TITLE}",
        "7-1-1 แอทแทคสเตป",
    )
    assert paths[("op", "7")] == ()


def test_passage_keeps_real_headings_and_drops_a_rule_taken_as_title():
    assert len(RULE_AS_TITLE) >= MAX_HEADING_CHARS
    paths = heading_paths(CLAUSES)
    text = passage_text(CLAUSES[3], paths[("op", "7-1-1-1")])
    assert text == "การโจมตีและแบทเทิล > แอทแทคสเตป\nเรสต์การ์ดและประกาศการโจมตี"


def test_passage_of_a_heading_is_its_title():
    assert passage_text(CLAUSES[2], ("7 การโจมตีและแบทเทิล",)) == "การโจมตีและแบทเทิล\nแอทแทคสเตป"
