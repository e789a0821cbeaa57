"""Reviewed known problems of a book, kept as data in ``judgekb/data/errata/<doc_id>.toml``.

The lint (:mod:`judgekb.corpus.lint`) finds what a rule can find: gaps, misprinted numbers,
references to clauses the book does not print. A reader finds the rest: a clause that cites
the wrong neighbour, two clauses that contradict each other, a list that says 25 and prints
26. Each entry is one such problem, read and confirmed in the book::

    [[erratum]]
    clause = "703.6"
    kind = "wrong-ref"          # wrong-ref | contradiction | missing-text | stray-text |
                                # wrong-term | truncated
    quote = "703.5"             # printed in the clause: the entry holds while this does
    en = "This clause cites 703.5, probably meaning 703.4 ..."
    th = "..."                  # the same note in Thai
    ms = "..."                  # and in Malay
    checked = "what the reviewer read to confirm it"

An erratum becomes a lint finding with code ``reviewed`` on its clause, so the answer card and
the clause page show it in the judge's language like any other known problem. The clause text
is never changed. An entry whose clause is gone or whose ``quote`` the clause no longer prints
(a new edition fixed it) is not shown; the build reports it as stale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from judgekb.corpus.model import Clause, LintFinding
from judgekb.corpus.toml_tables import check_keys, entry_error, read_table

ERRATA_DIR = Path(__file__).resolve().parent.parent / "data" / "errata"
CODE = "reviewed"  # the lint code of a reviewed erratum
LANGS = ("en", "th", "ms")
KINDS = ("wrong-ref", "contradiction", "missing-text", "stray-text", "wrong-term", "truncated")
KEYS = {"clause", "kind", "quote", "checked", *LANGS}


@dataclass(frozen=True)
class Erratum:
    """One reviewed problem of one clause, with its note in every page language."""

    clause_id: str
    kind: str
    quote: str
    notes: tuple[tuple[str, str], ...]  # (lang, message) for each of LANGS
    checked: str
    line: int | None  # the entry's line in its file
    path: str

    def finding(self, doc_id: str, clause: Clause) -> LintFinding:
        """The lint finding the store keeps and the pages show."""
        return LintFinding(
            doc_id,
            CODE,
            self.clause_id,
            clause.line,
            f"reviewed ({self.kind}): {dict(self.notes)['en']}",
            (("kind", self.kind), *self.notes),
        )

    def where(self) -> str:
        return self.path + (f":{self.line}" if self.line is not None else "")


def load_errata(doc_id: str, directory: Path | None = None) -> tuple[Erratum, ...]:
    """Read ``<directory>/<doc_id>.toml``; a missing file is no errata.

    Raises :class:`ManifestError` naming the file and line of a malformed entry.
    """
    path = (directory or ERRATA_DIR) / f"{doc_id}.toml"
    if not path.is_file():
        return ()
    return tuple(_erratum(entry, str(path), line) for entry, line in read_table(path, "erratum"))


def _erratum(entry: dict, path: str, line: int | None) -> Erratum:
    fail = entry_error("erratum", path, line)
    check_keys(entry, KEYS, fail)
    for key in ("clause", "quote", *LANGS):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise fail(f"needs a non-empty string {key!r}")
    if entry.get("kind") not in KINDS:
        raise fail(f"'kind' is {entry.get('kind')!r}; known: {', '.join(KINDS)}")
    if not isinstance(entry.get("checked", ""), str):
        raise fail("'checked' must be a string")
    notes = tuple((lang, " ".join(entry[lang].split())) for lang in LANGS)
    return Erratum(
        entry["clause"], entry["kind"], entry["quote"], notes, entry.get("checked", ""), line, path
    )


def errata_findings(
    doc_id: str, clauses: Sequence[Clause], errata: Sequence[Erratum]
) -> tuple[list[LintFinding], list[str]]:
    """The findings of the errata that still hold, and a message for each stale one."""
    by_id = {c.clause_id: c for c in clauses}
    found: list[LintFinding] = []
    stale: list[str] = []
    for e in errata:
        clause = by_id.get(e.clause_id)
        if clause is None:
            stale.append(f"{e.where()}: {doc_id} prints no clause {e.clause_id}")
        elif e.quote not in clause.raw_text and e.quote not in clause.text:
            stale.append(f"{e.where()}: {doc_id} {e.clause_id} no longer prints {e.quote!r}")
        else:
            found.append(e.finding(doc_id, clause))
    return found, stale
