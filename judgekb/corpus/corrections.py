"""Reviewed OCR term corrections, kept as data in ``judgekb/data/corrections/<doc_id>.toml``.

Some rulebooks print game terms OCR-damaged (One Piece: ``สิตเตอร์`` for ``ลีดเดอร์``
"Leader"; Summoner Master: ``ร้าย`` for ``ร่าย`` "cast"). Each table entry is::

    [[correction]]
    wrong = "ร้าย"               # the damaged form, as printed
    right = "ร่าย"               # what the text means
    pattern = "ร้าย(?!แรง)"      # optional regex; its match is replaced by ``right``
    note = "cast, not 'evil'"   # why: shown to the reader next to the correction
    reviewed = 40               # hits read and confirmed when the entry was written

Without ``pattern`` the literal ``wrong`` is replaced. A pattern carries the context that keeps
real words (``เด็ก`` "child", ``ใน`` "in") untouched, e.g. a lookbehind for a count.
Entries apply in file order. ``raw_text`` is never touched; what changed is recorded on the
clause as :class:`Correction` objects so the display can show it as a correction.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from judgekb.corpus.model import Clause, Correction
from judgekb.corpus.toml_tables import check_keys, entry_error, read_table

logger = logging.getLogger(__name__)

CORRECTIONS_DIR = Path(__file__).resolve().parent.parent / "data" / "corrections"
KEYS = {"wrong", "right", "pattern", "note", "reviewed"}


@dataclass(frozen=True)
class CorrectionRule:
    """One reviewed entry of a table, its pattern compiled."""

    wrong: str
    right: str
    pattern: re.Pattern[str]
    note: str = ""
    reviewed: int = 0


@dataclass(frozen=True)
class CorrectionTable:
    """The corrections of one document, in the order they apply."""

    doc_id: str
    rules: tuple[CorrectionRule, ...] = ()
    path: str = ""


def load_corrections(doc_id: str, directory: Path | None = None) -> CorrectionTable:
    """Read ``<directory>/<doc_id>.toml``; a missing file is an empty table.

    Raises :class:`ManifestError` naming the file and line of a malformed entry.
    """
    path = (directory or CORRECTIONS_DIR) / f"{doc_id}.toml"
    if not path.is_file():
        return CorrectionTable(doc_id)
    entries = read_table(path, "correction")
    rules = tuple(_rule(entry, str(path), line) for entry, line in entries)
    return CorrectionTable(doc_id, rules, str(path))


def _rule(entry: dict, path: str, line: int | None) -> CorrectionRule:
    fail = entry_error("correction", path, line)
    check_keys(entry, KEYS, fail)
    wrong, right = entry.get("wrong"), entry.get("right")
    if not isinstance(wrong, str) or not wrong or not isinstance(right, str):
        raise fail("needs a non-empty string 'wrong' and a string 'right'")
    if not isinstance(entry.get("note", ""), str) or not isinstance(entry.get("reviewed", 0), int):
        raise fail("'note' must be a string and 'reviewed' an integer")
    source = entry.get("pattern", re.escape(wrong))
    try:
        pattern = re.compile(source)
    except (re.error, TypeError) as exc:
        raise fail(f"has an invalid pattern {source!r}: {exc}") from exc
    return CorrectionRule(wrong, right, pattern, entry.get("note", ""), entry.get("reviewed", 0))


def apply_corrections(table: CorrectionTable, text: str) -> tuple[str, tuple[Correction, ...]]:
    """Apply every rule of ``table`` to ``text``; return the new text and the rules that fired."""
    fired: list[Correction] = []
    for rule in table.rules:
        text, count = rule.pattern.subn(rule.right, text)
        if count:
            fired.append(Correction(rule.wrong, rule.right, count, rule.note))
    return text, tuple(fired)


def _merge(*groups: tuple[Correction, ...]) -> tuple[Correction, ...]:
    """Sum the counts of the same correction fired in several fields (title and text)."""
    merged: dict[tuple[str, str, str], int] = {}
    for group in groups:
        for c in group:
            key = (c.wrong, c.right, c.note)
            merged[key] = merged.get(key, 0) + c.count
    return tuple(Correction(w, r, n, note) for (w, r, note), n in merged.items())


def correct_clauses(
    doc_id: str, clauses: Sequence[Clause], table: CorrectionTable | None = None
) -> list[Clause]:
    """Corrected copies of ``clauses`` (title and text); ``raw_text`` untouched."""
    table = table if table is not None else load_corrections(doc_id)
    if not table.rules:
        return list(clauses)
    out: list[Clause] = []
    total = 0
    for clause in clauses:
        text, in_text = apply_corrections(table, clause.text)
        title, in_title = apply_corrections(table, clause.title)
        if not in_text and not in_title:
            out.append(clause)
            continue
        fired = _merge(clause.corrections, in_title, in_text)
        total += sum(c.count for c in in_text + in_title)
        out.append(replace(clause, text=text, title=title, corrections=fired))
    logger.info("%s: %d corrections applied", doc_id, total)
    return out


def correction_counts(
    doc_id: str, clauses: Sequence[Clause], table: CorrectionTable | None = None
) -> dict[str, int]:
    """How often each rule (``wrong -> right``) fires on ``clauses``: a review aid."""
    table = table if table is not None else load_corrections(doc_id)
    counts = {f"{r.wrong} -> {r.right}": 0 for r in table.rules}
    for clause in clauses:
        for field in (clause.title, clause.text):
            for c in apply_corrections(table, field)[1]:
                counts[f"{c.wrong} -> {c.right}"] += c.count
    return counts
