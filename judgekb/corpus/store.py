"""The SQLite clause store: written atomically, read through :class:`ClauseStore`."""

from __future__ import annotations

import difflib
import hashlib
import json
import logging
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from judgekb.corpus.edition_store import LINEAGE_TABLES, lineage_rows
from judgekb.corpus.edition_store import SCHEMA as EDITION_SCHEMA
from judgekb.corpus.editions import current_first
from judgekb.corpus.model import (
    AmendmentLink,
    Clause,
    Correction,
    CrossRef,
    Document,
    LintFinding,
)
from judgekb.corpus.questions import SCHEMA as QUESTION_SCHEMA
from judgekb.corpus.questions import Question, question_rows
from judgekb.errors import ClauseNotFound, StoreError, UnknownDocument, UnknownGame

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from judgekb.corpus.lineage import Lineage

# 2: documents.family and the edition tables; 3: findings.params; 4: questions
SCHEMA_VERSION = "4"
SCHEMA = (
    """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents (
    doc_id TEXT PRIMARY KEY, game TEXT NOT NULL, game_name TEXT NOT NULL, title TEXT NOT NULL,
    lang TEXT NOT NULL, version TEXT NOT NULL, effective_date TEXT NOT NULL, kind TEXT NOT NULL,
    source TEXT NOT NULL, amends TEXT, ord INTEGER NOT NULL, family TEXT NOT NULL);
CREATE TABLE clauses (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id), clause_id TEXT NOT NULL, parent_id TEXT,
    kind TEXT NOT NULL, title TEXT NOT NULL, text TEXT NOT NULL, raw_text TEXT NOT NULL,
    lang TEXT NOT NULL, line INTEGER NOT NULL, seq INTEGER NOT NULL, provenance TEXT NOT NULL,
    repaired INTEGER NOT NULL, alt_raw_text TEXT NOT NULL, aliases TEXT NOT NULL,
    corrections TEXT NOT NULL, PRIMARY KEY (doc_id, clause_id));
CREATE INDEX clauses_parent ON clauses(doc_id, parent_id);
CREATE TABLE aliases (doc_id TEXT NOT NULL, clause_id TEXT NOT NULL, alias TEXT NOT NULL);
CREATE INDEX aliases_alias ON aliases(alias COLLATE NOCASE);
CREATE TABLE refs (
    doc_id TEXT NOT NULL, src_id TEXT NOT NULL, written TEXT NOT NULL, context TEXT NOT NULL,
    target_id TEXT, reason TEXT NOT NULL);
CREATE INDEX refs_src ON refs(doc_id, src_id);
CREATE INDEX refs_target ON refs(doc_id, target_id);
CREATE TABLE amendments (
    amend_doc TEXT NOT NULL, amend_id TEXT NOT NULL, target_doc TEXT NOT NULL, target_id TEXT,
    score REAL NOT NULL, note TEXT NOT NULL);
CREATE TABLE findings (
    doc_id TEXT NOT NULL, code TEXT NOT NULL, clause_id TEXT NOT NULL, line INTEGER NOT NULL,
    message TEXT NOT NULL, params TEXT NOT NULL);
CREATE INDEX findings_clause ON findings(doc_id, clause_id);
CREATE TABLE build_errors (doc_id TEXT NOT NULL, message TEXT NOT NULL);
"""
    + EDITION_SCHEMA
    + QUESTION_SCHEMA
)


def _stat(path: Path) -> tuple[int, int, int]:
    try:
        st = path.stat()
    except OSError:
        return (0, 0, 0)
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def corpus_hash(clauses: Iterable[Clause]) -> str:
    """A hash of every clause's identity and searchable text: the index records it."""
    h = hashlib.sha256()
    for c in sorted(clauses, key=lambda c: (c.doc_id, c.clause_id)):
        h.update(f"{c.doc_id}\x1f{c.clause_id}\x1f{c.title}\x1f{c.text}\x1e".encode())
    return h.hexdigest()


def write_store(
    path: Path,
    documents: Sequence[Document],
    clauses: Sequence[Clause],
    refs: Sequence[CrossRef] = (),
    amendments: Sequence[AmendmentLink] = (),
    findings: Sequence[LintFinding] = (),
    errors: Sequence[tuple[str, str]] = (),
    meta: dict[str, str] | None = None,
    lineage: Lineage | None = None,
    questions: Sequence[Question] = (),
) -> str:
    """Write everything to a temp file next to ``path`` and rename it into place; return the hash."""
    _check_unique(clauses)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".clauses-", suffix=".sqlite", dir=path.parent)
    os.close(fd)
    digest = corpus_hash(clauses)
    try:
        con = sqlite3.connect(tmp)
        with con:
            con.executescript(SCHEMA)
            rows = _rows(documents, clauses, refs, amendments, findings, errors, lineage)
            rows["questions"] = question_rows(questions)
            _insert_all(con, rows)
            info = {"schema_version": SCHEMA_VERSION, "corpus_hash": digest, **(meta or {})}
            con.executemany("INSERT INTO meta VALUES (?, ?)", info.items())
        con.close()
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return digest


def _check_unique(clauses: Sequence[Clause]) -> None:
    seen: set[tuple[str, str]] = set()
    for c in clauses:
        key = (c.doc_id, c.clause_id)
        if key in seen:
            raise StoreError(f"clause {c.clause_id!r} of {c.doc_id} appears twice (line {c.line})")
        seen.add(key)


_TABLES = (
    "documents",
    "clauses",
    "aliases",
    "refs",
    "amendments",
    "findings",
    "build_errors",
    *LINEAGE_TABLES,
    "questions",
)


def _rows(
    documents, clauses, refs, amendments, findings, errors, lineage=None
) -> dict[str, list[tuple]]:  # type: ignore[no-untyped-def]
    """Every row of every table, as inserted (and as :func:`store_digest` hashes them)."""
    return {
        **lineage_rows(lineage),
        "documents": [
            (
                d.doc_id,
                d.game,
                d.game_name,
                d.title,
                d.lang,
                d.version,
                d.effective_date,
                d.kind,
                d.source,
                d.amends,
                i,
                d.family,
            )
            for i, d in enumerate(documents)
        ],
        "clauses": [
            (
                c.doc_id,
                c.clause_id,
                c.parent_id,
                c.kind,
                c.title,
                c.text,
                c.raw_text,
                c.lang,
                c.line,
                c.seq,
                c.provenance,
                int(c.repaired),
                c.alt_raw_text,
                json.dumps(list(c.aliases), ensure_ascii=False),
                json.dumps([x.__dict__ for x in c.corrections], ensure_ascii=False),
            )
            for c in clauses
        ],
        "aliases": [(c.doc_id, c.clause_id, a) for c in clauses for a in c.aliases],
        "refs": [(r.doc_id, r.src_id, r.written, r.context, r.target_id, r.reason) for r in refs],
        "amendments": [
            (a.amend_doc, a.amend_id, a.target_doc, a.target_id, a.score, a.note)
            for a in amendments
        ],
        "findings": [
            (f.doc_id, f.code, f.clause_id, f.line, f.message, json.dumps(dict(f.params)))
            for f in findings
        ],
        "build_errors": [tuple(e) for e in errors],
    }


def _insert_all(con: sqlite3.Connection, rows: dict[str, list[tuple]]) -> None:
    for table in _TABLES:
        if rows[table]:
            marks = ",".join("?" * len(rows[table][0]))
            con.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[table])


def store_digest(
    documents: Sequence[Document],
    clauses: Sequence[Clause],
    refs: Sequence[CrossRef] = (),
    amendments: Sequence[AmendmentLink] = (),
    findings: Sequence[LintFinding] = (),
    errors: Sequence[tuple[str, str]] = (),
    meta: dict[str, str] | None = None,
    lineage: Lineage | None = None,
    questions: Sequence[Question] = (),
) -> str:
    """A hash of everything :func:`write_store` would write: equal digests, equal stores."""
    rows = _rows(documents, clauses, refs, amendments, findings, errors, lineage)
    rows["questions"] = question_rows(questions)
    payload = {"schema": SCHEMA_VERSION, "meta": meta or {}, **rows}
    return hashlib.sha256(json.dumps(payload, ensure_ascii=False).encode()).hexdigest()


def _clause(row: sqlite3.Row) -> Clause:
    return Clause(
        doc_id=row["doc_id"],
        clause_id=row["clause_id"],
        parent_id=row["parent_id"],
        kind=row["kind"],
        title=row["title"],
        text=row["text"],
        raw_text=row["raw_text"],
        lang=row["lang"],
        line=row["line"],
        seq=row["seq"],
        provenance=row["provenance"],
        repaired=bool(row["repaired"]),
        alt_raw_text=row["alt_raw_text"],
        aliases=tuple(json.loads(row["aliases"])),
        corrections=tuple(Correction(**x) for x in json.loads(row["corrections"])),
    )


def _ref(row: sqlite3.Row) -> CrossRef:
    return CrossRef(
        row["doc_id"],
        row["src_id"],
        row["written"],
        row["context"],
        row["target_id"],
        row["reason"],
    )


class ClauseStore:
    """Read-only access to a built store. Safe to share between threads.

    Opening runs ``PRAGMA quick_check``, so a store with damaged pages is refused at once;
    a page that goes bad later raises :class:`StoreError` (503), never a bare sqlite error.
    """

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise StoreError(f"no clause store at {path}; run `judgekb build` (or `make run`)")
        self.path = path
        self.damage: str | None = None  # the first read error seen, if any
        try:
            self._con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            self._con.row_factory = sqlite3.Row
            self._stat = _stat(path)
            problems = [r[0] for r in self._con.execute("PRAGMA quick_check(5)").fetchall()]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError(" ".join("; ".join(problems).split()))
            self.meta = dict(self._con.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"clause store {path} is unreadable ({exc}); run `judgekb build` to rebuild it"
            ) from exc
        found = self.meta.get("schema_version")
        if found != SCHEMA_VERSION:
            raise StoreError(
                f"clause store {path} has schema {found}, this judgekb reads schema "
                f"{SCHEMA_VERSION}; run `judgekb build`"
            )
        self._docs = [self._document(r) for r in self._q("SELECT * FROM documents ORDER BY ord")]

    def _q(self, sql: str, *args: object) -> list[sqlite3.Row]:
        try:
            return self._con.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            self.damage = self.damage or str(exc)
            log.error("clause store %s: %s", self.path, exc)
            raise StoreError(
                f"the clause store is damaged ({exc}); run `judgekb build` to rebuild it"
            ) from exc

    def query(self, sql: str, *args: object) -> list[sqlite3.Row]:
        """Rows of a read-only query, for modules that own tables of this store
        (:mod:`judgekb.corpus.edition_store`)."""
        return self._q(sql, *args)

    def close(self) -> None:
        self._con.close()

    def check(self) -> None:
        """Raise :class:`StoreError` unless the store still answers a query and its file is
        the one that was opened (cheap: one indexed query and a stat)."""
        if self.damage is not None:
            raise StoreError(f"the clause store is damaged ({self.damage}); run `judgekb build`")
        if _stat(self.path) != self._stat:
            raise StoreError("the clause store file changed on disk since it was opened")
        self._q("SELECT 1 FROM clauses LIMIT 1")

    @staticmethod
    def _document(r: sqlite3.Row) -> Document:
        return Document(
            r["doc_id"],
            r["game"],
            r["game_name"],
            r["title"],
            r["lang"],
            r["version"],
            r["effective_date"],
            r["kind"],
            r["source"],
            r["amends"],
            r["family"],
        )

    # documents and games -------------------------------------------------------------
    def documents(self) -> list[Document]:
        return list(self._docs)

    def document(self, doc_id: str) -> Document:
        for d in self._docs:
            if d.doc_id == doc_id:
                return d
        raise UnknownDocument(doc_id, [d.doc_id for d in self._docs])

    def games(self) -> dict[str, str]:
        return {d.game: d.game_name for d in self._docs}

    def check_game(self, game: str) -> str:
        if game not in self.games():
            raise UnknownGame(game, list(self.games()))
        return game

    def docs_of(self, game: str) -> list[Document]:
        self.check_game(game)
        return [d for d in self._docs if d.game == game]

    # clauses ------------------------------------------------------------------------
    def clauses(self, doc_id: str | None = None) -> list[Clause]:
        if doc_id is None:
            rows = self._q(
                "SELECT c.* FROM clauses c JOIN documents d USING (doc_id) ORDER BY d.ord, c.seq"
            )
        else:
            rows = self._q("SELECT * FROM clauses WHERE doc_id = ? ORDER BY seq", doc_id)
        return [_clause(r) for r in rows]

    def get(self, doc_id: str, clause_id: str) -> Clause | None:
        rows = self._q(
            "SELECT * FROM clauses WHERE doc_id = ? AND clause_id = ?", doc_id, clause_id
        )
        return _clause(rows[0]) if rows else None

    def clause(self, doc_id: str, clause_id: str) -> Clause:
        found = self.get(doc_id, clause_id)
        if found is None:
            self.document(doc_id)
            raise ClauseNotFound(doc_id, clause_id, self.suggest([doc_id], clause_id))
        return found

    def find(
        self,
        game: str,
        clause_id: str,
        doc_id: str | None = None,
        docs: Sequence[Document] | None = None,
    ) -> Clause:
        """A clause of ``game`` by id, else by alias, in ``doc_id`` or ``docs`` (in that
        order); by default the editions in force today win over amendments, and those over
        older or later editions (:func:`editions.current_first`)."""
        if docs is None:
            docs = [self.document(doc_id)] if doc_id else current_first(self.docs_of(game))
        for d in docs:
            found = self.get(d.doc_id, clause_id)
            if found is not None:
                return found
        # A misprinted number's intended form ("7.35.1" for the printed 7.46.1) or a glossary
        # term's name is an alias of the clause (the caller sees the id differs).
        by_doc = {c.doc_id: c for c in reversed(self.by_alias(clause_id, game))}
        for d in docs:
            if d.doc_id in by_doc:
                return by_doc[d.doc_id]
        raise ClauseNotFound(game, clause_id, self.suggest([d.doc_id for d in docs], clause_id))

    def suggest(self, doc_ids: Sequence[str], clause_id: str, n: int = 5) -> list[str]:
        """Nearest existing ids: the existing ancestors first, then close spellings."""
        ids: list[str] = []
        for d in doc_ids:
            ids += [r[0] for r in self._q("SELECT clause_id FROM clauses WHERE doc_id = ?", d)]
        ids = list(dict.fromkeys(ids))  # the same id in two documents of a game is one suggestion
        # the other separator first ("1.2.2.1" for a book that prints 1-2-2-1)
        out: list[str] = [
            other
            for other in dict.fromkeys((clause_id.replace(".", "-"), clause_id.replace("-", ".")))
            if other != clause_id and other in ids
        ]
        probe = clause_id
        while probe:
            cut = max(probe.rfind("."), probe.rfind("-"))
            probe = probe[:cut] if cut > 0 else ""
            if probe in ids and probe not in out:
                out.append(probe)
                break
        out += [
            i for i in difflib.get_close_matches(clause_id, ids, n=n, cutoff=0.6) if i not in out
        ]
        return out[:n]

    def children(self, doc_id: str, clause_id: str | None) -> list[Clause]:
        if clause_id is None:
            rows = self._q(
                "SELECT * FROM clauses WHERE doc_id = ? AND parent_id IS NULL ORDER BY seq", doc_id
            )
        else:
            rows = self._q(
                "SELECT * FROM clauses WHERE doc_id = ? AND parent_id = ? ORDER BY seq",
                doc_id,
                clause_id,
            )
        return [_clause(r) for r in rows]

    def parents(self, clause: Clause) -> list[Clause]:
        """The parent chain, root first."""
        chain: list[Clause] = []
        pid = clause.parent_id
        while pid is not None and len(chain) < 20:
            parent = self.get(clause.doc_id, pid)
            if parent is None:
                break
            chain.append(parent)
            pid = parent.parent_id
        return chain[::-1]

    def siblings(self, clause: Clause) -> tuple[Clause | None, Clause | None]:
        sibs = self.children(clause.doc_id, clause.parent_id)
        ids = [s.clause_id for s in sibs]
        i = ids.index(clause.clause_id) if clause.clause_id in ids else -1
        if i < 0:
            return None, None
        return (sibs[i - 1] if i > 0 else None), (sibs[i + 1] if i + 1 < len(sibs) else None)

    def refs_out(self, doc_id: str, clause_id: str) -> list[CrossRef]:
        return [
            _ref(r)
            for r in self._q(
                "SELECT * FROM refs WHERE doc_id = ? AND src_id = ? ORDER BY rowid",
                doc_id,
                clause_id,
            )
        ]

    def refs_in(self, doc_id: str, clause_id: str) -> list[CrossRef]:
        return [
            _ref(r)
            for r in self._q(
                "SELECT * FROM refs WHERE doc_id = ? AND target_id = ? ORDER BY rowid",
                doc_id,
                clause_id,
            )
        ]

    def all_refs(self) -> list[CrossRef]:
        return [_ref(r) for r in self._q("SELECT * FROM refs ORDER BY rowid")]

    def amendments(self, doc_id: str, clause_id: str) -> list[AmendmentLink]:
        """Links where this clause is the amending or the amended one."""
        rows = self._q(
            "SELECT * FROM amendments WHERE (amend_doc = ? AND amend_id = ?) "
            "OR (target_doc = ? AND target_id = ?) ORDER BY score DESC",
            doc_id,
            clause_id,
            doc_id,
            clause_id,
        )
        return [
            AmendmentLink(
                r["amend_doc"],
                r["amend_id"],
                r["target_doc"],
                r["target_id"],
                r["score"],
                r["note"],
            )
            for r in rows
        ]

    def all_amendments(self) -> list[AmendmentLink]:
        return [
            AmendmentLink(
                r["amend_doc"],
                r["amend_id"],
                r["target_doc"],
                r["target_id"],
                r["score"],
                r["note"],
            )
            for r in self._q("SELECT * FROM amendments")
        ]

    def by_alias(self, alias: str, game: str | None = None) -> list[Clause]:
        rows = self._q(
            "SELECT c.* FROM aliases a JOIN clauses c USING (doc_id, clause_id) "
            "JOIN documents d USING (doc_id) WHERE a.alias = ? COLLATE NOCASE "
            "AND (? IS NULL OR d.game = ?)",
            alias,
            game,
            game,
        )
        return [_clause(r) for r in rows]

    def findings(
        self, doc_id: str | None = None, clause_id: str | None = None
    ) -> list[LintFinding]:
        """Lint findings, of one document and one clause when given."""
        rows = self._q(
            "SELECT * FROM findings WHERE (? IS NULL OR doc_id = ?) AND (? IS NULL OR "
            "clause_id = ?) ORDER BY rowid",
            doc_id,
            doc_id,
            clause_id,
            clause_id,
        )
        return [
            LintFinding(
                r["doc_id"],
                r["code"],
                r["clause_id"],
                r["line"],
                r["message"],
                tuple(json.loads(r["params"]).items()),
            )
            for r in rows
        ]

    def questions(self) -> list[Question]:
        """Judges' questions about the clauses (the question view), in file order."""
        rows = self._q("SELECT * FROM questions ORDER BY rowid")
        return [
            Question(r["doc_id"], r["clause_id"], r["style"], r["text"], r["line"]) for r in rows
        ]

    def build_errors(self) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self._q("SELECT doc_id, message FROM build_errors")]
