"""Judges' questions about each clause: the *question view*, kept as data beside the books.

Judges ask in everyday words ("ถ้าเด็คหมดตอนจั่ว แพ้เลยไหม", "boleh tak aku guard guna grade
3?"); the books answer in formal ones. For every clause worth asking about, a
JSON Lines file (``judgekb/data/questions/<doc_id>.jsonl``; a manifest entry's ``questions``
key names another, relative to the manifest) holds a few questions that clause answers, one JSON
object per line::

    {"clause_id": "1.2.1.1", "style": "chat", "question": "deck habis masa draw, terus kalah ke?"}

``style`` is ``plain`` (the book's language, ordinary wording), ``chat`` (as judges type it:
slang, abbreviations, English game words), ``en`` (English), or ``ms`` / ``th`` (Malay or
Thai about a book in the other language: Malaysian judges run One Piece, Gundam and Summoner
Master events too, and Thai judges Vanguard ones). The questions were written
from the rulebooks alone, never from the evaluation questions; ``scripts/check_questions.py``
checks them against the books. The search compares a judge's question with them
(:mod:`judgekb.index.question_view`); a later edition of a family inherits them through the
clauses' stable keys.

A malformed line, an unknown style or a clause the document does not print is reported with
its file and line and skipped; the rest of the file still counts.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from judgekb.corpus.jsonl import json_lines

log = logging.getLogger(__name__)

QUESTION_STYLES = ("plain", "chat", "en", "ms", "th")
MAX_QUESTION_CHARS = 300
KEYS = {"clause_id", "style", "question"}

# The store's table of questions (written by judgekb.corpus.store with the clauses).
SCHEMA = """
CREATE TABLE questions (
    doc_id TEXT NOT NULL, clause_id TEXT NOT NULL, style TEXT NOT NULL, text TEXT NOT NULL,
    line INTEGER NOT NULL);
CREATE INDEX questions_clause ON questions(doc_id, clause_id);
"""


@dataclass(frozen=True)
class Question:
    """One judge's question that a clause answers."""

    doc_id: str
    clause_id: str
    style: str  # one of QUESTION_STYLES
    text: str
    line: int  # 1-based line in its file

    def lang(self, book_lang: str) -> str:
        """The language the question is written in: its style names it ("en", "ms", "th"),
        or it is a plain or chatty question in its book's language (``book_lang``)."""
        return self.style if self.style in ("en", "ms", "th") else book_lang


@dataclass(frozen=True)
class QuestionProblem:
    """A line of a question file that was skipped, and why."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message} (line skipped)"


def _problem(obj: object) -> str | None:
    """Why a parsed line is not a question, or None."""
    if not isinstance(obj, dict):
        return "each line must be a JSON object"
    missing = sorted(KEYS - set(obj))
    if missing:
        return f"missing key(s): {', '.join(missing)}"
    unknown = sorted(set(obj) - KEYS)
    if unknown:
        return f"unknown key(s): {', '.join(unknown)}"
    if obj["style"] not in QUESTION_STYLES:
        return f"style {obj['style']!r}; expected one of {', '.join(QUESTION_STYLES)}"
    for key in ("clause_id", "question"):
        if not isinstance(obj[key], str) or not obj[key].strip():
            return f"{key!r} must be a non-empty string"
    if len(obj["question"]) > MAX_QUESTION_CHARS:
        return f"question longer than {MAX_QUESTION_CHARS} characters"
    return None


def parse_questions(
    lines: Iterable[str], doc_id: str, source: str, clause_ids: Iterable[str] | None = None
) -> tuple[list[Question], list[QuestionProblem]]:
    """The valid questions of a file's lines, and a problem for every other non-blank line.

    With ``clause_ids``, a question about a clause the document does not print is a problem.
    """
    known = set(clause_ids) if clause_ids is not None else None
    out: list[Question] = []
    problems: list[QuestionProblem] = []
    seen: set[tuple[str, str]] = set()
    for line in json_lines(lines):
        n, obj = line.lineno, line.value
        if line.error is not None:
            problems.append(QuestionProblem(source, n, line.error))
            continue
        why = _problem(obj)
        if why is None and known is not None and obj["clause_id"] not in known:
            why = f"{doc_id} prints no clause {obj['clause_id']!r}"
        text = " ".join(obj["question"].split()) if why is None else ""
        if why is None and (obj["clause_id"], text) in seen:
            why = "the same question about the same clause is already listed"
        if why is not None:
            problems.append(QuestionProblem(source, n, why))
            continue
        seen.add((obj["clause_id"], text))
        out.append(Question(doc_id, obj["clause_id"], obj["style"], text, n))
    return out, problems


def load_questions(
    files: Mapping[str, Path], clause_ids: Mapping[str, Iterable[str]]
) -> tuple[list[Question], list[QuestionProblem]]:
    """The question files of the documents in ``files`` (doc_id -> path; a missing file has
    no questions), checked against the clauses each document prints."""
    out: list[Question] = []
    problems: list[QuestionProblem] = []
    for doc_id, path in files.items():
        if not path.is_file():
            continue
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(QuestionProblem(str(path), 0, f"unreadable ({exc})"))
            continue
        found, bad = parse_questions(lines, doc_id, str(path), clause_ids.get(doc_id, ()))
        out += found
        problems += bad
    for p in problems:
        log.warning("%s", p)
    return out, problems


def question_rows(questions: Sequence[Question]) -> list[tuple]:
    """The store's rows of ``questions`` (as inserted, and as the store digest hashes them)."""
    return [(q.doc_id, q.clause_id, q.style, q.text, q.line) for q in questions]
